#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel suite's `selftests` case: build the series' own
# test_progs from this build's kernel tree (selftests/build.sh) and run it
# in a guest of topology/lone-smp.topo (kernel/tests/run-in-guest.sh with
# bpfwire-selftests-run), as BPF CI runs a series' selftests.
#
#   test-selftests.sh LAB RUNNER DECLS CLANG KERNEL_DIR OUT [PATCH...]
#
# PATCH...: the series the kernel was built with. The tests are those its
# patches add or change under tools/testing/selftests/bpf; when they carry
# none (bpfwire's shipped series do not), a series of bpfwire's own
# selftests is made here (make-series.sh): bpfwire_netpoll, bpfwire_ksock
# and bpfwire_hang, which hangs on purpose and must be ended by the watchdog
# (10 s for it: --xfail, a TODO line) while the suite goes on.
# SELFTESTS_TIMEOUT: every other test's watchdog (default 120 s).
# SELFTESTS_VCOST: bpfwire-vcost, run after the tests on each of the
# series' BPF objects (the verifier's cost of the series' own programs).
# SELFTESTS_APPLY=1: the patches' selftests are applied to copies of the
# tree's (build.sh --apply), the kernel was not built with them (the
# posted selftests on bpfwire's port: test-posted-selftests.sh).
set -u
lab=$1 runner=$2 decls=$(realpath "$3") clang=$4 kdir=$5 out=$6
shift 6
here=$(dirname "$(realpath "$0")")
n=0 failed=0 t0=$(date +%s)
case_() { # ok|not NAME
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP the selftests case boots a guest and needs root"
	exit 0
fi
mkdir -p "$out"
shipped=$(grep -l '^+++ b/tools/testing/selftests/bpf/prog_tests/' "$@" /dev/null 2>/dev/null)
if [ -n "$shipped" ]; then
	set -- $shipped
	apply= runargs=
	if [ "${SELFTESTS_APPLY:-0}" = 1 ]; then
		echo "# selftests of $# patches, applied to copies of the tree's"
		apply=--apply
	else
		echo "# the kernel's series carries selftests: $# patches"
	fi
else
	echo "# the kernel's series carries no selftests: bpfwire's own, as a test-made series"
	"$here/make-series.sh" "$here/made" "$out/made-series" | sed 's/^/# /'
	set -- $(sed "s|^|$out/made-series/|" "$out/made-series/series")
	apply=--apply runargs="--xfail bpfwire_hang --timeout bpfwire_hang=10"
fi

# A reviewer's kernel was built in the sandbox (kernel/sandbox.sh): its
# series' Makefiles, bpftool and programs are built there too.
sandbox=
if [ -d "$kdir/sbx" ]; then
	rm -rf "$out/build" "$out/in"
	# the patches as the sandbox sees them: its /tmp and /root are its own
	mkdir -p "$out/in"
	i=0
	for p in "$@"; do
		i=$((i + 1))
		cp -- "$p" "$out/in/$i.patch" && chmod 644 "$out/in/$i.patch"
	done
	set -- $(i=0; for p in "$@"; do i=$((i + 1)); echo "$out/in/$i.patch"; done)
	sandbox="$here/../../kernel/sandbox.sh --ro $(realpath "$here/../..") --ro $(realpath "$kdir")
		--ro $(realpath "$out") --ro $(dirname "$(realpath "$decls")")
		--rw $(realpath -m "$out/build") --"
	echo "# the kernel is a reviewer's: its selftests build in the sandbox, as uid $("$here/../../kernel/sandbox.sh" --uid)"
fi
if $sandbox "$here/../build.sh" --src "$kdir/src" --vmlinux "$kdir/vmlinux" --vmlinux-h "$kdir/vmlinux.h" \
		--decls "$decls" --clang "$clang" --out "$out/build" $apply "$@" >"$out/build.log" 2>&1; then
	sed 's/^/# /' "$out/build.log"
	case_ ok "selftests: test_progs built from $kdir/src ($(sed -n 's/^selftests: tests: //p' "$out/build.log"))"
else
	sed 's/^/# /' "$out/build.log"
	case_ not "selftests: test_progs built (see $out/build.log)"
	echo "1..$n"
	exit 1
fi
expected=$(sed -n 's/^selftests: tests: //p' "$out/build.log")

"$here/../../kernel/tests/run-in-guest.sh" "$lab" "$runner" \
	"$here/../../topology/lone-smp.topo" "$kdir/bzImage" \
	"--test-progs $out/build/test_progs --timeout ${SELFTESTS_TIMEOUT:-120} --evidence @HOSTDIR@/selftests $runargs${SELFTESTS_VCOST:+ --vcost $SELFTESTS_VCOST --objects $out/build/obj}" \
	>"$out/guest.tap" 2>&1
grep -v '^1\.\.[0-9]' "$out/guest.tap" | awk -v n="$n" '
	/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) }
	{ print }'
n=$((n + $(grep -c -E '^(not )?ok [0-9]+' "$out/guest.tap")))
failed=$((failed + $(grep -E '^(not )?ok [0-9]+' "$out/guest.tap" | awk '
	/# TODO/ { if ($1 == "ok") k++; next }
	$1 == "not" { k++ }
	END { print k + 0 }')))

# Each test the build listed has its own line, and at least one ran.
missing=
for t in $expected; do
	grep -q -E "^(not )?ok [0-9]+ - $t(:| |$)" "$out/guest.tap" || missing="$missing $t"
done
ran=$(sed -n 's/^# selftests: ran \([0-9]*\) tests.*/\1/p' "$out/guest.tap")
if [ -n "$expected" ] && [ -z "$missing" ] && [ "${ran:-0}" -gt 0 ]; then
	case_ ok "selftests: ran ${ran} tests, each with a result:$(printf ' %s' $expected)"
else
	case_ not "selftests: ran ${ran:-0} tests; no result for:${missing:- (none built)}"
fi
# The test-made hang: ended by its watchdog, with its map in the evidence,
# and a test after it still ran.
if [ -n "$runargs" ]; then
	grep -q '^not ok [0-9]* - bpfwire_hang: watchdog: no result in 10 s, killed # TODO' "$out/guest.tap" &&
		grep -q '^# map id [0-9]*: [0-9]*: array  name hang_state' "$out/guest.tap" &&
		grep -q '^ok [0-9]* - bpfwire_netpoll$' "$out/guest.tap"
	if [ $? = 0 ]; then
		case_ ok "selftests: bpfwire_hang ended by its 10 s watchdog with its map, and the suite went on"
	else
		case_ not "selftests: bpfwire_hang not ended by the watchdog as expected (see above)"
	fi
fi
echo "# selftests case: $(( $(date +%s) - t0 )) s"
echo "1..$n"
[ "$failed" -eq 0 ]
