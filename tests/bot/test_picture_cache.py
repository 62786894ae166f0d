"""Pictures drawn moments ago are not drawn again: the same table asked by several players, a
panel redrawn for a menu. A picture found in the cache is byte-identical to a fresh drawing."""

from __future__ import annotations

import render
from bot.discord_app import pictures
from bot.ops import metrics
from bot.text import i18n
from render.samples import late, names


def _reused(kind: str) -> float:
    return metrics.RENDER_REUSED.labels(kind)._value.get()


async def test_the_same_picture_is_drawn_once_and_is_identical() -> None:
    pictures._DRAWN.clear()
    view = late(3, 5).view(None)
    before = _reused("table")
    first = (await pictures.table_file(view, names(3), "en")).fp.read()
    again = (await pictures.table_file(view, names(3), "en")).fp.read()
    assert _reused("table") == before + 1
    assert first == again == render.render_table(view, names(3), labels=i18n.image_labels("en"))


async def test_a_different_picture_is_drawn_and_old_ones_make_way() -> None:
    pictures._DRAWN.clear()
    view = late(3, 5).view(None)
    before = _reused("table")
    english = (await pictures.table_file(view, names(3), "en")).fp.read()
    persian = (await pictures.table_file(view, names(3), "fa")).fp.read()
    other = (await pictures.table_file(late(3, 9).view(None), names(3), "en")).fp.read()
    assert _reused("table") == before
    assert len({english, persian, other}) == 3
    for n in range(pictures.DRAWN_KEEP):
        pictures._DRAWN[n.to_bytes(4, "big")] = b""
    await pictures.table_file(late(3, 7).view(None), names(3), "en")
    assert len(pictures._DRAWN) == pictures.DRAWN_KEEP
    again = (await pictures.table_file(view, names(3), "en")).fp.read()
    assert again == english
    assert _reused("table") == before  # the oldest made way: drawn again, not found
