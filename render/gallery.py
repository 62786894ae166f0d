"""Write the sample pictures to a folder, so anyone can look at what players will see.

    python -m render.gallery OUTDIR

The positions are seeded games (render/samples.py): start, middle and end of 2-, 4- and
6-player games, hands, score sheets, placement labels and a huge Alhambra.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from .fonts import describe
from .samples import gallery


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render.gallery", description=__doc__)
    parser.add_argument("outdir", type=Path, help="folder for the PNG files (created if missing)")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    print("fonts:", ", ".join(dict.fromkeys(describe())) or "Pillow's built-in font")
    for sample in gallery():
        start = time.perf_counter()
        png = sample.draw()
        path = args.outdir / f"{sample.name}.png"
        path.write_bytes(png)
        ms = (time.perf_counter() - start) * 1000
        print(f"{path}  {len(png) / 1024:6.1f} KiB  {ms:6.1f} ms (game included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
