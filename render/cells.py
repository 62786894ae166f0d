"""Short codes for the cells of an Alhambra, shared by the pictures and the commands.

A player reads a code off the picture ("K12") and types or picks it; the bot turns it back into
(x, y). The code is a pure function of the cell, so the same cell always has the same code: in
every picture, for the whole decision and for the whole game. No picture state is needed to
parse a player's answer.

The scheme is a chess board centred on the fountain: columns are letters A..Y from west to east
(x = -12..12, the fountain's column is M), rows are numbers 1..25 from north to south
(y = -12..12, the fountain's row is 13). So the fountain is M13, the cell east of it N13 and the
cell north of it M12. Codes are case-insensitive.

Alhambras almost never reach past 12 cells from the fountain, but a long line of buildings can.
Cells up to 21 cells away get a code "Z" + two base-36 characters (Z00, Z01, ..., ZZZ), numbered
row by row; they are still at most 3 characters and unique. Further cells have no code.
"""

from __future__ import annotations

from functools import lru_cache

#: Cells with max(|x|, |y|) <= CHESS_RADIUS get a letter + number code.
CHESS_RADIUS = 12
#: Cells with max(|x|, |y|) <= MAX_RADIUS have a code at all.
MAX_RADIUS = 21
FOUNTAIN_CODE = "M13"

_COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXY"  # 25 letters, x = -12..12
_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Cell = tuple[int, int]


@lru_cache(maxsize=1)
def _far_cells() -> tuple[tuple[Cell, ...], dict[Cell, int]]:
    """The cells beyond the chess board, in row-major order, and their index."""
    cells = tuple(
        (x, y)
        for y in range(-MAX_RADIUS, MAX_RADIUS + 1)
        for x in range(-MAX_RADIUS, MAX_RADIUS + 1)
        if max(abs(x), abs(y)) > CHESS_RADIUS
    )
    assert len(cells) <= len(_BASE36) ** 2
    return cells, {c: i for i, c in enumerate(cells)}


def has_code(x: int, y: int) -> bool:
    return max(abs(x), abs(y)) <= MAX_RADIUS


def cell_code(x: int, y: int) -> str:
    """The code of cell (x, y): at most 3 characters, upper case. Raises ValueError for a cell
    too far from the fountain (more than 21 cells)."""
    if max(abs(x), abs(y)) <= CHESS_RADIUS:
        return f"{_COLUMNS[x + CHESS_RADIUS]}{y + CHESS_RADIUS + 1}"
    index = _far_cells()[1].get((x, y))
    if index is None:
        raise ValueError(f"cell ({x}, {y}) is too far from the fountain to have a code")
    return "Z" + _BASE36[index // 36] + _BASE36[index % 36]


def parse_cell_code(code: object) -> Cell:
    """The cell (x, y) a code names. Accepts any case and surrounding spaces; raises ValueError
    with a message for players when the text is not a cell code, and for anything that is not
    text (an option of the wrong type), with the same message."""
    shown = _shown(code)
    error = ValueError(
        f"'{shown}' is not a cell code: use a column letter and a row number as "
        f"shown on your Alhambra, for example {FOUNTAIN_CODE[0]}12."
    )
    if not isinstance(code, str):
        raise error
    text = code.strip().upper()
    if not 2 <= len(text) <= 3 or not text.isascii():
        raise error
    if text[0] == "Z":
        if len(text) != 3 or text[1] not in _BASE36 or text[2] not in _BASE36:
            raise error
        cells = _far_cells()[0]
        index = _BASE36.index(text[1]) * 36 + _BASE36.index(text[2])
        if index >= len(cells):
            raise error
        return cells[index]
    column = _COLUMNS.find(text[0])
    digits = text[1:]
    if column < 0 or not digits.isdigit() or digits[0] == "0":
        raise error
    row = int(digits)
    if not 1 <= row <= 2 * CHESS_RADIUS + 1:
        raise error
    return column - CHESS_RADIUS, row - CHESS_RADIUS - 1


def _shown(code: object) -> str:
    """The start of what was typed, to repeat in the refusal: 12 characters, invisible ones
    shown as "?", mentions broken by a zero-width space, backticks escaped (the bot's `echo`
    does more, but render cannot import the bot)."""
    try:
        text = code if isinstance(code, str) else str(code)
    except Exception:  # an object whose str() fails
        text = type(code).__name__
    head = "".join(ch if ch.isprintable() else "?" for ch in text.strip()[:12])
    return head.replace("\\", "\\\\").replace("`", "\\`").replace("@", "@\u200b")


def column_label(x: int) -> str | None:
    """The letter drawn above column x, None beyond the chess board."""
    return _COLUMNS[x + CHESS_RADIUS] if abs(x) <= CHESS_RADIUS else None


def row_label(y: int) -> str | None:
    """The number drawn left of row y, None beyond the chess board."""
    return str(y + CHESS_RADIUS + 1) if abs(y) <= CHESS_RADIUS else None
