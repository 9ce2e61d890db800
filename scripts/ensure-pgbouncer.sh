#!/usr/bin/env bash
# Makes sure Debian's pgbouncer is installed, for the tests that run the
# server's flows through a pooler in transaction mode (docs/scaling.md).
# They start pgbouncer themselves; the package's own service is not
# started by the install.
set -euo pipefail

if command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ]; then
  exit 0
fi
echo "pgbouncer not found; installing Debian's pgbouncer package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Keep the package's service from starting: the tests run their own.
policy=/usr/sbin/policy-rc.d
added_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod 755 "$policy"
  added_policy=1
fi
cleanup() { if [ -n "$added_policy" ]; then $SUDO rm -f "$policy"; fi; }
trap cleanup EXIT
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq pgbouncer >/dev/null
command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || { echo "pgbouncer is still missing" >&2; exit 1; }
