#!/usr/bin/env bash
# Fills a small disk the way a person does: a brain on a tmpfs beside other data, imports of
# folders of 20 notes of about 50 KB one after another until one fails. Prints each import's exit
# code, wall time and the free space after it; the failing import should end in disk_full within
# seconds. Needs root (mount). Usage:
#   bash bench/disk/fill-sequence.sh [other-data-MB] [tmpfs-size] [imports]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
fill_mb=${1:-40}
size=${2:-128m}
imports=${3:-8}
work=$(mktemp -d)
mnt=$work/mnt
mkdir -p "$mnt"
mount -t tmpfs -o "size=$size" tmpfs "$mnt" || { echo "needs root to mount a tmpfs" >&2; exit 2; }
export BRAIN_HOME=$mnt/home BRAIN_EMBEDDING_PROVIDER=local
cleanup() {
  node "$root/bin/brain.js" service stop >/dev/null 2>&1
  umount -l "$mnt"
  rm -rf "$work"
}
trap cleanup EXIT
dd if=/dev/urandom of="$mnt/other-data" bs=1M count="$fill_mb" status=none
node "$root/bin/brain.js" init >/dev/null
echo "tmpfs $size, other data ${fill_mb} MB, after init: $(df -B1 --output=avail "$mnt" | tail -1) bytes free"
for i in $(seq 1 "$imports"); do
  dir=$work/notes/batch$i
  mkdir -p "$dir"
  for j in $(seq 1 20); do head -c 37000 /dev/urandom | base64 -w 76 | sed 's/^/word /' >"$dir/note-$i-$j.md"; done
  started=$(date +%s.%N)
  timeout 900 node "$root/bin/brain.js" import "$dir" >"$work/out$i.json" 2>&1
  code=$?
  took=$(echo "$(date +%s.%N) - $started" | bc)
  printf 'import %d: exit %d in %.1f s, %s bytes free%s\n' "$i" "$code" "$took" "$(df -B1 --output=avail "$mnt" | tail -1)" "$([ $code -ne 0 ] && grep -o '"code": "[a-z_]*"' "$work/out$i.json" | head -1 | sed 's/^/, /')"
  [ $code -ne 0 ] && break
done
# Space back: the same brain takes the refused folder, and every page stored before is there.
rm -f "$mnt/other-data"
before=$(node "$root/bin/brain.js" list --limit 100000 --json 2>/dev/null | grep -c '"slug"')
started=$(date +%s.%N)
timeout 900 node "$root/bin/brain.js" import "$dir" >"$work/again.json" 2>&1
code=$?
after=$(node "$root/bin/brain.js" list --limit 100000 --json 2>/dev/null | grep -c '"slug"')
printf 'other data removed; import %d again: exit %d in %.1f s; pages %d before, %d after\n' "$i" "$code" "$(echo "$(date +%s.%N) - $started" | bc)" "$before" "$after"
