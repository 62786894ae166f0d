"""Reaching one player away from the table (`turns.ports.Messenger` for Discord): the DM that
opens a turn, the reminder DM listing every game waiting on them, and a channel mention for
players who do not accept DMs. When and whether to send is decided in `turns.reminders`."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

import discord

from ..core.plans import PlanReport
from ..core.records import GameInfo, SeatInfo
from ..core.services import Services
from ..ops import metrics
from ..text import i18n
from ..text.plans import report_lines
from ..text.present import money_lines, player_names, since_last_turn
from ..turns.ports import Delivery
from .dms import send_dm
from .markup import pinging, place_of, stamp, turn_link
from .pictures import hand_file

log = logging.getLogger("alhambra.notify")


class DiscordMessenger:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services

    async def turn_dm(
        self, game: GameInfo, player: SeatInfo, locale: str, deadline: datetime | None
    ) -> Delivery:
        """Where the turn is, its deadline, the player's money (and what each market slot asks
        of it), what happened since their last turn, and their hand: what they plan a turn
        from that the channel does not show them (the table is in the turn message)."""
        assert player.user_id is not None and player.seat is not None
        services = self.services
        server, channel = place_of(self.client, game)
        link = await turn_link(services, game)
        lines = [i18n.t(locale, "notify.turn", server=server, channel=channel, link=link)]
        if deadline is not None:
            lines.append(i18n.t(locale, "notify.deadline", when=stamp(deadline)))
        viewed = await services.play.view(game.id, player.user_id)
        lines += money_lines(locale, viewed.view, market=not viewed.view.final_placement)
        names = player_names(locale, game)
        since = since_last_turn(locale, names, await services.play.log(game.id), player.seat)
        if since:
            lines += ["", f"**{i18n.t(locale, 'notify.since')}**", *since]
        return await self._dm(
            player.user_id,
            content="\n".join(lines)[:2000],
            file=await hand_file(viewed.view, player.name, locale),
        )

    async def reminder(self, user_id: int, games: list[GameInfo]) -> Delivery:
        fallback = await self.services.people.game_locale(games[0].id)
        locale = await self.services.people.dm_locale(user_id, fallback)
        lines = [i18n.t(locale, "notify.reminder", count=len(games))]
        for game in games:
            server, channel = place_of(self.client, game)
            since = game.turn_started_at or game.updated_at
            link = await turn_link(self.services, game)
            lines.append(
                i18n.t(
                    locale,
                    "notify.reminder_line",
                    server=server,
                    channel=channel,
                    since=stamp(since),
                    link=link,
                )
            )
        return await self._dm(user_id, content="\n".join(lines)[:2000])

    async def nudge(self, game: GameInfo, user_id: int) -> bool:
        locale = await self.services.people.game_locale(game.id)
        link = await turn_link(self.services, game)
        text = i18n.t(locale, "notify.nudge", mention=f"<@{user_id}>", link=link)
        try:
            channel = self.client.get_partial_messageable(game.channel_id)
            await channel.send(text, allowed_mentions=pinging(user_id))
        except discord.HTTPException as exc:
            log.warning("could not mention user %s in game %s: %s", user_id, game.id, exc)
            return False
        return True

    async def plan_report(
        self, game: GameInfo, player: SeatInfo, report: PlanReport, locale: str
    ) -> Delivery:
        assert player.user_id is not None
        locale = await self.services.people.dm_locale(player.user_id, locale)
        lines = report_lines(locale, game.id, report)
        lines.append(await turn_link(self.services, game))
        return await self._dm(player.user_id, content="\n".join(lines)[:2000])

    async def _dm(self, user_id: int, **message: Any) -> Delivery:
        delivery = await send_dm(self.client, user_id, **message)
        metrics.DMS.labels(delivery.value).inc()
        return delivery
