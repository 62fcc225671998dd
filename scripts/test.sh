#!/usr/bin/env bash
# The test command: installs what the tests need (PostgreSQL + pgvector, npm packages), builds,
# starts one throwaway PostgreSQL cluster for the server-engine half of the engine suite, runs
# every test file with tap, and stops the cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
suite_started=$(date +%s)

bash scripts/setup-postgres.sh
bash scripts/setup-chromium.sh
# The coding agents the agent-install tests drive, from a cache outside node_modules. Required
# here: without them those tests fail and say why, instead of skipping.
BRAIN_TEST_AGENT_CLIENTS=$(bash scripts/setup-agent-clients.sh) || BRAIN_TEST_AGENT_CLIENTS=""
export BRAIN_TEST_AGENT_CLIENTS BRAIN_TEST_AGENT_CLIENTS_REQUIRED=1
if [ ! -d node_modules/.bin ] || [ package.json -nt node_modules/.package-lock.json ]; then
  echo "[test] installing npm packages" >&2
  npm install --no-audit --no-fund >&2
fi
# tap builds its test class from the plugins named in .taprc. A run that finds the build stale
# rebuilds it, but only after it has chosen the loaders its test processes start with, so the
# first run after an install would still start every test with the default plugins. The stamp
# records what the last build was made from, so the build (about 8 s) runs only when needed.
tap_stamp=.tap/built-from-taprc
if ! cmp -s .taprc "$tap_stamp" || [ node_modules/.package-lock.json -nt "$tap_stamp" ]; then
  npx tap build >&2
  mkdir -p .tap && cp .taprc "$tap_stamp"
fi
if [ "${BRAIN_TEST_SKIP_BUILD:-}" != "1" ]; then
  echo "[test] building" >&2
  node scripts/compile.mjs >&2
  node scripts/bundle.mjs >&2
  node dist/src/db/template.js >&2
fi

# Everything the tests create under the temporary directory (brain homes, repositories, the
# cluster) lives in one folder of this run, removed at the end, so runs leave nothing behind.
# Traversable, because the cluster runs as the postgres user when the tests run as root.
# In memory when the machine has a memory file system with room (a run's folder peaks at about
# 1.3 GB): the suite creates and deletes a few hundred thousand files (a test database, a brain's
# data folder), and on a disk file system the kernel's own work for that (ext4 stepping past the
# recently deleted inodes for every new file) cost the test cluster a third of its CPU.
# BRAIN_TEST_TMPDIR names the parent folder instead.
run_parent=${BRAIN_TEST_TMPDIR:-}
if [ -z "$run_parent" ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ] &&
  [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -ge $((4 * 1024 * 1024)) ]; then
  run_parent=/dev/shm
fi
run_tmp=$(mktemp -d "${run_parent:-${TMPDIR:-/tmp}}/brain-test-run.XXXXXX")
chmod 755 "$run_tmp"
export TMPDIR="$run_tmp"
# BRAIN_TEST_ENGINES=pglite runs the engine suite on the embedded engine only, with no cluster.
if [ "${BRAIN_TEST_ENGINES:-pglite,postgres}" != "pglite" ]; then
  eval "$(node dist/test/helpers/cluster-cli.js start)"
fi
finish() {
  if [ -n "${BRAIN_TEST_PG_DIR:-}" ]; then node dist/test/helpers/cluster-cli.js stop "$BRAIN_TEST_PG_DIR" >/dev/null 2>&1 || true; fi
  rm -rf "$run_tmp"
}
trap finish EXIT
if [ -n "${BRAIN_TEST_PG_URL:-}" ]; then echo "[test] PostgreSQL test cluster at ${BRAIN_TEST_PG_URL} (template ${BRAIN_TEST_PG_TEMPLATE})" >&2; fi

# Arguments are test files or folders, as sources (test/memory, test/memory/recall.test.ts) or
# as built files (dist/test/memory/recall.test.js).
files=()
for arg in "$@"; do
  built=$arg
  case "$built" in
    dist/*) ;;
    test/* | test) built="dist/${built%.ts}"; [[ "$built" == *.test ]] && built="$built.js" ;;
  esac
  if [ -d "$built" ]; then
    mapfile -t -O "${#files[@]}" files < <(find "$built" -name '*.test.js' | sort)
  else
    files+=("$built")
  fi
done
if [ $# -eq 0 ]; then
  mapfile -t files < <(find dist/test -name '*.test.js' | sort)
fi
# Test processes and the brains they start live seconds, so V8's optimizing recompile of the
# database's WebAssembly (about a second of CPU per process) never pays back: they all stay on
# the baseline compiler. BRAIN_WASM_TIER=auto runs the suite with each command's own choice.
export BRAIN_WASM_TIER="${BRAIN_WASM_TIER:-baseline}"
# The brains a test starts hold a few pages: a 16 MiB buffer pool serves them, and a service or an
# import then does not zero 128 MB at every start (about half a second of CPU on the baseline compiler).
export BRAIN_BUFFER_POOL="${BRAIN_BUFFER_POOL:-16MiB}"
# Source maps, so that a failure's stack names the TypeScript line.
node_args=(--node-arg=--enable-source-maps)
if [ "$BRAIN_WASM_TIER" = baseline ]; then node_args+=(--node-arg=--liftoff-only); fi
log=$(mktemp)
set +e
# The test files use tap; scripts/run-tests.mjs starts them (see there why not tap's runner).
node scripts/run-tests.mjs --timeout 600 --jobs "${BRAIN_TEST_JOBS:-2}" "${node_args[@]}" "${files[@]}" | tee "$log"
status=${PIPESTATUS[0]}
set -e
# A plain closing line that any CI reader understands.
passed=$(grep -cE '^ *ok [0-9]+ ' "$log" || true)
failed=$(grep -cE '^ *not ok [0-9]+ ' "$log" || true)
echo "tests: ${passed} passed, ${failed} failed in $(($(date +%s) - suite_started)) s"
rm -f "$log"
exit "$status"
