#!/usr/bin/env bash
# Makes sure PostgreSQL server binaries (initdb, postgres) are installed, for
# the embedded database the server and the tests start. Nothing to do when
# DATABASE_URL points at a server, or when the binaries are already there.
set -euo pipefail

if [ -n "${DATABASE_URL:-}" ]; then
  exit 0
fi
have_pg() {
  if [ -n "${PG_BINDIR:-}" ] && [ -x "$PG_BINDIR/initdb" ] && [ -x "$PG_BINDIR/postgres" ]; then return 0; fi
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then return 0; fi
  if command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1; then return 0; fi
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
}
if have_pg; then
  exit 0
fi
echo "PostgreSQL server binaries not found; installing Debian's postgresql package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq postgresql >/dev/null
have_pg || { echo "PostgreSQL is still missing; install it or set DATABASE_URL" >&2; exit 1; }
