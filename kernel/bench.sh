#!/bin/bash
# Build benchmark, run by hand (never a test): times a cold kernel build,
# a no-op rebuild and a rebuild after a change confined to one patched .c
# file (net/core/bpf_ksock.c), on this machine. Targets: cold <= 10 min,
# one-file <= 90 s, no-op <= 10 s.
#   kernel/bench.sh [--out DIR] [--ccache]
# The cold build runs with ccache disabled unless --ccache is given.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
out=$PWD/build-kbench use_ccache=0
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--ccache) use_ccache=1; shift ;;
	-h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ "$use_ccache" = 1 ] || export CCACHE_DISABLE=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/patches" "$work/patches"
build() { bash "$here/build.sh" --out "$out" --patches "$work/patches" --fixes "$work/patches/fixes" --series "$work/patches/sndbuf" --fragment "$here/lab.config" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }; }
timed() { local s e; s=$(date +%s.%N); build; e=$(date +%s.%N); echo "$e - $s" | bc; }

rm -rf "$out"
echo "bench: cold build into $out (ccache $([ "$use_ccache" = 1 ] && echo on || echo off))..."
cold=$(timed)
echo "bench: no-op rebuild..."
noop=$(timed)
# A comment line added to bpf_ksock.c inside patch 0003 changes only that file.
p=$(ls "$work"/patches/*ksock-kfuncs.patch)
python3 - "$p" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
anchor = "+ * bpf_ksock_send() - Send data through a BPF kernel socket.\n"
assert anchor in s
s = s.replace(anchor, "+ * bench: one-file change\n" + anchor, 1)
# Keep the hunk header of the new file consistent: +N lines grows by one.
s, n = re.subn(r"@@ -0,0 \+1,(\d+) @@(\n\+// SPDX-License-Identifier: GPL-2.0-only\n\+/\* Copyright \(c\) 2026 Isovalent \*/\n\+\n\+#include <linux/bpf.h>\n)",
               lambda m: "@@ -0,0 +1,%d @@%s" % (int(m.group(1)) + 1, m.group(2)), s, count=1)
assert n == 1
open(p, "w").write(s)
PY
echo "bench: rebuild after a one-file patch change..."
onefile=$(timed)
printf '\nkernel build benchmark, %s, %s cores\n' "$(date -u +%F)" "$(nproc)"
printf '  %-34s %8.1f s  (target <= 600 s)\n' "cold build" "$cold"
printf '  %-34s %8.1f s  (target <= 10 s)\n' "no-op rebuild (build.sh)" "$noop"
printf '  %-34s %8.1f s  (target <= 90 s)\n' "one-file change (bpf_ksock.c)" "$onefile"
