"""Reaching one player away from the table (`turns.ports.Messenger` for Discord): the DM that
opens a turn, the reminder DM listing every game waiting on them, and a channel mention for
players who do not accept DMs. When and whether to send is decided in `turns.reminders`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord

from ..core.plans import PlanReport
from ..core.records import GameInfo
from ..ops import metrics
from ..text import i18n
from ..text.plans import report_lines
from ..text.present import money_lines, player_names, since_last_turn
from ..turns.ports import Delivery, MessageRef
from ..turns.telling import TurnDm
from .dms import send_dm
from .markup import pinging, place_of, stamp, turn_link
from .pictures import hand_file

log = logging.getLogger("alhambra.notify")


class DiscordMessenger:
    """Sends what `turns` decided to send; it holds no service and reads nothing."""

    def __init__(self, client: discord.Client, now: Callable[[], datetime]) -> None:
        self.client = client
        #: the bot's clock: a time written in words ("in 3 hours") is counted from it
        self.now = now

    async def turn_dm(self, dm: TurnDm, turn_message: MessageRef | None) -> Delivery:
        """Where the turn is, its deadline, the player's money (and what each market slot asks
        of it), what happened since their last turn, and their hand: what they plan a turn
        from that the channel does not show them (the table is in the turn message)."""
        game, locale = dm.game, dm.locale
        server, channel = place_of(self.client, game)
        link = turn_link(game, turn_message)
        lines = [i18n.t(locale, "notify.turn", server=server, channel=channel, link=link)]
        if dm.deadline is not None:
            lines.append(
                i18n.t(locale, "notify.deadline", when=stamp(locale, dm.deadline, self.now()))
            )
        lines += money_lines(locale, dm.view, market=not dm.view.final_placement)
        names = player_names(locale, game)
        since = since_last_turn(locale, names, dm.log, dm.seat) if dm.log is not None else []
        if since:
            lines += ["", f"**{i18n.t(locale, 'notify.since')}**", *since]
        return await self._dm(
            dm.user_id,
            content="\n".join(lines)[:2000],
            file=await hand_file(dm.view, dm.name, locale),
        )

    async def reminder(
        self, user_id: int, locale: str, games: list[tuple[GameInfo, MessageRef | None]]
    ) -> Delivery:
        lines = [i18n.t(locale, "notify.reminder", count=len(games))]
        for game, shown in games:
            server, channel = place_of(self.client, game)
            since = game.turn_started_at or game.updated_at
            lines.append(
                i18n.t(
                    locale,
                    "notify.reminder_line",
                    server=server,
                    channel=channel,
                    since=stamp(locale, since, self.now()),
                    link=turn_link(game, shown),
                )
            )
        return await self._dm(user_id, content="\n".join(lines)[:2000])

    async def nudge(
        self, game: GameInfo, user_id: int, locale: str, turn_message: MessageRef | None
    ) -> bool:
        link = turn_link(game, turn_message)
        text = i18n.t(locale, "notify.nudge", mention=f"<@{user_id}>", link=link)
        try:
            channel = self.client.get_partial_messageable(game.channel_id)
            await channel.send(text, allowed_mentions=pinging(user_id))
        except discord.HTTPException as exc:
            log.warning("could not mention user %s in game %s: %s", user_id, game.id, exc)
            return False
        return True

    async def plan_report(
        self,
        game: GameInfo,
        user_id: int,
        report: PlanReport,
        locale: str,
        turn_message: MessageRef | None,
    ) -> Delivery:
        lines = report_lines(locale, game.id, report)
        lines.append(turn_link(game, turn_message))
        return await self._dm(user_id, content="\n".join(lines)[:2000])

    async def owner_notice(self, owner_id: int, locale: str, server: str, channel: str) -> Delivery:
        text = i18n.t(locale, "notify.no_permission", server=server, channel=channel)
        try:
            dm = await self.client.create_dm(discord.Object(owner_id))
            await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell the owner %s about channel %s", owner_id, channel)
            return Delivery.FAILED
        return Delivery.SENT

    async def _dm(self, user_id: int, **message: Any) -> Delivery:
        delivery = await send_dm(self.client, user_id, **message)
        metrics.DMS.labels(delivery.value).inc()
        return delivery
