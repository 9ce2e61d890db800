#!/usr/bin/env bash
# Makes sure wrk, the HTTP load generator `make loadbench` drives the server
# with, is installed (Debian's wrk package). Nothing to do when it is there.
set -euo pipefail

if command -v wrk >/dev/null 2>&1; then
  exit 0
fi
echo "wrk not found; installing Debian's wrk package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Try the current package lists first; refresh them only when that fails.
if ! $SUDO apt-get install -y -qq wrk >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq wrk >/dev/null
fi
command -v wrk >/dev/null 2>&1 || { echo "wrk is still missing; install it (apt-get install wrk)" >&2; exit 1; }
