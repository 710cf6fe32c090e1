"""Which installed editions the cross-edition tests run on: every one, once it is on engine v2.

The cross-edition checks (properties, secrecy, goldens, the PettingZoo environments) are written
for every edition ``available_ids()`` lists, plug-ins included. While the built-in editions are
moved onto engine v2 one by one, those not moved yet are named here, in this one place, and
their cases are expected to fail (strict ``xfail``: once an edition works, its cases pass and
pytest reports it until its name is taken out). The integrator empties this set.
"""

from __future__ import annotations

from typing import Any

import pytest

from mafioso.engine import available_ids

NOT_YET_ON_V2: frozenset[str] = frozenset()
"""Editions still written against the old engine. Empty it as each edition lands."""

EDITIONS: list[str] = available_ids()
"""Every installed edition: the built-in ones, then plug-ins (the test edition ``werewolves``)."""

ON_V2: list[str] = [edition for edition in EDITIONS if edition not in NOT_YET_ON_V2]
"""The installed editions on engine v2, for tests that sample editions (hypothesis)."""


def edition_params(editions: list[str] | None = None) -> list[Any]:
    """``editions`` (default: all installed) as pytest parameters; those not yet on v2 must fail."""
    marks = pytest.mark.xfail(strict=True, reason="not yet on engine v2 (tests/editions_on_v2.py)")
    return [pytest.param(e, marks=marks) if e in NOT_YET_ON_V2 else e for e in editions or EDITIONS]
