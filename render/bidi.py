"""Right-to-left text in pictures: the order in which the parts of a line are drawn.

Pillow's Raqm layout orders and shapes right-to-left text, but only within one call with one
font, and `render.text` draws a line as runs of different fonts (Persian letters in Noto Sans
Arabic, a Latin name in DejaVu Sans). So the line's order is decided here, by a compact form of
the Unicode Bidirectional Algorithm (UAX #9): the paragraph's direction from its first strong
character (an RLM or LRM counts, isolates are skipped), isolates (FSI/LRI/RLI ... PDI) as
levels of their own, numbers with their signs and separators kept together, neutrals taking
the direction around them, then the levels reversed (rule L2). Each piece is then drawn by Raqm
in its own direction, which joins the Arabic letters and mirrors brackets.

Not covered, as nothing drawn needs them: explicit embeddings and overrides (cleaned away
before), bracket pairs (N0), and line breaking across levels (every picture line is one line).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
LRM, RLM = "\u200e", "\u200f"
OPENERS = (LRI, RLI, FSI)
#: Marks that only steer the order: kept by `text.clean`, zero width, never drawn.
MARKS = frozenset({LRI, RLI, FSI, PDI, LRM, RLM})


def _kind(ch: str) -> str:
    """L, R, EN (a number), ES/ET/CS (what stays with a number), or N (neutral)."""
    if ch == RLM:
        return "R"
    if ch == LRM:
        return "L"
    bidi = unicodedata.bidirectional(ch)
    if bidi in ("R", "AL"):
        return "R"
    if bidi == "L":
        return "L"
    if bidi in ("EN", "AN"):
        return "EN"
    if bidi in ("ES", "ET", "CS"):
        return bidi
    return "N"


def has_rtl(text: str) -> bool:
    """Whether the text needs this module: right-to-left letters or direction marks in it."""
    return any(ch in MARKS or _kind(ch) == "R" for ch in text)


def _matching(text: str, start: int) -> int:
    """The index of the PDI that closes the isolate opened at `start` (or the text's end)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in OPENERS:
            depth += 1
        elif text[i] == PDI:
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def first_strong(text: str) -> str | None:
    """'L' or 'R' for the first strong character outside isolates (rule P2), else None."""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in OPENERS:
            i = _matching(text, i) + 1
            continue
        kind = _kind(ch)
        if kind in ("L", "R"):
            return kind
        i += 1
    return None


def levels(text: str, base: int | None = None) -> list[int]:
    """The embedding level of each character (even: left to right, odd: right to left).
    `base` is the paragraph's level; by default its first strong character decides (P2, P3)."""
    if base is None:
        base = 1 if first_strong(text) == "R" else 0
    out = [base] * len(text)
    _resolve(text, 0, len(text), base, out)
    return out


def _resolve(text: str, start: int, end: int, level: int, out: list[int]) -> None:
    """Levels of text[start:end], a sequence at `level` whose isolates are resolved in turn."""
    indices: list[int] = []  # the characters of this level's sequence (isolates are neutral)
    kinds: list[str] = []
    i = start
    while i < end:
        ch = text[i]
        if ch in OPENERS:
            close = min(_matching(text, i), end)
            inner = text[i + 1 : close]
            rtl = ch == RLI or (ch == FSI and first_strong(inner) == "R")
            inside = (level + 1) | 1 if rtl else (level + 2) & ~1
            out[i] = level
            _resolve(text, i + 1, close, inside, out)
            indices.append(i)
            kinds.append("N")
            if close < end:
                out[close] = level
                indices.append(close)
                kinds.append("N")
            i = close + 1
            continue
        indices.append(i)
        kinds.append(_kind(ch))
        i += 1
    embedding = "R" if level % 2 else "L"
    # W4, W5: a separator between two numbers, and signs next to a number, go with it.
    for k in range(len(kinds)):
        between = 0 < k < len(kinds) - 1 and kinds[k - 1] == kinds[k + 1] == "EN"
        if kinds[k] in ("ES", "CS") and between:
            kinds[k] = "EN"
    for k in range(len(kinds)):
        if kinds[k] == "ET":
            j = k
            while j < len(kinds) and kinds[j] == "ET":
                j += 1
            if (k > 0 and kinds[k - 1] == "EN") or (j < len(kinds) and kinds[j] == "EN"):
                for m in range(k, j):
                    kinds[m] = "EN"
    kinds = ["N" if kind in ("ES", "ET", "CS") else kind for kind in kinds]
    # W7: a number after left-to-right letters (or at the start of a left-to-right level) is
    # left to right itself.
    last = embedding
    for k, kind in enumerate(kinds):
        if kind in ("L", "R"):
            last = kind
        elif kind == "EN" and last == "L":
            kinds[k] = "L"
    # N1, N2: neutrals between the same direction take it (numbers count as right to left),
    # the others the level's own.
    k = 0
    while k < len(kinds):
        if kinds[k] != "N":
            k += 1
            continue
        j = k
        while j < len(kinds) and kinds[j] == "N":
            j += 1
        before = embedding if k == 0 else ("R" if kinds[k - 1] == "EN" else kinds[k - 1])
        after = embedding if j == len(kinds) else ("R" if kinds[j] == "EN" else kinds[j])
        fill = before if before == after else embedding
        for m in range(k, j):
            kinds[m] = fill
        k = j
    # I1, I2: the levels.
    for index, kind in zip(indices, kinds, strict=True):
        if level % 2 == 0:
            out[index] = level + (1 if kind == "R" else 2 if kind == "EN" else 0)
        else:
            out[index] = level + (0 if kind == "R" else 1)


def reorder(pieces: list[tuple[T, int]]) -> list[tuple[T, int]]:
    """Pieces of a line (anything, level) in logical order, put in the order they are drawn
    from left to right (rule L2: each sequence at or above a level reversed, highest first)."""
    order = list(pieces)
    if not order:
        return order
    top = max(level for _, level in order)
    lowest_odd = min((level for _, level in order if level % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):
        k = 0
        while k < len(order):
            if order[k][1] < level:
                k += 1
                continue
            j = k
            while j < len(order) and order[j][1] >= level:
                j += 1
            order[k:j] = order[k:j][::-1]
            k = j
    return order


@lru_cache(maxsize=4096)
def visual_split(text: str) -> tuple[tuple[int, int, int], ...]:
    """(start, end, level) of each same-level stretch of `text`, in drawing order."""
    lv = levels(text)
    stretches: list[tuple[tuple[int, int], int]] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or lv[i] != lv[start]:
            stretches.append(((start, i), lv[start]))
            start = i
    return tuple((a, b, level) for (a, b), level in reorder(stretches))
