"""The catalogue can be filled without surprises: every key in every locale renders with the
parameters the code passes, and a placeholder the code forgot never raises in production."""

from __future__ import annotations

import ast
import logging
import re
import string
from pathlib import Path

import pytest

from bot.text import i18n

ROOT = Path(__file__).resolve().parents[2]


def _fields(text: str) -> list[tuple[str, str | None, str | None]]:
    return [
        (name, spec, conv)
        for _, name, spec, conv in string.Formatter().parse(text)
        if name is not None
    ]


def test_placeholders_are_plain_names_the_same_in_every_locale() -> None:
    english = i18n.catalogue("en")
    for locale in i18n.SUPPORTED:
        texts = i18n.catalogue(locale)
        for key, text in english.items():
            for name, spec, conv in _fields(texts[key]):
                # No attribute, index, format spec or conversion: a dummy value always fits.
                assert name.isidentifier() and not spec and not conv, (locale, key, name)
            assert i18n.placeholders(texts[key]) == i18n.placeholders(text), (locale, key)


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_key_renders_in_every_locale_with_its_parameters(
    locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    english = i18n.catalogue("en")
    with caplog.at_level(logging.WARNING, logger="alhambra.i18n"):
        for key, text in english.items():
            params = {name: f"<{name}:1>" for name in i18n.placeholders(text)}
            out = i18n.t(locale, key, **params)
            assert out.strip(), key
            for value in params.values():
                assert value in out, (locale, key)
            # Exactly the texts' own braces ("{{" in the catalogue) may remain.
            raw = i18n.catalogue(locale)[key]
            assert out.count("{") == raw.count("{{"), (locale, key)
    assert not caplog.records


def test_a_forgotten_placeholder_is_shown_and_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="alhambra.i18n"):
        text = i18n.t("ja", "error.bad_code")
        both = i18n.t("en", "error.illegal_move")
        one_of_two = i18n.t("pt-BR", "action.take", total=5)
    assert "{reason}" in text and text != "{reason}"
    assert "{reason}" in both
    assert "5" in one_of_two and "{cards}" in one_of_two
    assert len(caplog.records) == 3
    assert "error.bad_code" in caplog.records[0].getMessage()
    assert "cards" in caplog.records[2].getMessage()


def test_unknown_keys_still_fail_loudly() -> None:
    with pytest.raises(KeyError):
        i18n.t("ja", "no.such.key")


# --- the parameters the code passes --------------------------------------------------------


def _t_calls(tree: ast.AST) -> list[tuple[ast.Call, ast.expr]]:
    """Calls `i18n.t(locale, KEY, ...)` and `t(locale, KEY, ...)` (present and menus bind `t`)."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        func = node.func
        is_t = (
            isinstance(func, ast.Attribute)
            and func.attr == "t"
            and isinstance(func.value, ast.Name)
            and func.value.id == "i18n"
        ) or (isinstance(func, ast.Name) and func.id == "t")
        if is_t:
            out.append((node, node.args[1]))
    return out


def _keys_of(expr: ast.expr, literal: set[str]) -> list[str] | None:
    """The catalogue keys a key expression can name. An f-string names a family: the keys it
    matches that no call names literally ("building.{label}" is not "building.with_cost")."""
    english = i18n.catalogue("en")
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        if i18n.plural_family(expr.value):  # a counting text: each of its forms
            return [f"{expr.value}_{form}" for form in i18n.PLURAL_FORMS]
        return [expr.value]
    if isinstance(expr, ast.JoinedStr):
        pattern = "".join(
            re.escape(part.value) if isinstance(part, ast.Constant) else r"[^.]+"
            for part in expr.values
        )
        return [k for k in english if re.fullmatch(pattern, k) and k not in literal]
    return None  # a variable: its texts are rendered by the test above


def test_every_call_passes_exactly_the_placeholders_of_its_text() -> None:
    english = i18n.catalogue("en")
    calls = [
        (path.relative_to(ROOT), call, key_expr)
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for call, key_expr in _t_calls(ast.parse(path.read_text("utf-8")))
    ]
    literal = {
        k.value for _, _, k in calls if isinstance(k, ast.Constant) and isinstance(k.value, str)
    }
    problems = []
    checked = 0
    for where, call, key_expr in calls:
        keys = _keys_of(key_expr, literal)
        if keys is None or any(k.arg is None for k in call.keywords):
            continue  # a computed key or **params: the texts are rendered by the test above
        if not keys:
            problems.append(f"{where}:{call.lineno}: no catalogue key matches")
        passed = {k.arg for k in call.keywords if k.arg is not None}
        for key in keys:
            checked += 1
            if key not in english:
                problems.append(f"{where}:{call.lineno}: unknown key {key}")
            elif i18n.placeholders(english[key]) != passed:
                problems.append(
                    f"{where}:{call.lineno}: {key} needs "
                    f"{sorted(i18n.placeholders(english[key]))}, the code passes {sorted(passed)}"
                )
    assert checked > 100
    assert not problems, "\n".join(problems)
