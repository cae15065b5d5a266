#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ./run tests --kernels all's schedule, on a copy of run with a fake meson
# (it records each call; `compile` of build-72 and build-73 takes 2 s) and
# a fake install-deps: 6.12's kernels first; the later ones at idle
# priority beside 6.12's tests; each version's kernel suite once its build
# is ready, 7.2's posted reviews after 7.2's kernel suite; every scenario
# run after every build, once per API on the newest kernel of that API
# (--logbase scenarios); 6.12 keeps the demo's and the quota comparison.
#
#   test-run-kernels.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-run-kernels.sh SOURCE_ROOT"; exit 1; }
root=$(realpath "$1")
for v in 7.2 7.3; do
	[ -f "/usr/src/linux-source-$v.tar.xz" ] ||
		{ echo "1..0 # SKIP linux-source-$v is not installed (tools/install-sources)"; exit 0; }
done
command -v jq >/dev/null || { echo "1..0 # SKIP jq is missing"; exit 0; }
tap_tmpdir
r=$tmp/repo
mkdir -p "$r/tools" "$r/kernel/patches/7.2" "$tmp/bin"
cp "$root/run" "$r/run"
cp "$root/kernel/source-versions" "$r/kernel/"
: >"$r/kernel/patches/7.2/series"
printf '#!/bin/sh\nexit 0\n' >"$r/tools/install-deps"
chmod 755 "$r/tools/install-deps" "$r"
# every kernel tree there already: run's disk check asks for none
for d in build build-up build-72 build-73 build-review-review-suite build-review-posted-ksock \
	build-review-posted-netpoll; do mkdir -p "$r/$d/kernel/src/.git"; done

# The fake meson: tests by build directory, as JSON for introspect.
cat >"$tmp/bin/meson" <<'EOF'
#!/bin/bash
log=$FAKE_LOG
case $1 in
setup) mkdir -p "$2/meson-logs" && : >"$2/build.ninja"; echo "setup $2" >>"$log" ;;
compile)
	d=$3
	prio=$(chrt -p $$ | sed -n 's/.*policy: //p' | head -1)
	echo "compile-start $d $prio" >>"$log"
	case $d in build-7*) sleep 2 ;; esac
	echo "compile-end $d" >>"$log" ;;
introspect)
	d=$2
	{
		echo "kernel-suite kernel"; echo "agent-guest kernel"
		case $d in
		build)
			echo "unit-a unit"
			for s in agent-killed ipv4-ksock link-flap quota-gone ipv4-ksock@upstream \
				quota-gone@upstream compare-quota-gone page-browser; do echo "$s scenarios"; done
			echo "review-series review"; echo "review-posted-ksock review-posted" ;;
		build-7*) for s in agent-killed ipv4-ksock link-flap quota-gone; do echo "$s scenarios"; done ;;
		esac
	} | jq -Rn '[inputs | split(" ") | {name: .[0], suite: ["bpfwire:" + .[1]]}]'
	;;
test)
	shift
	d= base=testlog suites= names=
	while [ $# -gt 0 ]; do
		case $1 in
		-C) d=$2; shift ;;
		--logbase) base=$2; shift ;;
		--suite) suites+=" $2"; shift ;;
		--*) ;;
		*) names+=" $1" ;;
		esac
		shift
	done
	echo "test $d $base${suites:+ suites$suites}${names:+ names$names}" >>"$log"
	;;
*) echo "meson $*" >>"$log" ;;
esac
exit 0
EOF
chmod 755 "$tmp/bin/meson"

out=$(cd "$r" && FAKE_LOG=$tmp/log PATH=$tmp/bin:$PATH timeout 120 ./run tests --kernels all 2>&1)
rc=$?
sed 's/^/# log: /' "$tmp/log"
[ $rc = 0 ] && grep -q '^run: tests passed' <<<"$out"
t $? "exit 0 and 'tests passed' (got $rc)"

# line N of the log that matches the pattern (the first), or 999
at() { local n; n=$(grep -n -m1 -- "$1" "$tmp/log" | cut -d: -f1); echo "${n:-999}"; }
[ "$(at '^compile-end build$')" -lt "$(at '^compile-start build-up ')" ] &&
	[ "$(at '^compile-end build-up$')" -lt "$(at '^compile-start build-72 ')" ]
t $? "6.12's two kernels first, then the later ones"
grep -q '^compile-start build-72 SCHED_IDLE' "$tmp/log" && grep -q '^compile-start build-73 SCHED_IDLE' "$tmp/log"
t $? "7.2 and 7.3 build at idle priority (SCHED_IDLE)"
[ "$(at '^test build testlog names')" -lt "$(at '^compile-end build-72$')" ]
t $? "6.12's tests start while 7.2's kernel builds"
l612=$(grep -m1 '^test build testlog names' "$tmp/log")
[[ "$l612 " == *" unit-a "* && "$l612 " == *" kernel-suite "* && "$l612 " == *" agent-killed "* &&
	"$l612 " == *" quota-gone@upstream "* && "$l612 " == *" compare-quota-gone "* &&
	"$l612 " != *" link-flap "* && "$l612 " != *" ipv4-ksock "* &&
	"$l612 " != *" ipv4-ksock@upstream "* && "$l612 " != *" agent-guest "* &&
	"$l612 " != *" review-series "* ]]
t $? "6.12 keeps agent-killed and the quota comparison; link-flap, ipv4-ksock (both APIs) and agent-guest go to 7.x"
grep -qx 'test build-up testlog names kernel-suite' "$tmp/log"
t $? "build-up's kernel suite without agent-guest (7.3 answers it)"
[ "$(at '^test build testlog suites review$')" -lt "$(at '^test build-72 testlog')" ]
t $? "the review suite before 7.2's tests"
[ "$(at '^compile-end build-72$')" -lt "$(at '^test build-72 testlog names kernel-suite agent-guest$')" ] &&
	[ "$(at '^test build-72 testlog')" -lt "$(at '^test build testlog suites review-posted$')" ]
t $? "7.2's kernel suite once 7.2 is built, the posted series' reviews after it"
[ "$(at '^compile-end build-73$')" -lt "$(at '^test build-73 testlog names kernel-suite agent-guest$')" ]
t $? "7.3's kernel suite once 7.3 is built"
s72=$(at '^test build-72 scenarios names agent-killed ipv4-ksock link-flap quota-gone$')
s73=$(at '^test build-73 scenarios names ipv4-ksock quota-gone$')
[ "$s72" -gt "$(at '^compile-end build-73$')" ] && [ "$s72" -gt "$(at '^test build testlog suites review-posted$')" ] &&
	[ "$s73" -gt "$s72" ] && [ "$s73" != 999 ]
t $? "the scenarios after every build: 7.2 every one, 7.3 those where the APIs differ, into --logbase scenarios"
tap_done
