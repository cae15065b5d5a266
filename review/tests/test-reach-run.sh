#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Only the tests a series reaches run, through the whole review with the
# fakes of review-interrupt (tests/fake-meson.sh; its `meson test --list`
# names kernel-suite, four scenarios and a compare): no kernel, seconds.
#  ksock   a patch to net/core/bpf_ksock.c: meson test runs kernel-suite
#          and ipv4-ksock on the review's build and on the baseline's,
#          never netpoll-ipv4 or ringbuf-ipv4; review.txt, review.json
#          and review.eml say each skipped one and why; Tested-by kept
#  all     --all: every test of the list runs, but NAME@upstream and
#          compare-NAME, which are not about the series' kernel
#  socket  a patch to net/socket.c too (no rule): every test, the path named
#
#   test-reach-run.sh BPFWIRE_REVIEW SOURCE_ROOT
set -u
[ $# -eq 2 ] || { echo "Bail out! usage: test-reach-run.sh BPFWIRE_REVIEW SOURCE_ROOT"; exit 1; }
root=$(realpath "$2")
. "$root/lab/tests/tap.sh"
. "$root/kernel/tests/fake-kernel.sh"
. "$root/review/tests/fake-meson.sh"
review=$(realpath "$1")
fake_meson_need REACH_TEST_NS "$0" "$@"
tap_tmpdir
fake_meson_setup
printf '%s\n' "bpfwire:kernel / kernel-suite" "bpfwire:scenarios / ipv4-ksock" "bpfwire:scenarios / netpoll-ipv4" \
	"bpfwire:scenarios / ringbuf-ipv4" "bpfwire:scenarios / ipv4-ksock@upstream" \
	"bpfwire:scenarios / compare-quota-gone" >"$tmp/list"

# mbox FILE PATH...: one patch changing each PATH
mbox() {
	local f=$1 p
	shift
	printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: T <t@example.invalid>" "Subject: [PATCH] t" \
		"Message-ID: <t@example.invalid>" "" "t" "---" >"$f"
	for p in "$@"; do
		printf '%s\n' "diff --git a/$p b/$p" "--- a/$p" "+++ b/$p" "@@ -1 +1 @@" "-a" "+b" >>"$f"
	done
}
# run NAME SERIES [ARGS]: a review; $rc, $out, $res, $ran (the review's meson test), $based (the baseline's)
run() {
	local name=$1 series=$2
	shift 2
	out=$tmp/$name.out
	fake_meson_forget_base
	rm -f "$tmp"/tests.*
	env PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/base" --name reach \
		--source "$tmp/src" "$@" "$series" >"$out" 2>&1
	rc=$?
	sed "s/^/#   /" "$out" | grep -v "^#     kernel: " | tail -n 12
	res=$(sed -n 's/^results: //p' "$out")
	ran=$(grep '^review ' "$tmp/tests.review" 2>/dev/null)
	based=$(grep '^review-baseline ' "$tmp/tests.base" 2>/dev/null)
}
has() { grep -qF -- "$1" "$out"; }
# ran_has TEXT WORD: WORD is one of TEXT's words
ran_has() { [[ " $1 " == *" $2 "* ]]; }

mbox "$tmp/ksock.mbx" net/core/bpf_ksock.c
run ksock "$tmp/ksock.mbx"
t $([ "$rc" = 0 ] && echo 0) "ksock: exit 0 (got $rc)"
ran_has "$ran" kernel-suite && ran_has "$ran" ipv4-ksock && ! ran_has "$ran" netpoll-ipv4 && ! ran_has "$ran" ringbuf-ipv4 &&
	! ran_has "$ran" ipv4-ksock@upstream
t $? "ksock: the review ran kernel-suite and ipv4-ksock only (ran: $ran)"
ran_has "$based" kernel-suite && ran_has "$based" ipv4-ksock && ! ran_has "$based" netpoll-ipv4 && ! ran_has "$based" ringbuf-ipv4
t $? "ksock: so did the baseline (ran: $based)"
has "bpfwire-review: reach: 2 of 4 tests run, 2 not reached (--all runs every one)" &&
	has "bpfwire-review:   skip netpoll-ipv4: not reached: the series touches only ksock (net/core/bpf_ksock.c); it needs netpoll"
t $? "ksock: said before the tests run"
[ -n "$res" ] && grep -qx "  skip ringbuf-ipv4: not reached: the series touches only ksock (net/core/bpf_ksock.c); it needs no kfunc family" "$res/review.txt" &&
	grep -qx "  run  ipv4-ksock: reached: ksock" "$res/review.txt"
t $? "ksock: review.txt lists each test, run or not reached, with why"
[ "$(jq -r '.reach.all, .reach.reached[0], ([.reach.tests[] | select(.run | not) | .name] | join(","))' "$res/review.json" 2>&1 | paste -sd' ')" = "false ksock netpoll-ipv4,ringbuf-ipv4" ]
t $? "ksock: review.json's reach: not all, ksock reached, the two skipped"
git mailinfo -k "$tmp/msg" "$tmp/patch" <"$res/review.eml" >/dev/null &&
	grep -qx "  skip netpoll-ipv4: not reached: the series touches only ksock (net/core/bpf_ksock.c); it needs netpoll" "$tmp/msg" &&
	grep -qx "Tested-by: bpfwire <bpfwire@example.invalid>" "$tmp/msg" &&
	[ "$(git interpret-trailers --parse <"$tmp/msg")" = "Tested-by: bpfwire <bpfwire@example.invalid>" ]
t $? "ksock: review.eml says it too; Tested-by the one trailer"
grep -q "  skip netpoll-ipv4: not reached" "$res/review.html"
t $? "ksock: review.html says it too"

run all "$tmp/ksock.mbx" --all
ran_has "$ran" kernel-suite && ran_has "$ran" ipv4-ksock && ran_has "$ran" netpoll-ipv4 && ran_has "$ran" ringbuf-ipv4 && has "reach: every test runs (4): --all"
t $? "all: --all: every test of the list ran, said (ran: $ran)"
! ran_has "$ran" ipv4-ksock@upstream && ! ran_has "$ran" compare-quota-gone
t $? "all: never NAME@upstream (build-up's kernel) or compare-NAME (bpfwire's two flavours compared)"

mbox "$tmp/socket.mbx" net/core/bpf_ksock.c net/socket.c
run socket "$tmp/socket.mbx"
ran_has "$ran" netpoll-ipv4 && ran_has "$ran" ringbuf-ipv4 && has "reach: every test runs (4): net/socket.c: no rule of $root/review/reach.map maps this path"
t $? "socket: a path no rule maps: every test ran, the path named (ran: $ran)"
tap_done
