#!/usr/bin/env bash
# Makes sure the PostgreSQL 15 server binaries and the pgvector extension are present, so the
# server-engine tests can start a throwaway cluster. Debian 12 does not package pgvector, so it is
# built from Debian's own source package when vector.control is missing.
set -euo pipefail

PG_BIN=${BRAIN_PG_BIN:-/usr/lib/postgresql/15/bin}
PG_CONFIG="$PG_BIN/pg_config"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

say() { echo "[setup-postgres] $*" >&2; }

apt_updated=0
apt_update_once() {
  if [ "$apt_updated" = 0 ]; then
    say "apt-get update"
    $SUDO apt-get update -qq >/dev/null
    apt_updated=1
  fi
}

if [ ! -x "$PG_BIN/initdb" ]; then
  say "PostgreSQL 15 server binaries missing: installing postgresql-15"
  apt_update_once
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql-15 >/dev/null
fi

sharedir=$("$PG_CONFIG" --sharedir 2>/dev/null || echo /usr/share/postgresql/15)
if [ -f "$sharedir/extension/vector.control" ]; then
  say "pgvector present ($sharedir/extension/vector.control)"
  exit 0
fi

say "pgvector missing: building it from Debian's source package (takes under a minute)"
src_list=/etc/apt/sources.list.d/brain-trixie-src.list
if [ ! -f "$src_list" ]; then
  # Reuse the Debian mirror this machine is already configured with.
  mirror=$(grep -rhoE '^(deb|URIs:) +\S+/debian/?$' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | awk '{print $2}' | head -n1 || true)
  if [ -z "$mirror" ]; then
    say "no Debian mirror found in /etc/apt sources; add 'deb-src <mirror> trixie main' by hand"
    exit 1
  fi
  say "adding a deb-src entry for trixie main ($src_list)"
  echo "deb-src $mirror trixie main" | $SUDO tee "$src_list" >/dev/null
  apt_updated=0
fi
apt_update_once
say "installing postgresql-server-dev-15 build-essential"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql-server-dev-15 build-essential dpkg-dev >/dev/null
work=$(mktemp -d)
(
  cd "$work"
  say "apt-get source pgvector"
  apt-get source -qq pgvector >/dev/null 2>&1 || apt-get source pgvector
  cd pgvector-*/
  say "make && make install"
  make -s PG_CONFIG="$PG_CONFIG" >/dev/null 2>&1
  $SUDO make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
)
rm -rf "$work"
if [ -f "$sharedir/extension/vector.control" ]; then
  say "pgvector installed"
else
  say "pgvector install failed: $sharedir/extension/vector.control still missing"
  exit 1
fi
