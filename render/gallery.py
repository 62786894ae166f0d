"""Write the sample pictures to a folder, so anyone can look at what players will see.

    python -m render.gallery OUTDIR [--preview] [--colour-blind]

The positions are seeded games (render/samples.py): start, middle and end of 2-, 4- and
6-player games, hands, score sheets, the points table, a player's record, placement codes and
huge Alhambras.
`--preview` also writes each picture at the size Discord first shows it (`NAME.desktop.png`,
`NAME.phone.png`: `render.display`) and prints its smallest text on screen; `--colour-blind`
writes each as seen with protanopia, deuteranopia and tritanopia (`render.vision`).
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path

from .canvas import to_png
from .display import DEVICES, MIN_SCREEN_PX, SHOWN, measure, preview
from .fonts import describe
from .samples import gallery
from .vision import DEFICIENCIES, simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render.gallery", description=__doc__)
    parser.add_argument("outdir", type=Path, help="folder for the PNG files (created if missing)")
    parser.add_argument(
        "--preview",
        action="store_true",
        help="also write each picture at the size Discord first shows it, desktop and phone",
    )
    parser.add_argument(
        "--colour-blind",
        action="store_true",
        help="also write each picture as seen with protanopia, deuteranopia and tritanopia",
    )
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    print("fonts:", ", ".join(dict.fromkeys(describe())) or "Pillow's built-in font")
    small = 0
    for sample in gallery():
        start = time.perf_counter()
        png = sample.draw()
        ms = (time.perf_counter() - start) * 1000
        path = args.outdir / f"{sample.name}.png"
        path.write_bytes(png)
        line = f"{path}  {len(png) / 1024:6.1f} KiB  {ms:6.1f} ms (game included)"
        if args.preview:
            shown = SHOWN[sample.kind]
            img, legible = measure(partial(sample.image, None), shown)
            for device in DEVICES:
                out = args.outdir / f"{sample.name}.{device}.png"
                out.write_bytes(to_png(preview(img, shown, device)))
            screen = " / ".join(f"{legible.screen[d]:.1f}" for d in DEVICES)
            line += f"  smallest text on screen {screen} px (desktop / phone)"
            small += legible.worst < MIN_SCREEN_PX
        if args.colour_blind:
            img = sample.image(None)
            for kind in DEFICIENCIES:
                (args.outdir / f"{sample.name}.{kind}.png").write_bytes(to_png(simulate(img, kind)))
        print(line)
    if small:
        print(f"{small} picture(s) have text under {MIN_SCREEN_PX:g} px on screen")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
