#!/usr/bin/env bash
# Makes sure a Chromium is present for the web app's browser tests: Debian's own `chromium`
# package, installed the way setup-postgres.sh installs PostgreSQL. BRAIN_CHROMIUM names another
# browser binary instead.
set -euo pipefail

say() { echo "[setup-chromium] $*" >&2; }
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

if [ -n "${BRAIN_CHROMIUM:-}" ] && [ -x "$BRAIN_CHROMIUM" ]; then
  say "using $BRAIN_CHROMIUM"
  exit 0
fi
if command -v chromium >/dev/null 2>&1; then
  say "chromium present ($(command -v chromium))"
  exit 0
fi
say "chromium missing: installing Debian's chromium package"
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
say "chromium installed ($(command -v chromium))"
