"""The image, read as text (no Docker engine here): it installs what the bot draws with and
nothing more, runs as uid 10001 and checks its health with the command the README describes."""

from __future__ import annotations

import re
from pathlib import Path

from render import fonts

DOCKERFILE = (Path(__file__).resolve().parents[2] / "Dockerfile").read_text()


def test_the_image_keeps_only_the_cjk_fonts_the_pictures_use() -> None:
    wanted = {name for names in fonts._CJK.values() for name in names}
    # Debian's fonts-noto-cjk brings Sans (drawn with) and Serif (never drawn with, 54 MB)
    assert "fonts-noto-cjk " in DOCKERFILE and "fonts-noto-cjk-extra" not in DOCKERFILE
    assert re.search(r"rm -f /usr/share/fonts/opentype/noto/NotoSerifCJK\*", DOCKERFILE)
    assert not any(name.startswith("NotoSerif") for name in wanted)
    assert "NotoSansCJK-Regular.ttc" in wanted and "NotoSansCJK-Bold.ttc" in wanted


def test_the_image_keeps_noto_sans_arabic_for_persian_and_no_other_noto_core_font() -> None:
    wanted = {name for names in fonts._ARABIC.values() for name in names[:1]}
    assert wanted == {"NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"}
    assert "fonts-noto-core" in DOCKERFILE
    for name in wanted:  # what render/fonts.py looks for first is what the image keeps
        assert f"! -name '{name}'" in DOCKERFILE
    assert "find /usr/share/fonts/truetype/noto -type f" in DOCKERFILE
    assert "/usr/share/fonts/truetype/noto" in fonts._ARABIC_DIRS


def test_the_image_runs_as_its_own_user_with_a_real_healthcheck() -> None:
    assert "useradd --create-home --uid 10001" in DOCKERFILE
    assert "USER alhambra" in DOCKERFILE
    assert 'CMD ["python", "-m", "bot", "health"]' in DOCKERFILE
    assert '".[sentry,postgres]"' in DOCKERFILE  # both database engines in the image
