"""Command line entry point: `python -m bot` (and the `alhambra-bot` console script)."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    if not os.environ.get("DISCORD_TOKEN"):
        print("alhambra-bot: set DISCORD_TOKEN to your bot's token to run it.", file=sys.stderr)
        return 2
    print("alhambra-bot: the Discord client is not built yet (README, Status).", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
