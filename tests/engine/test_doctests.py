"""The engine's docstring examples run, so they stay true (`Game.view`, the package's tour)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import engine


def test_the_engine_examples_run() -> None:
    attempted = 0
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        module = importlib.import_module(info.name)
        failed, tried = doctest.testmod(module, verbose=False, report=False)
        assert failed == 0, info.name
        attempted += tried
    failed, tried = doctest.testmod(engine, verbose=False, report=False)
    assert failed == 0
    assert attempted + tried >= 3  # the package tour, engine.ai's and Game.view's
