"""No message names a command that does not exist: every `/alhambra <name>` in any catalogue
text is a command of the bot's tree, by the name readers of that language see (Discord shows
the Japanese and Portuguese names to those clients)."""

from __future__ import annotations

import re

import pytest

from bot.core import errors
from bot.discord_app.group import AlhambraCog
from bot.discord_app.history import HistoryCommands
from bot.discord_app.plans import PlanCommands
from bot.text import i18n

#: `/alhambra` followed by a command name, up to a space, punctuation or markup.
NAMED = re.compile(r"/alhambra ([^\s`*.,:;!?()\uff08\uff09、。「」]+)")
#: the same for the two other top-level commands, with the cog that holds each one's
GROUPS = {"alhambra-history": HistoryCommands, "alhambra-plan": PlanCommands}


def command_names(locale: str, cog: type = AlhambraCog) -> set[str]:
    names = set()
    for command in cog.__cog_app_commands__:
        key = command._locale_name.extras["key"] if command._locale_name else None
        names.add(i18n.catalogue(locale).get(key, command.name) if key else command.name)
    return names


def test_the_tree_has_the_commands_the_catalogue_names() -> None:
    assert {"new", "end-turn", "vote"} <= command_names("en")
    assert {"新規", "手番終了", "投票"} <= command_names("ja")
    assert {"novo", "encerrar-turno", "votar"} <= command_names("pt-BR")


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_command_a_text_names_is_a_real_command(locale: str) -> None:
    known = command_names(locale)
    named = {
        (key, name) for key, text in i18n.catalogue(locale).items() for name in NAMED.findall(text)
    }
    assert len(named) >= 4  # the pattern still finds what the texts say
    wrong = sorted((key, name) for key, name in named if name not in known)
    assert not wrong, wrong


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_history_and_plan_command_a_text_names_is_real(group: str, locale: str) -> None:
    known = command_names(locale, GROUPS[group])
    pattern = re.compile(rf"/{group} ([^\s`*.,:;!?()\uff08\uff09、。「」]+)")
    named = {
        (key, name)
        for key, text in i18n.catalogue(locale).items()
        for name in pattern.findall(text)
    }
    assert len(named) >= 2  # the help and the results name some in every language
    wrong = sorted((key, name) for key, name in named if name not in known)
    assert not wrong, wrong


def test_no_english_refusal_names_a_command_that_does_not_exist() -> None:
    """The service's own English (logs, and a detail the catalogue cannot say) too."""
    known = command_names("en")
    texts = []
    for cls in vars(errors).values():
        if isinstance(cls, type) and issubclass(cls, errors.ServiceError):
            texts += [cls.default, *cls.variants.values()]
    named = {name for text in texts for name in NAMED.findall(text)}
    assert named and named <= known, named - known
    assert not any("create command" in text for text in texts)
