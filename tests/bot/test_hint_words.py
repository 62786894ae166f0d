"""Every reason a hint can give has words in every language, filled with what it names."""

from __future__ import annotations

import pytest

from bot.text import i18n
from bot.text.present import reason_text
from engine.ai import REASON_CODES, Reason

LOCALES = ("en", "ja", "pt-BR")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("code", REASON_CODES)
def test_every_reason_is_worded(locale: str, code: str) -> None:
    reason = Reason(code, building=4, tile=37, amount=3)
    text = reason_text(locale, reason)
    assert text and "{" not in text and "}" not in text
    assert i18n.has(f"hint.reason.{code}") or i18n.plural_family(f"hint.reason.{code}")


def test_a_reason_names_its_building_and_count() -> None:
    assert reason_text("en", Reason("majority_take", building=4)).startswith(
        "It takes the lead in Garden"
    )
    assert reason_text("pt-BR", Reason("majority_take", building=4)).startswith(
        "Assume a liderança em Jardim"
    )
    assert "the Garden (8)" in reason_text("en", Reason("money_afford", tile=37))
    assert "1 segment longer" in reason_text("en", Reason("wall", building=4, amount=1))
    assert "2 segments longer" in reason_text("en", Reason("wall", building=4, amount=2))
    assert "5 in all" in reason_text("en", Reason("money_most", amount=5))
    assert reason_text("en", Reason("no_such_code")) == reason_text("en", Reason("best_value"))
