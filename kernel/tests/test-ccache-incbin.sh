#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ccache-cc.sh, the kernel build's CC: a source that .incbin's a file is
# compiled afresh when only that file changed (same size, as piggy.S's
# payload was in the review suite), and any other source still goes
# through the cache. Run with build.sh's ccache settings (depend mode).
#
#   test-ccache-incbin.sh CCACHE_CC_SH
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
cc=$1
command -v ccache >/dev/null || { echo "1..0 # SKIP no ccache (tools/install-deps installs it)"; exit 0; }
tap_tmpdir
export CCACHE_DIR=$tmp/cache CCACHE_BASEDIR=$tmp CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1 \
	CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
cd "$tmp" || exit 1
printf '.section .rodata\n.incbin "payload.bin"\n' >piggy.S
printf 'asm(".section .rodata\\n.incbin \\"payload.bin\\"\\n.previous");\n' >configs.c
printf 'int plain(void) { return 42; }\n' >plain.c

# payload.bin holds LETTER x 64; compile SRC with CC into OBJ; what .rodata holds
payload() { head -c 64 /dev/zero | tr '\0' "$1" >payload.bin; }
build() { rm -f "$3"; $1 -Wp,-MMD,"$3.d" -c -o "$3" "$2" 2>"$tmp/cc.err" || cat "$tmp/cc.err"; }
rodata() { objcopy -O binary -j .rodata "$1" /dev/stdout 2>/dev/null | head -c 1; }

for src in piggy.S configs.c; do
	payload A; build "$cc" "$src" w.o
	payload B; build "$cc" "$src" w.o
	t $([ "$(rodata w.o)" = B ] && echo 0) "$src: the .incbin'd file changed, same size: the object has the new bytes (got '$(rodata w.o)')"
	# The same steps through ccache alone show the stale object: the
	# check above is one that fails without the wrapper.
	payload A; build "ccache gcc" "$src" c.o
	payload B; build "ccache gcc" "$src" c.o
	if [ "$(rodata c.o)" = A ]; then
		t 0 "$src: ccache gcc alone serves the object of the old file (the check above can fail)"
	else
		echo "ok $((n += 1)) - $src: ccache gcc alone # SKIP this ccache recompiles it"
	fi
done

hits() { ccache --print-stats | awk '$1 ~ /_cache_hit$/ { s += $2 } END { print s + 0 }'; }
before=$(hits)
build "$cc" plain.c p.o
build "$cc" plain.c p.o
t $([ "$(hits)" -gt "$before" ] && echo 0) "plain.c: compiled twice through the wrapper, the second a cache hit ($before -> $(hits) hits)"
t $([ -s p.o ] && echo 0) "plain.c: the object was written"
tap_done
