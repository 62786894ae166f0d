"""discord.py's translator over our catalogue: command names, descriptions and choices.

Every `locale_str` the commands use carries its catalogue key in `extras["key"]`; Discord gets
the Japanese and Portuguese texts at sync time. English is the default text itself.
"""

from __future__ import annotations

import discord
from discord import app_commands

from ..text import i18n


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
        if not key:
            return None
        loc = i18n.normalise(locale)
        if loc == i18n.DEFAULT:
            return None
        # Only the exact Discord locales we translate for (not e.g. pt-PT for pt-BR).
        if locale not in (discord.Locale.japanese, discord.Locale.brazil_portuguese):
            return None
        return i18n.catalogue(loc).get(key)
