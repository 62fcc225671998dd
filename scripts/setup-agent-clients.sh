#!/usr/bin/env bash
# Makes sure the coding agents brain installs into are present for the tests that drive them:
# pinned versions of their npm packages, installed once into a cache folder named by the versions
# (never into brain's own node_modules: they are not brain's dependencies). Prints that folder
# on stdout; prints nothing and exits 1 when they cannot be installed.
#
# Install scripts are not run by npm (its policy on them differs between versions); the two that
# matter only copy the platform binary, which npm fetched as an optional dependency, over a
# placeholder, so they are run here explicitly. The others (native builds of optional modules
# Gemini CLI can do without) would need the network beyond the registry.
set -euo pipefail

# Each the newest release whose package.json `engines` admits Node 20 (Claude Code declares
# node >=22 from 2.1.198 on, although its command is a native binary).
PACKAGES=(
  @anthropic-ai/claude-code@2.1.197
  @openai/codex@0.171.0
  @google/gemini-cli@0.61.0
  opencode-ai@1.18.33
)

say() { echo "[setup-agent-clients] $*" >&2; }

hash=$(printf '%s\n' "${PACKAGES[@]}" | sha256sum | cut -c1-16)
dir="${XDG_CACHE_HOME:-$HOME/.cache}/brain-test/agent-clients/${hash}"
if [ -f "$dir/.complete" ]; then
  say "agent clients present ($dir)"
  echo "$dir"
  exit 0
fi

say "installing ${PACKAGES[*]} into $dir (about 1 GB, once)"
partial="${dir}.partial.$$"
rm -rf "$partial"
mkdir -p "$partial"
trap 'rm -rf "$partial"' EXIT
if ! npm install --prefix "$partial" --ignore-scripts --no-audit --no-fund --loglevel=error "${PACKAGES[@]}" >&2; then
  say "npm install failed: the agent client tests will fail"
  exit 1
fi
(cd "$partial/node_modules/@anthropic-ai/claude-code" && node install.cjs >&2)
(cd "$partial/node_modules/opencode-ai" && node postinstall.mjs >&2)

bin="$partial/node_modules/.bin"
for client in claude codex gemini opencode; do
  # Under a throwaway home, so checking a client leaves nothing in the user's.
  version=$(HOME="$partial/.probe-home" XDG_CONFIG_HOME="$partial/.probe-home/.config" XDG_DATA_HOME="$partial/.probe-home/.local/share" \
    XDG_CACHE_HOME="$partial/.probe-home/.cache" XDG_STATE_HOME="$partial/.probe-home/.local/state" "$bin/$client" --version 2>/dev/null | tail -1) || {
    say "$client does not start: the agent client tests will fail"
    exit 1
  }
  say "$client: $version"
done
rm -rf "$partial/.probe-home"

rm -rf "$dir"
mv "$partial" "$dir"
trap - EXIT
touch "$dir/.complete"
echo "$dir"
