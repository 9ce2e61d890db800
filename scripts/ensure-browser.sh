#!/usr/bin/env bash
# Makes sure the dashboard's browser test (dashboard_browser_test.go) can run:
# Debian's Chromium at /usr/bin/chromium, and playwright-core, the driver,
# installed from the npm registry into testdata/browser with `npm ci` (the
# committed package-lock.json). playwright-core never downloads a browser of
# its own: the test launches Debian's. Nothing to do when both are there.
set -euo pipefail

browser_dir="$(cd "$(dirname "$0")/../testdata/browser" && pwd)"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

# The lock's playwright-core is installed when node_modules holds that version.
driver_installed() {
  [ -f "$browser_dir/node_modules/playwright-core/package.json" ] && command -v node >/dev/null 2>&1 &&
    node -e '
      const dir = process.argv[1];
      const lock = require(dir + "/package-lock.json").packages["node_modules/playwright-core"].version;
      const have = require(dir + "/node_modules/playwright-core/package.json").version;
      process.exit(lock === have ? 0 : 1);' "$browser_dir"
}

if [ -x /usr/bin/chromium ] && driver_installed; then
  exit 0
fi

# One install at a time: `make test` and the test itself may both get here.
exec 9>"${TMPDIR:-/tmp}/payments-server-ensure-browser.lock"
flock 9

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  # Try the current package lists first; refresh them only when that fails.
  # Another apt run may hold the lock for a while: wait for it.
  if ! $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null 2>&1; then
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
    $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null
  fi
}

if [ ! -x /usr/bin/chromium ]; then
  echo "chromium not found; installing Debian's chromium package" >&2
  apt_install chromium
fi
[ -x /usr/bin/chromium ] || { echo "chromium is still missing; install it (apt-get install chromium)" >&2; exit 1; }

if ! command -v npm >/dev/null 2>&1; then
  echo "npm not found; installing Debian's nodejs and npm packages" >&2
  apt_install nodejs npm
fi
if ! driver_installed; then
  echo "installing playwright-core into testdata/browser (npm ci)" >&2
  (cd "$browser_dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
fi
driver_installed || { echo "playwright-core is still missing in $browser_dir" >&2; exit 1; }
