"""Whole games of Alhambra played through Discord: buttons and menus, and slash commands."""

from __future__ import annotations

import pytest
from database import connect as connect_db
from fake_discord import FakeDiscord
from players import Table, open_game, play_to_the_end

from engine import Options, replay
from engine.actions import action_from_json


def replayed(db_path, game_id: int):
    with connect_db(db_path) as conn:
        players, seed, options = conn.execute(
            "SELECT (SELECT COUNT(*) FROM seats WHERE game_id = games.id), seed, options "
            "FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        actions = [
            action_from_json(a)
            for (a,) in conn.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
    return replay(players, seed, Options.model_validate_json(options), actions)


async def start_game(sim: FakeDiscord, channel, host, others, by: str = "buttons"):
    lobby = (await open_game(sim, host, channel)).response
    if by == "commands":
        for user in others:
            await sim.slash(user, "alhambra join", channel=channel)
        started = await sim.slash(host, "alhambra start", channel=channel)
        return started.response
    for user in others:
        await sim.click(user, lobby, "Join")
    started = await sim.click(host, lobby, "Start")
    await started.wait_followups(1)
    return started.followups[0]


@pytest.mark.parametrize(("players", "by"), [(3, "buttons"), (2, "buttons"), (3, "commands")])
async def test_a_complete_game(sim, run_bot, make_bot, db_path, players, by) -> None:
    names = ["ana", "bruno", "chiyo"][:players]
    users = [sim.user(n) for n in names]
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        first = await start_game(sim, channel, users[0], users[1:], by)
        assert first.attachment("table.png").is_png()
        table = Table(sim, channel, db_path, {u.id: u for u in users}, explore=0.15)
        final = await play_to_the_end(table, bot, by=by)
        await bot.idle()
    game_id = table.state()[0]
    again = replayed(db_path, game_id)
    assert again.is_over and again.scores == final.scores
    messages = sim.channel_messages(channel)
    results = [m for m in messages if "The game is over!" in m.content]
    assert len(results) == 1 and results[0].attachment("scores.png").is_png()
    winner = min(range(players), key=lambda s: (final.ranks[s], s))
    user_at = table.state()[2]
    winner_name = next(u.name for u in users if u.id == user_at[winner])
    assert f"Winner: {winner_name}" in results[0].content
    for message in messages:
        for attachment in message.attachments:
            assert attachment.image().width <= 1600
    # every picture of the game (channel, private panels, DMs) says in words what it shows
    pictures = list(sim.uploads.values())
    assert len(pictures) > 50  # a table each turn, panels, DMs: a whole game of them
    for picture in pictures:
        assert picture.description and picture.description.strip(), picture.filename
        assert len(picture.description) <= 1024
    # (old turn messages lose their picture once the next is posted: look at what was sent)
    tables = [a for a in pictures if a.filename == "table.png"]
    assert tables
    for picture in tables:
        said = picture.description
        assert "Market: Crown: " in said and "; Ducat: " in said, said
        assert "Money pool: " in said or "The money pool is empty." in said, said
        assert all(f"{name}: " in said for name in names), said
    final_sheet = results[0].attachment("scores.png").description
    assert final_sheet.startswith(f"Final scores. Standings: 1. {winner_name} "), final_sheet
    assert table.actions > 20
    # the random share of the decisions reached the redesign menus too
    assert {"remove", "build", "swap"} & set(table.kinds), table.kinds
