#!/usr/bin/env bash
# The project's one test command: installs what the tests need on a fresh
# machine of this project's kind, then runs every test (engine and browser).
#   bash scripts/test.sh [pytest arguments]
# CI runs exactly this through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

# Installing system packages needs root; use sudo when not root and it exists.
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "scripts/test.sh: need root to run: $*" >&2; return 1; fi
}
apt_updated=
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

echo "== Python packages (pip install -e '.[test]')"
"$PYTHON" -m pip install --quiet --disable-pip-version-check -e '.[test]'

# build.py takes the Pyodide runtime from the npm registry.
if ! command -v npm >/dev/null; then
  echo "== npm (apt-get install nodejs npm)"
  apt_install nodejs npm
fi

# Playwright cannot download its own browser here, so the tests run Debian's
# Chromium (tests/browser/conftest.py); a browser Playwright installed itself
# elsewhere is used when there is no /usr/bin/chromium.
playwright_has_chromium() {
  "$PYTHON" - <<'PY' 2>/dev/null
import os, sys
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    sys.exit(0 if os.path.exists(p.chromium.executable_path) else 1)
PY
}
if [ ! -x /usr/bin/chromium ] && ! playwright_has_chromium; then
  echo "== Chromium (apt-get install chromium)"
  apt_install chromium
fi

# The accessibility scan of the browser tests injects axe-core, from npm,
# into a git-ignored folder (tests/browser/table_driver.py reads it there).
AXE_VERSION=4.14.1
if [ ! -f .cache/axe/node_modules/axe-core/axe.min.js ]; then
  echo "== axe-core@$AXE_VERSION (npm, into .cache/axe)"
  mkdir -p .cache/axe
  npm install --prefix .cache/axe --no-save --no-audit --no-fund --loglevel=error "axe-core@$AXE_VERSION"
fi

# The multiplayer tests signal through local relays of both kinds the page
# uses: npm bittorrent-tracker's WebSocket tracker, and a Nostr relay (npm
# @nostr-relay/core with ws), installed without their install scripts into .cache/.
if [ ! -f .cache/net-relay/node_modules/bittorrent-tracker/server.js ]; then
  echo "== test relay (npm install --ignore-scripts bittorrent-tracker)"
  mkdir -p .cache/net-relay
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
    --prefix .cache/net-relay bittorrent-tracker@11.2.3
fi
if [ ! -f .cache/net-relay-nostr/node_modules/@nostr-relay/core/dist/index.js ]; then
  echo "== test Nostr relay (npm install --ignore-scripts @nostr-relay/core ws)"
  mkdir -p .cache/net-relay-nostr
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
    --prefix .cache/net-relay-nostr @nostr-relay/core@0.0.40 @nostr-relay/common@0.0.40 ws@8.23.0
fi

# Two workers (pytest-xdist): the browser tests in order on one (they are one
# group, see tests/browser/conftest.py), the engine's tests on the other.
# `-n 0` among the arguments runs everything in this one process.
echo "== pytest"
set +e
"$PYTHON" -m pytest -n 2 --dist loadgroup --rerun-show-tracebacks "$@"
status=$?
set -e
if [ "$status" = 5 ]; then
  echo "scripts/test.sh: pytest collected no tests, which counts as a failure" >&2
fi
exit "$status"
