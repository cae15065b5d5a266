#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A reviewed series' sandboxed build gets root's ccache hits without any
# power over root's cache, and root's and the sandbox's builds configure
# the same kernel, or none of those hits can match. On the fake kernel
# tree (fake-kernel.sh):
#  - root's cache (CCACHE_DIR) holds one entry; the sandbox's build lists
#    its own cache and overwrites that entry there;
#  - a rustc first in root's PATH, as ~/.cargo/bin puts one: Kconfig asks
#    PATH's rustc for its version, which then sits in autoconf.h, so the
#    fake allnoconfig records which rustc it would have asked.
#
#   test-sandbox-ccache.sh SOURCE_ROOT
set -u
here=$(dirname "$0")
. "$here/../../lab/tests/tap.sh"
. "$here/fake-kernel.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-sandbox-ccache.sh SOURCE_ROOT"; exit 1; }
root=$(realpath "$1")
fake_kernel_need
command -v ccache >/dev/null || { echo "1..0 # SKIP ccache is missing"; exit 0; }
tap_tmpdir
chmod 755 "$tmp"
fake_kernel "$tmp/tree"
uid=$("$root/kernel/sandbox.sh" --uid)
# The fake kbuild: which rustc Kconfig would ask; what its ccache holds,
# and an overwrite of the entry when that cache is the sandbox's.
python3 - "$tmp/tree/Makefile" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("allnoconfig:\n", "allnoconfig:\n\t(command -v rustc || echo none) >$(O)/rustc.seen\n", 1)
s = s.replace("bzImage:\n", "bzImage:\n\tls $$CCACHE_DIR/a/b >$(O)/ccache.seen 2>&1 || true\n"
              "\tcase $$CCACHE_DIR in */sbx/*) echo poison >$$CCACHE_DIR/a/b/0123R ;; esac\n", 1)
open(p, "w").write(s)
PY
mkdir -p "$tmp/rootcache/a/b" "$tmp/evil"
echo entry >"$tmp/rootcache/a/b/0123R"
echo "max_size = 1G" >"$tmp/rootcache/ccache.conf"
printf '#!/bin/sh\necho "rustc 1.95.0"\n' >"$tmp/evil/rustc"
chmod 755 "$tmp/evil/rustc"
echo "CONFIG_NET=y" >"$tmp/frag.config"

# build NAME ARGS...: build.sh on the fake tree into $tmp/NAME, with root's
# cache and the rustc first in PATH; $rc, $out, $kd.
build() {
	local name=$1
	shift
	kd=$tmp/$name
	out=$(CCACHE_DIR=$tmp/rootcache PATH=$tmp/evil:$PATH "$root/kernel/build.sh" --out "$kd" \
		--source "$tmp/tree" --netpoll false --fragment "$tmp/frag.config" --localversion -t "$@" 2>&1)
	rc=$?
}

echo "# a reviewed series, sandboxed, with root's CCACHE_DIR holding one entry and $tmp/evil/rustc first in PATH"
build review --sandbox --user-patches none
t $([ "$rc" = 0 ] && echo 0) "the sandboxed build ran (exit $rc)"
[ "$rc" = 0 ] || sed 's/^/#   /' <<<"$out" | tail -15
c=$kd/sbx/ccache/a/b/0123R
t $(grep -qx 0123R "$kd/sbx/obj/ccache.seen" 2>/dev/null && [ -f "$c" ] && [ "$(stat -c %u "$c")" = "$uid" ] && echo 0) \
	"the sandbox's ccache is a copy of root's, its own (entry seen: $(cat "$kd/sbx/obj/ccache.seen" 2>/dev/null | head -1); owner $(stat -c %u "$c" 2>/dev/null || echo none))"
t $([ "$(cat "$tmp/rootcache/a/b/0123R")" = entry ] && [ "$(stat -c %u "$tmp/rootcache/a/b/0123R")" = 0 ] &&
	[ "$(find "$tmp/rootcache" -newer "$tmp/frag.config" | wc -l)" = 0 ] && echo 0) \
	"its overwrite of the entry ($(cat "$c" 2>/dev/null)) reached only its copy: root's still reads '$(cat "$tmp/rootcache/a/b/0123R")', nothing in root's cache is newer"
t $([ "$(cat "$kd/sbx/obj/rustc.seen" 2>/dev/null)" != "$tmp/evil/rustc" ] && [ -s "$kd/sbx/obj/rustc.seen" ] && echo 0) \
	"the sandbox's Kconfig would ask '$(cat "$kd/sbx/obj/rustc.seen" 2>/dev/null)' for rustc's version"

echo "# a shipped flavour, root's own build, the same PATH"
build shipped --user-patches none
t $([ "$rc" = 0 ] && echo 0) "root's build ran (exit $rc)"
[ "$rc" = 0 ] || sed 's/^/#   /' <<<"$out" | tail -15
t $([ -s "$kd/obj/rustc.seen" ] && [ "$(cat "$kd/obj/rustc.seen")" = "$(cat "$tmp/review/sbx/obj/rustc.seen" 2>/dev/null)" ] && echo 0) \
	"root's Kconfig would ask '$(cat "$kd/obj/rustc.seen" 2>/dev/null)', the same rustc as the sandbox's, not the one first in root's PATH"
t $([ ! -e "$kd/sbx" ] && [ "$(cat "$tmp/rootcache/a/b/0123R")" = entry ] && echo 0) \
	"root's own build has no sandbox and leaves its cache's entry as it was"
tap_done
