#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The per-patch checks of the static section (review/perpatch.sh in the
# sandbox, perpatch.c): each patch of the series on its own parent, its
# objects built with make W=1 C=1, through the whole review with the fakes
# of tests/fake-meson.sh. The "built" tree is kernel/tests/fake-kernel.sh's
# (its rule for one object: gcc, W=1's extra warnings, C=1's fake checker),
# tag pristine, three patches of the series and one of bpfwire's lab series:
#   1 "net: sock: make sock_7 static": W=1's "no previous prototype for
#     'sock_7'" goes, "'sock_7' defined but not used" comes: one warning
#     at the parent as at the patch, another set
#   2 "net: sock: return y": net/core/sock.o does not build
#   3 "net: sock: return 9 again": it builds again; and a line of
#     net/core/dev_addr_lists.c with an unused variable, that the checker
#     prints as a warning with an ESC, a CR and a backslash
#   4 (lab) breaks sock.c again: not the series', never checked
#  default   exit 0: the first patch that breaks the build is patch 2;
#            patch 1's new and gone warnings, "the same count"; patch 3's
#            hostile warning escaped; review.json; make ran as the
#            sandbox's uid
#  --strict  exit 1: the break and the 4 new warnings count; each make
#            kept from the review before, though the parent's make
#            changed WORK's config (patch 1 defines a symbol it sets)
#  again     the kept tree (perpatch-tree): the same findings, each
#            commit's make kept from the reviews before (WORK/cache)
#  nobuild   the series' build fails: a verdict, exit 1, its log's first
#            error escaped, the static section still; nothing ran
#  own-fails the kernel built, bpfwire's own build did not: exit 2
#  setup-fails the build failed in root's steps, before the sandboxed
#            build began (no mark of it): exit 2, the series not blamed
#
#   test-perpatch.sh BPFWIRE_REVIEW SOURCE_ROOT
set -u
[ $# -eq 2 ] || { echo "Bail out! usage: test-perpatch.sh BPFWIRE_REVIEW SOURCE_ROOT"; exit 1; }
root=$(realpath "$2")
. "$root/lab/tests/tap.sh"
. "$root/kernel/tests/fake-kernel.sh"
. "$root/review/tests/fake-meson.sh"
review=$(realpath "$1")
for p in gcc make jq; do command -v $p >/dev/null || { echo "1..0 # SKIP no $p"; exit 0; }; done
command -v sparse >/dev/null || { echo "1..0 # SKIP no sparse (apt-get install sparse): C=1 is not run without it"; exit 0; }
fake_meson_need PERPATCH_TEST_NS "$0" "$@"
tap_tmpdir
[ -z "${KEEP:-}" ] || trap - EXIT
fake_meson_setup

fake_kernel "$tmp/tree" --git
cd "$tmp/tree"
g() { git -c user.name="A U Thor" -c user.email=a@example.org "$@"; }
commit() { g commit -qam "$1" -m "Why it is so." -m "Signed-off-by: A U Thor <a@example.org>"; }
# patch 1 also defines the symbol SOCK_7 that the review's config sets:
# at the parent, kbuild's syncconfig drops it from the per-patch config
sed -i 's/^int sock_7(void)/static int sock_7(void)/' net/core/sock.c && printf 'config SOCK_7\n\tbool\n' >>Kconfig &&
	commit "net: sock: make sock_7 static"
sed -i 's/return 9; }/return y; }/' net/core/sock.c && commit "net: sock: return y"
sed -i 's/return y; }/return 9; }/' net/core/sock.c
printf 'int dev_addr_lists_25(void) { int u; return 25; } /* checker: \033[31mred\r\\ forged */\n' >>net/core/dev_addr_lists.c
commit "net: sock: return 9 again"
sed -i 's/return 10; }/return z; }/' net/core/sock.c && commit "lab: not the series'"
cd - >/dev/null
# the review's build: its config, and the objects kbuild made (.cmd files)
mkdir -p "$tmp/obj/net/core"
printf '%s\n' "CONFIG_NET=y" "CONFIG_SOCK_7=y" >"$tmp/obj/.config"
touch "$tmp/obj/net/core/.sock.o.cmd" "$tmp/obj/net/core/.dev_addr_lists.o.cmd"
cat >"$tmp/series.json" <<'EOF'
{ "patches": [
  { "series": "user", "subject": "net: sock: make sock_7 static" },
  { "series": "user", "subject": "net: sock: return y" },
  { "series": "user", "subject": "net: sock: return 9 again" },
  { "series": "lab", "subject": "lab: not the series'" } ] }
EOF
printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: T <t@example.invalid>" "Subject: [PATCH 0/3] t" \
	"Message-ID: <t@example.invalid>" "" "t" >"$tmp/t.mbx"

# run NAME [ARGS]: a review; $rc, $out, $res (its results dir)
run() {
	local name=$1
	shift
	out=$tmp/$name.out
	fake_meson_forget_base
	env PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/base" --name pp \
		--tests kernel-suite --source "$tmp/src" "$@" "$tmp/t.mbx" >"$out" 2>&1
	rc=$?
	grep "patch\|static" "$out" | sed "s/^/#   /" | tail -n 20
	res=$(sed -n 's/^results: //p' "$out")
}
has() { grep -qF -- "$1" "$out"; }
s1='  patch 1 "net: sock: make sock_7 static": '
s2='  patch 2 "net: sock: return y": '
s3='  patch 3 "net: sock: return 9 again": '

run default
t $([ "$rc" = 0 ] && echo 0) "default: exit 0 (got $rc): a static finding is not worse"
has "static: per patch, on its parent, the .c files it touches that the config builds, with W=1 and sparse (C=1)" &&
	has '3 patches, 4 objects, 1 patches break the build, 4 new warnings (not counted as worse' &&
	has '  the first patch that breaks the build: patch 2 "net: sock: return y"'
t $? "default: the section; the first patch that breaks the build is patch 2"
has "${s2}does not build: net/core/sock.o: net/core/sock.c:11:" && has "error: 'y' undeclared" &&
	has "${s3}builds again: net/core/sock.o" && ! grep -q 'patch 4\|lab: not the series' "$out"
t $? "default: patch 2 does not build (its error), patch 3 builds again; nothing of the lab patch"
has "${s1}new W=1 warning: net/core/sock.c: 'sock_7' defined but not used [-Wunused-function]" &&
	has "${s1}gone W=1 warning: net/core/sock.c: no previous prototype for 'sock_7' [-Wmissing-prototypes]" &&
	has "${s1}24 warnings at its parent, 24 at it: the same count, another set"
t $? "default: patch 1 adds one W=1 warning and removes another: both named, the count the same"
has "${s3}new sparse warning: net/core/dev_addr_lists.c: \\x1b[31mred\\r\\\\ forged" &&
	has "${s3}new W=1 warning: net/core/dev_addr_lists.c: no previous prototype for 'dev_addr_lists_25'" &&
	has "${s3}new W=1 warning: net/core/dev_addr_lists.c: dev_addr_lists_25(): unused variable 'u' [-Wunused-variable]" &&
	! grep -q $'\x1b\|\r' "$out" "$res/review.txt"
t $? "default: patch 3's warnings, one in a function; the checker's escaped (ESC, CR, backslash), in the output and review.txt"
[ "$(jq -r '.static.per_patch | "\(.first_broken) \(.new_warnings) \(.patches[0].new[0].message) \(.patches[1].objects[0].patch) \(.patches[2].new | map(.function) | sort | join(","))"' "$res/review.json" 2>&1)" = \
	"2 4 'sock_7' defined but not used [-Wunused-function] failed ,,dev_addr_lists_25" ] && jq -e '.static.per_patch.patches[2].new[] | select(.tool == "sparse") | .message == "\u001b[31mred\r\\ forged"' "$res/review.json" >/dev/null
t $? "default: review.json's per_patch: patch 2 first broken, 4 new warnings, patch 3's function, the message as the tool wrote it"
git mailinfo -k "$tmp/msg" "$tmp/patch" <"$res/review.eml" >/dev/null &&
	grep -qF '  the first patch that breaks the build: patch 2 "net: sock: return y"' "$tmp/msg" &&
	grep -qx "Tested-by: bpfwire <bpfwire@example.invalid>" "$tmp/msg"
t $? "default: review.eml names patch 2, and has Tested-by"
uid=$("$root/kernel/sandbox.sh" --uid)
[ "$(stat -c %u "$tmp/build-review-pp/perpatch/s1.log" 2>&1)" = "$uid" ] &&
	[ "$(stat -c %u "$tmp/build-review-pp/perpatch-tree/obj/net/core/sock.o" 2>&1)" = "$uid" ]
t $? "default: make ran in the sandbox, as uid $uid ($(jq -r '.static.per_patch.seconds | floor' "$res/review.json") s for the per-patch checks)"

run strict --strict
t $([ "$rc" = 1 ] && echo 0) "--strict: exit 1 (got $rc)"
has "verdict: WORSE (0 worse than the baseline, 5 static findings under --strict)" && ! grep -q "^Tested-by:" "$res/review.eml"
t $? "--strict: the verdict counts the break and the 4 new warnings; no Tested-by"
# The same commits and config as the review before: nothing is made
# again, though the make at the parent dropped SOCK_7 from WORK's config.
[ "$(grep -c 'perpatch: .*(kept from a review of the same commit)' "$out")" = 4 ]
t $? "--strict: each of the 4 makes kept from the review before ($(grep -c 'perpatch: .*(kept from' "$out") kept)"

run again
has '  the first patch that breaks the build: patch 2 "net: sock: return y"' &&
	has "${s1}24 warnings at its parent, 24 at it: the same count, another set" && [ "$rc" = 0 ]
t $? "again, on the kept tree: the same findings (exit $rc)"
[ "$(grep -c 'perpatch: .*(kept from a review of the same commit)' "$out")" = 4 ]
t $? "again: each of the 4 makes kept from the review before (the same commits, objects and config)"

# The whole series does not build: a verdict, with the first error of the
# build's log (written in the sandbox: escaped), and the static section.
printf '%s\n' "  CC      net/core/dev.o" \
	$'net/core/sock.c:11:20: error: \'y\' undeclared (first use in this function) \033[31m' \
	"net/core/sock.c:12:1: error: a second error" >"$tmp/build-fails"
rm -f "$tmp/tests.review" "$tmp/tests.base"
run nobuild
rm -f "$tmp/build-fails"
t $([ "$rc" = 1 ] && echo 0) "a series that does not build: a verdict, exit 1 (got $rc), not 2"
has "the series did not build" && has "verdict: WORSE (1 worse than the baseline" &&
	has "net/core/sock.c:11:20: error: 'y' undeclared (first use in this function) \\x1b[31m)" &&
	! grep -q $'\x1b' "$out" "$res/review.txt" && ! grep -q "a second error" "$out"
t $? "nobuild: one worse item, the log's first error, escaped"
has '  the first patch that breaks the build: patch 2 "net: sock: return y"' &&
	[ "$(jq -r '[.verdict, (.items | length), .items[0].test, .static.per_patch.first_broken] | join(" ")' "$res/review.json" 2>&1)" = \
	"WORSE 1 kernel build 2" ]
t $? "nobuild: the static section names patch 2; review.json: WORSE, one item, the kernel build"
[ ! -e "$tmp/tests.review" ] && [ ! -e "$tmp/tests.base" ] && [ -s "$res/review.eml" ] && ! grep -q "^Tested-by:" "$res/review.eml"
t $? "nobuild: no test and no baseline ran; review.eml without Tested-by"

# The kernel built and bpfwire's own code did not: not the series' doing.
touch "$tmp/own-fails"
run own-fails
rm -f "$tmp/own-fails"
t $([ "$rc" = 2 ] && has "the kernel built, but bpfwire's own programs" && ! has "verdict:" && echo 0) \
	"the kernel built, bpfwire's own build failed: exit 2 (got $rc), no verdict"

# Root's steps of the kernel build (the ccache's copy, the sandbox's
# checks) failed before the series' own build began: not the series'
# doing, so no verdict and nothing called worse.
# (No kernel of a build before: a first build in a new directory.)
touch "$tmp/setup-fails"
rm -f "$tmp/build-review-pp/kernel/bzImage"
run setup-fails
rm -f "$tmp/setup-fails"
t $([ "$rc" = 2 ] && has "the build failed before the series' own build began" && ! has "verdict:" &&
	! has "the series did not build" && echo 0) \
	"the build failed before the sandboxed build: exit 2 (got $rc), no verdict, the series not blamed"
tap_done
