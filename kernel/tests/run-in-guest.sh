#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel suite's meson test: boot one guest of topology/lone.topo with
# bpfwire-lab, run kernel-tests in it, relay its TAP, then tear the guest
# down and add cases of our own: the booted kernel, kernel-tests' exit
# status, and the lab's console scan (bpfwire-lab down exits 1 on a splat;
# this script greps no pattern itself). Zero cases from kernel-tests fail.
#
#   run-in-guest.sh BPFWIRE_LAB KERNEL_TESTS TOPOLOGY BZIMAGE [FILTER]
#
# KERNEL_TESTS may be another TAP program run the same way (the selftests
# case runs bpfwire-selftests-run, FILTER its options); the cases name it.
# @HOSTDIR@ in FILTER becomes the guest's writable results share
# (RESULTS/hosts/HOST, the same path in the guest as on the host).
#
# KERNEL_RELEASE_SUFFIX (default -bpfwire; -bpfwire-seed for the seed-only
# kernel, -bpfwire-up for the upstream one) is the release the guest must
# boot (-kasan-bpfwire... for the KASAN flavour); KERNEL_BOOT_TIMEOUT
# (default 60, the lab's) the seconds the guest has to come up; the
# topology's `cpus` (default 1) the number of CPUs it must have online.
#
# Pessimistic: the status is a failure until every step has passed, and
# the guest is torn down on every exit path: EXIT/INT/TERM/HUP traps, and
# a guard in a session of its own for a SIGKILL (meson test sends one 0.5 s
# after its SIGTERM, to our whole process group, `down` included).
set -u

lab=$1 kt=$(realpath "$2") topo=$3 kernel=$4 filter=${5:-}
what=$(basename "$kt")
suffix=${KERNEL_RELEASE_SUFFIX:--bpfwire}
boot_timeout=${KERNEL_BOOT_TIMEOUT:-60}
cpus=$(sed -n 's/^[[:space:]]*cpus[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$topo" 2>/dev/null | head -1)
cpus=${cpus:-1}
build=${BPFWIRE_BUILD_ROOT:-$(pwd)}
stamp=$(date +%Y%m%d-%H%M%S)
run="kernel-$$"
results="$build/results/kernel-suite-$stamp-$$"	# two runs in one second: two dirs
export BPFWIRE_RUN="$run"
up=0 status=1

if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP the kernel suite boots a guest and needs root"
	exit 0
fi
for f in "$kt" "$kernel" "$topo"; do
	if [ ! -e "$f" ]; then
		echo "Bail out! missing $f"
		exit 1
	fi
done

# Scratch files in a dir of root's own (mktemp -d: 0700, a name no one
# knows first): files beside a name in /tmp are anyone's to make first.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/kernel-suite.XXXXXX") || { echo "Bail out! mktemp -d failed"; exit 1; }
out=$scratch/out

teardown() {
	trap - EXIT INT TERM HUP
	if [ "$up" = 1 ]; then
		up=0
		"$lab" down --run "$run" >"$scratch/down" 2>&1
		echo $? >"$scratch/downrc"
	fi
	: >"$scratch/done"	# the guard's cue: the run is down, or was never up
}

# The guard outlives a SIGKILL of this shell (setsid: not in our process
# group). It waits for this shell (pid and start time, so not a reused pid)
# to end, then downs the run unless teardown() said it is done. While `up`
# runs, the lab's own reaper covers a kill; a second `down` is harmless.
me=$(cut -d' ' -f22 /proc/$$/stat)
setsid sh -c 'while [ "$(cut -d" " -f22 /proc/$1/stat 2>/dev/null)" = "$2" ]; do sleep 1; done
	[ -e "$3/done" ] || "$4" down --run "$5"; rm -rf "$3"' \
	guard $$ "$me" "$scratch" "$lab" "$run" </dev/null >/dev/null 2>&1 &
trap 'teardown; rm -f "$out" "$scratch/down" "$scratch/downrc"; exit $status' EXIT
trap 'status=130; exit 130' INT
trap 'status=143; exit 143' TERM
trap 'status=129; exit 129' HUP

echo "# booting $topo ($kernel) as run $run, results in $results"
up=1
if ! "$lab" up -q --run "$run" --results "$results" --accel tcg \
		--timeout "$boot_timeout" --kernel "$kernel" "$topo" >"$out" 2>&1; then
	up=0
	sed 's/^/# /' "$out"
	echo "Bail out! bpfwire-lab up failed (see $results)"
	exit 1
fi
host=$(sed -n 's/^host[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$topo" | head -1)
filter=$(printf '%s' "$filter" | sed "s|@HOSTDIR@|$results/hosts/$host|g")

# Read before kernel-tests changes it: the default the series documents.
boot=$("$lab" exec --run "$run" "$host" -- /bin/sh -c \
	'echo "$(cat /proc/sys/net/core/bpf_ksock_max 2>/dev/null || echo none) $(uname -r)"' 2>&1)
online=$("$lab" exec --run "$run" "$host" -- /bin/sh -c 'getconf _NPROCESSORS_ONLN' 2>&1)
"$lab" exec --run "$run" --timeout 800 "$host" -- "$kt" $filter >"$out" 2>&1
rc=$?
teardown
downrc=$(cat "$scratch/downrc" 2>/dev/null || echo 1)

# Relay everything but kernel-tests' own plan; ours comes last.
grep -v '^1\.\.[0-9]' "$out"
n=$(grep -c -E '^(not )?ok [0-9]+' "$out")
# A "# TODO" case (known kernel bug) fails only if it unexpectedly passes.
failed=$(grep -E '^(not )?ok [0-9]+' "$out" | awk '
	/# TODO/ { if ($1 == "ok") n++; next }
	$1 == "not" { n++ }
	END { print n + 0 }')

# No case at all (a FILTER that matches nothing) is a failure, not a pass.
if [ "$n" -eq 0 ]; then
	n=1
	echo "not ok $n - guest: $what ran no case${filter:+ (FILTER '$filter')}"
	failed=$((failed + 1))
fi

n=$((n + 1))
# The upstream flavour has no quota sysctl at all.
quota=1024
case "$suffix" in *-bpfwire-up) quota=none ;; esac
# A reviewed series' kernel (-bpfwire-NAME): its BTF's API says it (api.json).
case "$(jq -r '.ksock // empty' "$(dirname "$kernel")/api.json" 2>/dev/null)" in
upstream) quota=none ;;
seed) quota=1024 ;;
unknown|absent) quota= ;;
esac
# no API to expect a quota of: only the release is checked
[ -n "$quota" ] || quota=${boot%% *}
case "$boot" in
"$quota "*"$suffix") echo "ok $n - guest: boots $boot (net.core.bpf_ksock_max, release)" ;;
*) echo "not ok $n - guest: expected bpf_ksock_max $quota and a $suffix release, got '$boot'"
   failed=$((failed + 1)) ;;
esac
n=$((n + 1))
if [ "$online" = "$cpus" ]; then
	echo "ok $n - guest: $online CPUs online (topology: cpus $cpus)"
else
	echo "not ok $n - guest: expected $cpus CPUs online (topology), got '$online'"
	failed=$((failed + 1))
fi
n=$((n + 1))
if [ "$rc" -eq 0 ]; then
	echo "ok $n - guest: $what exited 0"
else
	echo "not ok $n - guest: $what exited $rc"
	failed=$((failed + 1))
fi
n=$((n + 1))
if [ "$downrc" -eq 0 ]; then
	echo "ok $n - guest: console has no splat (bpfwire-lab down)"
else
	sed 's/^/# /' "$scratch/down"
	[ -f "$results/splats.txt" ] && sed 's/^/# /' "$results/splats.txt"
	echo "not ok $n - guest: console has no splat (bpfwire-lab down exited $downrc)"
	failed=$((failed + 1))
fi
echo "1..$n"
[ "$failed" -eq 0 ] && status=0
exit $status
