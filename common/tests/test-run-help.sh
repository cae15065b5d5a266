#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ./run CMD --help answers at once: the tool's own usage when it is built,
# run's usage and a line when it is not, and never an install, a meson
# setup or a kernel build. Fake apt-get, dpkg-query, meson and ninja first
# in PATH record any call; a call is a failure. ./run tests --kernels is
# checked the same way: its list before anything runs; and with the real
# build directory, which tests each kernel runs.
#
#   test-run-help.sh SOURCE_ROOT BUILD_DIR
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 2 ] || { echo "Bail out! usage: test-run-help.sh SOURCE_ROOT BUILD_DIR"; exit 1; }
root=$(realpath "$1") build=$(realpath "$2")
tap_tmpdir
mkdir "$tmp/bin"
for p in apt-get dpkg-query meson ninja; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/called"\nexit 1\n' "$p" "$tmp" >"$tmp/bin/$p"
	chmod 755 "$tmp/bin/$p"
done

# help BUILD CMD: run "./run CMD --help" with BPFWIRE_BUILD=BUILD; $out, $rc,
# $secs and $called (what the fakes recorded) after.
help() {
	local t0
	rm -f "$tmp/called"
	t0=$(date +%s%N)
	out=$(cd "$tmp" && BPFWIRE_BUILD=$1 PATH=$tmp/bin:$PATH timeout 60 "$root/run" $2 --help 2>&1)
	rc=$?
	secs=$(( ($(date +%s%N) - t0) / 1000000 ))
	# the first call and how many: an install makes about fifty
	called=
	[ ! -s "$tmp/called" ] || called="$(head -n 1 "$tmp/called") and $(($(wc -l <"$tmp/called") - 1)) more"
}

for cmd in demo tests bench review ""; do
	help "$tmp/nobuild" "$cmd"
	t "$([ $rc = 0 ] && grep -q '^  ./run demo' <<<"$out" && [ -z "$called" ] && echo 0)" \
		"no build: ./run ${cmd:+$cmd }--help prints run's usage in $secs ms, exit $rc, calling nothing${called:+ (called: $called)}"
done
for pair in "demo:usage: bpfwire-lab run" "review:usage: bpfwire-review" "bench:usage: bpfwire-bench"; do
	cmd=${pair%%:*} want=${pair#*:}
	help "$build" "$cmd"
	t "$([ $rc = 0 ] && grep -qF "$want" <<<"$out" && [ -z "$called" ] && echo 0)" \
		"built: ./run $cmd --help prints '$want' in $secs ms, exit $rc, calling nothing${called:+ (called: $called)}"
done
# ./run tests --kernels: the versions after 6.12, checked before anything runs.
runk() {
	rm -f "$tmp/called"
	out=$(cd "$tmp" && BPFWIRE_BUILD=$tmp/nobuild PATH=$tmp/bin:$PATH timeout 60 "$root/run" "$@" 2>&1)
	rc=$?
	called=
	[ ! -s "$tmp/called" ] || called=$(head -n 1 "$tmp/called")
}
runk tests --dry-run --kernels=all
t "$([ $rc = 0 ] && grep -q 'then Linux 7.2: meson setup build-72 -Dkernel_version=7.2,' <<<"$out" &&
	grep -q 'then Linux 7.3: meson setup build-73 -Dkernel_version=7.3 -Dkernel_series=upstream,' <<<"$out" &&
	grep -q 'then meson test -C .* --suite review-posted (the posted series on Linux 7.2)' <<<"$out" &&
	[ -z "$called" ] && echo 0)" "tests --dry-run --kernels=all: 7.2 the seed flavour in build-72, 7.3 upstream in build-73, then the posted series' reviews, calling nothing"
# With the real build: each scenario runs once per API, on the newest
# kernel of that API; 6.12 keeps the demo's and the quota comparison.
sel() { (cd "$tmp" && BPFWIRE_BUILD=$build timeout 120 "$root/run" tests --dry-run "$@" 2>&1 | grep "^run: dry run: .*'s tests: "); }
all=$(sel) more=$(sel --kernels all) up=$(sel --kernels 7.3)
echo "# --kernels all: $more"
t "$([[ $more == *"agent-guest out, scenarios: agent-killed quota-gone quota-gone@upstream compare-quota-gone page-browser "* ]] && echo 0)" \
	"tests --kernels all: 6.12 keeps agent-killed, quota-gone twice, its comparison and page-browser; agent-guest runs on 7.2"
t "$([[ $all == *"agent-guest in, "*" link-flap "*" ipv4-ksock@upstream "* ]] && [[ $up == *" link-flap "* ]] &&
	[[ $up != *"ipv4-ksock@upstream"* && $up == *"quota-gone@upstream"* ]] && echo 0)" \
	"tests: 6.12 alone runs every scenario; with 7.3 only its @upstream runs move (quota-gone@upstream stays for the comparison)"
runk tests --kernels 7.9
t "$([ $rc = 2 ] && grep -q "^run: --kernels: '7.9' is not a version kernel/source-versions lists" <<<"$out" &&
	[ -z "$called" ] && echo 0)" "tests --kernels 7.9: exit $rc, one line, nothing installed${called:+ (called: $called)}"
runk demo --kernels all
t "$([ $rc = 2 ] && grep -q "belongs to ./run tests" <<<"$out" && [ -z "$called" ] && echo 0)" \
	"demo --kernels all: exit $rc, it belongs to tests"
tap_done
