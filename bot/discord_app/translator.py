"""discord.py's translator over our catalogue: command names, descriptions and choices.

Every `locale_str` the commands use carries its catalogue key in `extras["key"]`; Discord gets
the texts of every language with a Discord client (`text.languages`) at sync time, for exactly
that language's client locales. English is the default text itself.
"""

from __future__ import annotations

import discord
from discord import app_commands

from ..text import i18n, languages

#: Discord's locales the commands are translated for, to the catalogue of each.
TRANSLATED = languages.translated_discord_locales()


def T(key: str) -> app_commands.locale_str:
    """A translatable command string: the English text, tagged with its catalogue key."""
    return app_commands.locale_str(i18n.t("en", key), key=key)


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        # only the exact Discord locales a language names (not e.g. pt-PT for pt-BR)
        code = TRANSLATED.get(locale.value)
        if not key or code is None:
            return None
        return i18n.catalogue(code).get(key)
