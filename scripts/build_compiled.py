"""Build this checkout's compiled path into ``build/compiled/<digest>`` and print that folder.

``python scripts/build_compiled.py`` runs ``MAFIOSO_COMPILE=1 pip install
--no-deps --no-build-isolation --target build/compiled/<digest> .`` with this interpreter's pip,
setuptools and mypy (mypyc), unless that folder was already built from the same sources (the
digest covers the package, ``setup.py``, ``pyproject.toml`` and the build backend). The test
command runs it once before the tests (``scripts/test.sh``); ``tests/test_compiled.py`` and
``benchmarks/compare_engine.py --compiled`` use the folder it prints. It fails when the build has
no compiled module, so a machine that cannot compile says so instead of testing pure Python twice.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def digest() -> str:
    """What the build depends on: the package's files and the build's own."""
    hashed = hashlib.sha256()
    files = [ROOT / "setup.py", ROOT / "pyproject.toml", *sorted((ROOT / "build_support").glob("*.py"))]
    files += sorted(p for p in (ROOT / "src" / "mafioso").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".so"))
    for path in files:
        hashed.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()[:16]


def pip_install(target: Path, source: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    """``pip install --target`` of this checkout (verbose, so the build's own lines are kept)."""
    command = [sys.executable, "-m", "pip", "install", "-v", "--no-deps", "--no-build-isolation", "--no-cache-dir",
               "--disable-pip-version-check", "--target", str(target), str(source)]
    return subprocess.run(command, capture_output=True, text=True, env={**os.environ, **env}, timeout=1800)


def build() -> Path:
    """The compiled build of the current sources (built now unless it exists)."""
    target = ROOT / "build" / "compiled" / digest()
    if (target / "built").exists():
        return target
    shutil.rmtree(target, ignore_errors=True)
    done = pip_install(target, MAFIOSO_COMPILE="1")
    if done.returncode != 0:
        sys.exit(f"the compiled build failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    if not list(target.rglob("*.so")):
        sys.exit(f"the compiled build has no compiled module:\n{done.stderr[-3000:]}")
    (target / "built").write_text("")
    return target


def clean_copy(into: Path) -> Path:
    """The checkout's package and build files copied into ``into``, without anything built
    (setuptools would reuse compiled modules it finds in ``build/``)."""
    into.mkdir(parents=True, exist_ok=True)
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, into / name)
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info")
    shutil.copytree(ROOT / "build_support", into / "build_support", ignore=skip)
    shutil.copytree(ROOT / "src", into / "src", ignore=skip)
    return into


if __name__ == "__main__":
    print(build())
