"""The languages of the bot, one row each: every other part reads this table.

A language is here once, with everything that differs between languages outside its words: the
name of its catalogue (`locales/<code>.json`), its own name for it, the Discord client locales
that get it (commands are translated for those, and a user of such a client is answered in it;
none: Discord has no client in it, so only a user's own choice selects it), other spellings that
mean it, the direction it is written in, the digits it writes numbers with, and whether it has
a distinct form for a count of one. Adding a language is a row here and its catalogue; the
command translator, the settings' language menu, the plural rule, the direction of texts and
pictures and the tests all follow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Direction = Literal["ltr", "rtl"]

#: The digits most languages write numbers with.
WESTERN_DIGITS = "0123456789"


@dataclass(frozen=True, slots=True)
class Language:
    #: the catalogue's name, and the code stored in a user's settings
    code: str
    #: the language by its own name, the same for every reader (to be found by those who read it)
    name: str
    #: Discord's client locales that get this language (the commands are translated for them,
    #: and no others: pt-PT's clients are not sent Brazilian Portuguese); empty: Discord has
    #: no client in it
    discord: tuple[str, ...]
    #: other spellings of it (lower case): loose locale values that mean this language
    aliases: tuple[str, ...] = ()
    direction: Direction = "ltr"
    #: the ten digits its numbers are written with, zero first (`i18n.t` writes every number
    #: it fills in with them), and the decimal separator
    digits: str = WESTERN_DIGITS
    decimal: str = "."
    #: whether a count of exactly one takes a form of its own (CLDR's "one")
    singular: bool = True
    #: the calendar its dates are written in where the bot writes them itself (`text.when`)
    calendar: Literal["gregorian", "persian"] = "gregorian"

    @property
    def chosen_only(self) -> bool:
        """Discord has no client in it: only a user's choice in their settings selects it."""
        return not self.discord


#: English first: the default, complete by definition, and the commands' own text.
LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", ("en-US", "en-GB"), aliases=("en",)),
    # Japanese has one form for every count
    Language("ja", "日本語", ("ja",), singular=False),
    # Brazilian Portuguese says "0 jogos", as English does; not pt-PT's clients
    Language("pt-BR", "Português (Brasil)", ("pt-BR",), aliases=("pt",)),
    # Persian counts with a singular noun ("2 بازی"), so its two forms mostly read alike; it keeps
    # "one" for a count of one, where a verb may still agree with it
    Language(
        "fa",
        "فارسی",
        (),
        aliases=("fa-ir",),
        direction="rtl",
        digits="۰۱۲۳۴۵۶۷۸۹",
        decimal="\u066b",  # ARABIC DECIMAL SEPARATOR
        calendar="persian",
    ),
)
DEFAULT = LANGUAGES[0].code
BY_CODE: dict[str, Language] = {language.code: language for language in LANGUAGES}


def spellings() -> dict[str, str]:
    """Every locale value (lower case) that names one of the languages, to its code: the code
    itself, its Discord locales and its aliases."""
    found: dict[str, str] = {}
    for language in LANGUAGES:
        for name in (language.code, *language.discord, *language.aliases):
            found.setdefault(name.lower(), language.code)
    return found


def translated_discord_locales() -> dict[str, str]:
    """Discord's locales the commands are translated for, to the language's code: every client
    locale of every language but the default (whose text is the commands' own)."""
    return {locale: language.code for language in LANGUAGES[1:] for locale in language.discord}
