#!/usr/bin/env bash
# Sets up everything the test suite needs on a fresh machine, then runs it: lint, types, tests.
# Fails (non-zero) when any check or test fails. Used by the README and by CI (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium drives the browser tests (Playwright cannot download browsers here), and
# the PostgreSQL store is tested against a real server started from Debian's binaries.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# The judge's desk renders protocol PDFs with WeasyPrint (Pango) and checks them as PNG with pdftoppm.
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
ldconfig -p 2>/dev/null | grep -q libpangoft2-1.0 || need+=(libpangoft2-1.0-0)
# The pages are type-checked with TypeScript, and axe-core checks them in the browser suite (npm).
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
# Several server processes are tested over a real Redis (tests/server/test_cluster.py).
[ -x /usr/bin/redis-server ] || need+=(redis-server)
# The deploy/ Caddyfiles are adapted and run in front of the server (tests/test_deploy.py).
[ -x /usr/bin/caddy ] || need+=(caddy)
# ... and the deploy/ systemd units are read by systemd-analyze verify (tests/test_deploy.py).
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
# The compiled path (mypyc) is built and compared with pure Python: a C compiler.
command -v gcc >/dev/null 2>&1 || need+=(gcc)
# Role icons are emoji: the screenshots show boxes without a colour emoji font.
fc-list 2>/dev/null | grep -qi "color emoji" || need+=(fonts-noto-color-emoji)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
# Test plug-ins: every folder under tests/plugins/ with a pyproject.toml is an edition package
# registering itself through entry points; installing each is all a new one needs.
for plugin in tests/plugins/*/; do
    if [ -f "${plugin}pyproject.toml" ]; then
        .venv/bin/python -m pip install -q -e "$plugin"
    fi
done

if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "== tsc"; node_modules/.bin/tsc --noEmit -p jsconfig.json
fi

# The optional compiled path (mypyc, setup.py): built once into build/compiled/<digest> (reused
# while the sources are unchanged) so that tests/test_compiled.py compares its games with pure Python.
echo "== compiled build"; .venv/bin/python scripts/build_compiled.py

echo "== ruff"; .venv/bin/ruff check src tests benchmarks
echo "== mypy"; .venv/bin/mypy
echo "== pytest"; .venv/bin/python -m pytest "$@"
