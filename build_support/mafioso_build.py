"""The build backend: setuptools, plus mypy (for mypyc) in the build environment when asked.

``MAFIOSO_COMPILE=1 pip install .`` builds the compiled modules (``setup.py``); pip makes a
fresh build environment from ``[build-system] requires``, so mypyc must be asked for there, and
only then: a plain install never downloads mypy.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook that is not changed below)

MYPYC = "mypy>=1.10"


def compiling() -> bool:
    """Whether the compiled modules are asked for (``MAFIOSO_COMPILE`` set and not 0)."""
    return os.environ.get("MAFIOSO_COMPILE", "") not in ("", "0")


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' needs, and mypy when compiling."""
    needs = list(_setuptools.get_requires_for_build_wheel(config_settings))
    return [*needs, MYPYC] if compiling() else needs


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' needs, and mypy when compiling."""
    needs = list(_setuptools.get_requires_for_build_editable(config_settings))
    return [*needs, MYPYC] if compiling() else needs
