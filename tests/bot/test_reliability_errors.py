"""Every refusal can be told to every user: `error_text` never raises, keeps a message that is
already in the user's language, and never shows an unfilled placeholder."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest
from service_helpers import started

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
from bot.core.records import SeatInfo
from bot.text import i18n
from bot.text.present import ERROR_TEXT_LIMIT, error_text
from engine import EndTurn


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


# --- every refusal says what English says, from the catalogue ---------------------------------

#: Refusals whose words are always the raiser's own (already in the user's language).
UNWORDED = {ServiceError, BadSetting}


def _keys(cls: type[ServiceError]) -> list[tuple[str, str]]:
    """(catalogue key, the service's English template) of each wording of a refusal."""
    return [(f"error.{cls.code}", cls.default)] + [
        (f"error.{cls.code}.{name}", text) for name, text in cls.variants.items()
    ]


@pytest.mark.parametrize("cls", SERVICE_ERRORS, ids=lambda c: c.__name__)
def test_every_wording_of_a_refusal_has_catalogue_words_with_its_parameters(
    cls: type[ServiceError],
) -> None:
    if cls in UNWORDED:
        return
    english = i18n.catalogue("en")
    for key, template in _keys(cls):
        assert key in english, key
        # a {reason} is the raiser's own words (the rule broken, the code not read)
        needs = i18n.placeholders(english[key]) - {"reason"}
        assert needs == i18n.placeholders(template), key


@pytest.mark.parametrize("cls", SERVICE_ERRORS, ids=lambda c: c.__name__)
def test_english_reads_the_catalogue_like_every_other_language(cls: type[ServiceError]) -> None:
    if cls in UNWORDED:
        return
    for locale in i18n.SUPPORTED:
        text = error_text(cls(), locale)
        key = f"error.{cls.code}"
        if i18n.placeholders(i18n.catalogue("en")[key]) == {"reason"}:
            assert text == i18n.t(locale, key, reason=cls.default)
        else:
            assert text == i18n.t(locale, key), (cls, locale)


def test_no_game_here_names_the_command_that_opens_one() -> None:
    assert error_text(errors.NoGameHere(), "en") == (
        "There is no Alhambra game in this channel. Open one with /alhambra new."
    )
    assert "create command" not in errors.NoGameHere().message


def _seat(name: str, *, level: str | None = None, seat: int = 0) -> SeatInfo:
    kind = "computer" if level else "human"
    user = None if level else 7
    return SeatInfo(seat, seat, kind, user, level, name, datetime(2024, 6, 1, tzinfo=UTC))


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_a_refusal_with_parameters_keeps_them_in_every_language(locale: str) -> None:
    turn = errors.NotYourTurn(variant="named", name=_seat("ana"))
    assert turn.message == "It is ana's turn, not yours."
    text = error_text(turn, locale)
    assert "ana" in text and text == i18n.t(locale, "error.not_your_turn.named", name="ana")
    six = i18n.number(locale, 6)  # in the language's digits (Persian's own)
    assert six in error_text(errors.LobbyFull(variant="size", count=6), locale)
    silent = error_text(errors.NotSilent(variant="named", name=_seat("bruno"), hours=48), locale)
    assert "bruno" in silent and i18n.number(locale, 48) in silent
    assert error_text(errors.GameOver(variant="abandoned"), locale) == i18n.t(
        locale, "error.game_over.abandoned"
    )


def test_a_computer_player_in_a_refusal_is_named_in_the_readers_words() -> None:
    zaida = _seat("Bot Zaida (normal)", level="normal")
    turn = errors.NotYourTurn(variant="named", name=zaida)
    assert turn.message == "It is Bot Zaida (normal)'s turn, not yours."
    assert error_text(turn, "en") == "It is Bot Zaida (normal)'s turn, not yours."
    japanese = error_text(turn, "ja")
    assert "Bot Zaida\uff08ふつう\uff09" in japanese and "(normal)" not in japanese
    assert "Bot Zaida (médio)" in error_text(turn, "pt-BR")


def test_a_variant_must_be_one_the_refusal_has() -> None:
    with pytest.raises(ValueError, match="no variant"):
        errors.NotYourTurn(variant="nobody")


async def test_the_service_names_whose_turn_it_is(services) -> None:
    game = await started(services, humans=2)
    waiting = next(s for s in game.seats if s.seat != game.current_seat)
    current = game.current_player
    assert waiting.user_id is not None and current is not None
    with pytest.raises(errors.NotYourTurn) as refused:
        await services.play.act(game.id, waiting.user_id, EndTurn(), game.version)
    for locale in i18n.SUPPORTED:
        assert current.name in error_text(refused.value, locale), locale
    view = await services.play.view(game.id, waiting.user_id)
    with pytest.raises(errors.NotYourTurn) as refused:
        view.own_decision()
    assert current.name in error_text(refused.value, "pt-BR")
