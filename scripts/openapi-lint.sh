#!/usr/bin/env bash
# Checks the served OpenAPI document: valid OpenAPI 3.1 (its schema, and
# every schema in it compiles: tools/openapi-validate), then lints it with
# Redocly's recommended rules and Spectral's OpenAPI ruleset (spectral:oas):
# make openapi-lint, and CI.
# The linters come from the npm registry at the versions of
# tools/openapi-lint/package-lock.json (npm ci, when node_modules does not
# hold them); the document is the one the server serves, printed by
# `server openapi` without a database. Fails on any error of either.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/tools/openapi-lint"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

installed() {
  [ -x "$tools/node_modules/.bin/redocly" ] && [ -x "$tools/node_modules/.bin/spectral" ] &&
    node -e '
      const dir = process.argv[1];
      const lock = require(dir + "/package-lock.json").packages;
      for (const name of ["@redocly/cli", "@stoplight/spectral-cli"]) {
        const have = require(dir + "/node_modules/" + name + "/package.json").version;
        if (lock["node_modules/" + name].version !== have) process.exit(1);
      }' "$tools"
}

if ! command -v npm >/dev/null 2>&1; then
  echo "npm not found; installing Debian's nodejs and npm packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq nodejs npm >/dev/null 2>&1 ||
    { $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq nodejs npm >/dev/null; }
fi
if ! installed; then
  echo "installing the OpenAPI linters into tools/openapi-lint (npm ci)" >&2
  (cd "$tools" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
fi

doc="$(mktemp -d)/openapi.json"
trap 'rm -rf "$(dirname "$doc")"' EXIT
(cd "$root" && go run . openapi > "$doc")
echo "openapi-validate (OpenAPI 3.1)"
(cd "$root" && go run ./tools/openapi-validate "$doc")

cd "$tools"
echo "redocly lint (recommended)"
NO_UPDATE_NOTIFIER=1 REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  node_modules/.bin/redocly lint --config redocly.yaml --format=summary "$doc"
echo "spectral lint (spectral:oas)"
node_modules/.bin/spectral lint --ruleset .spectral.yaml --fail-severity error "$doc"
