#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bpfwire-review --dry-run says which tests a series reaches, from the
# source tree (no build directory): each run or skipped, with why. No
# kernel, no meson: the dry run builds and runs nothing.
#  ksock     net/core/bpf_ksock.c alone: ipv4-ksock and kernel-suite run,
#            netpoll-ipv4 and ringbuf-ipv4 are "not reached", with why
#  netpoll   a patch directory touching net/core/bpf_netpoll.c: the reverse
#  unmapped  net/socket.c too: every test runs, the path named
#  all       --all: every test runs, "--all" said
#  tests     --tests: the named ones, none skipped (with --all too)
#  nothing   the dry runs left no file behind
#
#   test-reach-dry.sh BPFWIRE_REVIEW SOURCE_ROOT
set -u
[ $# -eq 2 ] || { echo "Bail out! usage: test-reach-dry.sh BPFWIRE_REVIEW SOURCE_ROOT"; exit 1; }
root=$(realpath "$2")
. "$root/lab/tests/tap.sh"
review=$(realpath "$1")
tap_tmpdir

# patch FILE PATH...: an mbox of one patch changing each PATH
patch() {
	local f=$1 p
	shift
	printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: T <t@example.invalid>" "Subject: [PATCH] t" "" "---" >"$f"
	for p in "$@"; do
		printf '%s\n' "diff --git a/$p b/$p" "--- a/$p" "+++ b/$p" "@@ -1 +1 @@" "-a" "+b" >>"$f"
	done
}
# dry NAME ARGS...: $rc, $out
dry() {
	local name=$1
	shift
	out=$tmp/$name.out
	"$review" --dry-run --build-root "$tmp/root" "$@" >"$out" 2>&1
	rc=$?
	sed 's/^/#   /' "$out" | cut -c1-200 | head -n 8
}
mkdir "$tmp/root"

patch "$tmp/ksock.mbx" net/core/bpf_ksock.c
dry ksock "$tmp/ksock.mbx"
t $([ $rc = 0 ] && echo 0) "ksock: exit 0"
t $(grep -q '^reach: the series touches net/core/bpf_ksock\.c (ksock): it reaches ksock (' "$out" && echo 0) \
	"ksock: what it touches, and the family"
t $(grep -Eq '^reach: [0-9]+ of [0-9]+ tests run, [1-9][0-9]* not reached \(--all runs every one\)$' "$out" && echo 0) \
	"ksock: the counts"
t $(grep -qx '  run  ipv4-ksock: reached: ksock' "$out" && grep -q '^  run  kernel-suite: reached: ksock (it also sees netpoll' "$out" && echo 0) \
	"ksock: ipv4-ksock and kernel-suite run"
t $(grep -qx '  skip netpoll-ipv4: not reached: the series touches only ksock (net/core/bpf_ksock.c); it needs netpoll' "$out" &&
	grep -qx '  skip ringbuf-ipv4: not reached: the series touches only ksock (net/core/bpf_ksock.c); it needs no kfunc family' "$out" && echo 0) \
	"ksock: netpoll-ipv4 and ringbuf-ipv4 not reached, with why"

mkdir "$tmp/np"
patch "$tmp/np/0001-np.patch" net/core/bpf_netpoll.c
printf '0001-np.patch\n' >"$tmp/np/series"
dry netpoll "$tmp/np"
t $([ $rc = 0 ] && grep -qx '  run  netpoll-ipv4: reached: netpoll' "$out" &&
	grep -q '^  skip ipv4-ksock: not reached: the series touches only netpoll (net/core/bpf_netpoll.c); it needs ksock' "$out" && echo 0) \
	"netpoll: a patch directory: netpoll-ipv4 runs, ipv4-ksock not reached"

patch "$tmp/socket.mbx" net/core/bpf_ksock.c net/socket.c
dry unmapped "$tmp/socket.mbx"
t $([ $rc = 0 ] && grep -q '^reach: every test runs ([0-9]*): net/socket\.c: no rule of .*review/reach\.map maps this path$' "$out" &&
	! grep -q '^  skip ' "$out" && grep -qx '  run  netpoll-ipv4: every test runs' "$out" && echo 0) \
	"unmapped: net/socket.c runs every test, and says why"

dry all --all "$tmp/ksock.mbx"
t $([ $rc = 0 ] && grep -q '^reach: every test runs ([0-9]*): --all$' "$out" && ! grep -q '^  skip ' "$out" && echo 0) \
	"all: --all runs every test"

dry tests --tests netpoll-ipv4,ipv4-ksock "$tmp/ksock.mbx"
t $([ $rc = 0 ] && grep -q '^reach: every test runs (2): --tests names them$' "$out" &&
	grep -qx '  run  netpoll-ipv4: named by --tests' "$out" && echo 0) \
	"tests: --tests runs what it names"

dry tests-all --all --tests netpoll-ipv4 "$tmp/ksock.mbx"
t $([ $rc = 0 ] && grep -q '^reach: every test runs (1): --tests names them$' "$out" && echo 0) \
	"tests: with --all too, --tests decides and is named"

t $([ -z "$(ls -A "$tmp/root")" ] && echo 0) "nothing: the dry runs left no file"
tap_done
