"""Every refusal can be told to every user: `error_text` never raises, keeps a message that is
already in the user's language, and never shows an unfilled placeholder."""

from __future__ import annotations

import logging

import pytest

from bot.core import errors
from bot.core.errors import (
    BadCode,
    BadSetting,
    IllegalMove,
    InvalidRequest,
    NoSuchChoice,
    Outdated,
    ServiceError,
)
from bot.text import i18n
from bot.text.present import ERROR_TEXT_LIMIT, error_text


def _all_subclasses(cls: type[ServiceError]) -> set[type[ServiceError]]:
    out = {cls}
    for sub in cls.__subclasses__():
        out |= _all_subclasses(sub)
    return out


SERVICE_ERRORS = sorted(
    {
        value
        for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, ServiceError)
    }
    | _all_subclasses(ServiceError),
    key=lambda c: c.__name__,
)


def _messages(cls: type[ServiceError], locale: str) -> list[str | None]:
    """The kinds of message an error is raised with: none (the default), the service's own
    English, and the catalogue's text for its code in any locale."""
    out: list[str | None] = [None, "A precise reason, in English: {not a placeholder}."]
    key = f"error.{cls.code}"
    if i18n.has(key):
        params = {p: "XYZ" for p in i18n.placeholders(i18n.catalogue("en")[key])}
        out += [i18n.t(other, key, **params) for other in i18n.SUPPORTED]
    return out


def test_every_service_error_is_covered() -> None:
    assert len(SERVICE_ERRORS) >= 20
    assert {BadCode, BadSetting, NoSuchChoice, IllegalMove, InvalidRequest} <= set(SERVICE_ERRORS)


@pytest.mark.parametrize("locale", [*i18n.SUPPORTED, "de", "pt", "en-US"])
@pytest.mark.parametrize("cls", SERVICE_ERRORS, ids=lambda c: c.__name__)
def test_every_refusal_has_words_in_every_locale(
    cls: type[ServiceError], locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="alhambra.i18n"):
        for message in _messages(cls, locale):
            error = cls(message)
            text = error_text(error, locale)
            assert isinstance(text, str) and text.strip(), (cls, locale, message)
            if message is None or "{" not in message:
                assert "{" not in text, (cls, locale, message, text)
    assert not caplog.records


@pytest.mark.parametrize("locale", ["ja", "pt-BR"])
def test_a_code_that_cannot_be_read_keeps_its_reason(locale: str) -> None:
    """The adapter builds BadCode from the catalogue with the parser's reason."""
    message = i18n.t(locale, "error.bad_code", reason="'XYZ' is not a money card")
    assert error_text(BadCode(message), locale) == message
    # a BadCode with the parser's English text (cell codes) keeps the reason too
    english = "'Q99' is not a cell code"
    text = error_text(BadCode(english), locale)
    assert english in text and text != english
    assert text == i18n.t(locale, "error.bad_code", reason=english)


@pytest.mark.parametrize("locale", ["ja", "pt-BR"])
@pytest.mark.parametrize(
    ("cls", "key", "params"),
    [
        (BadSetting, "error.bad_quiet_hours", {"text": "25-99"}),
        (BadSetting, "error.bad_date", {"text": "2024-02-30"}),
        (BadSetting, "error.vote_needs_player", {}),
        (InvalidRequest, "error.unknown_player", {"name": "Zed"}),
        (NoSuchChoice, "error.no_such_choice", {}),
    ],
)
def test_a_message_already_in_the_users_language_is_kept(
    locale: str, cls: type[ServiceError], key: str, params: dict[str, str]
) -> None:
    message = i18n.t(locale, key, **params)
    assert error_text(cls(message), locale) == message


def test_a_message_in_another_language_gives_way_to_the_users() -> None:
    stale = Outdated(i18n.t("en", "reply.stale"))
    assert error_text(stale, "ja") == i18n.t("ja", "error.outdated")
    assert error_text(stale, "en") == stale.message
    # English keeps the service's precise text, and an illegal move names its rule
    assert error_text(InvalidRequest("Seat 9 is not a human player's."), "en").startswith("Seat")
    assert error_text(IllegalMove("no room there"), "ja") == i18n.t(
        "ja", "error.illegal_move", reason="no room there"
    )
    assert error_text(IllegalMove("no room there"), "en") == i18n.t(
        "en", "error.illegal_move", reason="no room there"
    )


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_a_refusal_always_fits_in_a_discord_message(locale: str) -> None:
    """The adapter clips what it echoes (`present.echo`); this is the last guard."""
    typed = "x" * 6000
    for error in (
        BadSetting(i18n.t(locale, "error.bad_quiet_hours", text=typed)),
        InvalidRequest(i18n.t(locale, "error.unknown_player", name=typed)),
        BadCode(typed),
        IllegalMove(typed),
        InvalidRequest(typed),
    ):
        text = error_text(error, locale)
        assert len(text) <= ERROR_TEXT_LIMIT < 2000
        assert text.endswith("…") or text == i18n.t(locale, "error.invalid_request")
