"""Hypothesis profiles for the whole test suite.

`default` (and `ci`, the same) keeps the default run short on a shared two-core machine; `long`
runs many more examples for a thorough search: `HYPOTHESIS_PROFILE=long pytest tests/engine`.
Property tests that play complete games scale their example count from the loaded profile (see
`tests/engine/engine_helpers.py`), so `long` lengthens them too.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

# The test folders are named after the packages they test (tests/engine, tests/bot) and have no
# __init__.py, so pytest puts them on sys.path and `import engine` could find the test folder as a
# namespace package instead of the project's package (an editable install resolves too late).
# With the project root on sys.path the real packages always win.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

_COMMON = {
    # Whole games take tens of milliseconds each; timing them would only make runs flaky.
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}

settings.register_profile("default", max_examples=100, **_COMMON)
settings.register_profile("ci", max_examples=100, **_COMMON)
settings.register_profile("long", max_examples=2000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "default")
