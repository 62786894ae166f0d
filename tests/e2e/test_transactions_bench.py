"""bench/transactions.py's core, with one warm-up turn: it runs against the real bot and counts,
at the driver, the transactions of each click of a turn, End turn included.

The benchmark's figures are for people to read (and to compare before and after a change to
the bot's core); this only checks that it measures what it promises."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load_bench():
    spec = importlib.util.spec_from_file_location(
        "transactions_bench", ROOT / "bench" / "transactions.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["transactions_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


async def test_the_transactions_of_a_turn_are_counted(blocked_hosts: list[str]) -> None:
    bench = _load_bench()
    options = bench.Options(warmup=1, why=True)
    report = await bench.run(options)

    assert report.engine.startswith("SQLite")
    assert [turn.title[:2] for turn in report.turns] == ["A.", "B."]
    for turn in report.turns:
        assert [click.name for click in turn.clicks] == list(bench.CLICKS)
        assert len(turn.total.transactions) > 0 and turn.total.statements > 0
        opened, move, end = turn.clicks
        assert opened.kinds()["write"] == 0, "opening the panel writes nothing"
        # the move and End turn are saved: a write transaction opened by Play._apply
        for click in (move, end):
            writes = [t for t in click.transactions if t.kind == "write"]
            assert any(t.opener.endswith("Play._apply") for t in writes), writes
        assert len(end.transactions) > len(move.transactions), "End turn also tells the table"
        assert all(t.opener != "?" and t.caller != "?" for t in end.transactions)
    # the move read all that telling needs: a turn told by DM reads nothing more than one told
    # by a mention, and the whole turn stays within ten transactions
    mention, dm = (turn.clicks[2] for turn in report.turns)
    assert len(dm.transactions) == len(mention.transactions)
    for turn in report.turns:
        assert len(turn.total.transactions) <= 10, [t.opener for t in turn.total.transactions]

    printed = "\n".join(bench.lines(report, options))
    assert "End turn" in printed and "the turn" in printed and "Play._apply" in printed
    assert not blocked_hosts
