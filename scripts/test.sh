#!/usr/bin/env bash
# Sets up everything the test suite needs on a fresh machine, then runs it: lint, types, tests.
# Fails (non-zero) when any check or test fails. Used by the README and by CI (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium drives the browser tests (Playwright cannot download browsers here).
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'

echo "== ruff"; .venv/bin/ruff check src tests benchmarks
echo "== mypy"; .venv/bin/mypy
echo "== pytest"; .venv/bin/python -m pytest "$@"
