#!/usr/bin/env bash
# Installs what the tests need beyond npm packages: PostgreSQL with pgvector, and Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-postgres.sh
bash scripts/setup-chromium.sh
