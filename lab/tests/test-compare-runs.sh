#!/bin/sh
# The acceptance test of `bpfwire-lab compare`, in suite scenarios after
# SCENARIO and SCENARIO@upstream (meson priority -1): their newest runs in
# ./results (the build root, meson's workdir), one on each kernel, must
# differ in a verdict and exit 1; one more seed run of SCENARIO, made here,
# against the suite's must exit 0. A run older than BPFWIRE_LAB is stale and
# made again here; so is a missing one (the test run alone).
# Usage: test-compare-runs.sh BPFWIRE_LAB SCENARIO
lab=$1 scn=$2
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_tmpdir
results=$PWD/results

# The newest run of $scn on series $1 that is newer than the lab binary.
newest() {
	for d in $(ls -dt "$results/$scn"-* 2>/dev/null); do
		[ "$d/summary.txt" -nt "$lab" ] || return 1
		grep -q "^kernel .*, series $1\$" "$d/summary.txt" && { echo "$d"; return 0; }
	done
	return 1
}
# Run $scn (extra args: $@); its run dir on stdout, its output in $tmp/run.log.
run() {
	"$lab" run "$@" "$scn" > "$tmp/run.log" 2>&1
	st=$?
	sed -n 's/^traces: \([^ ]*\) .*/\1/p' "$tmp/run.log"
	return $st
}

seed=$(newest seed) || { echo "# no fresh seed run of $scn: running it"; seed=$(run); }
up=$(newest upstream) || {
	echo "# no fresh upstream run of $scn: running it"
	up=$(run --kernel-series upstream); st=$?
	[ "$st" = 77 ] && { echo "1..0 # SKIP no upstream kernel: $(tail -1 "$tmp/run.log")"; exit 0; }
}
for d in "$seed" "$up"; do
	[ -n "$d" ] && grep -q "^$scn: PASS" "$d/summary.txt"; t $? "the run $(basename "${d:-none}") passed"
done

out=$("$lab" compare "$seed" "$up"); st=$?
echo "$out" | sed 's/^/# /'
[ "$st" = 1 ]; t $? "compare on seed and upstream runs exits 1 (got $st)"
echo "$out" | grep -q '^\* kernel_series .* seed .* upstream$'; t $? "the kernel series marked as changed"
# the kernel suite's quota case is named for what the kernel did
echo "$out" | grep -q '^< .* tap .*seed -> ENOSPC at the third'; t $? "seed's ENOSPC test shown as A's alone"
echo "$out" | grep -q '^> .* tap .*upstream -> all 64'; t $? "upstream's 64-of-64 test shown as B's alone"
echo "$out" | grep -q '^  [0-9]* *check .*rx.valid == 10'; t $? "the checks listed, unchanged"

start=$(date +%s)
same=$(run); st=$?
echo "# one more seed run of $scn: $(($(date +%s) - start)) s, $(basename "$same"), exit $st"
[ "$st" = 0 ] && [ -n "$same" ] && [ "$same" != "$seed" ]; t $? "a second seed run passed"
out=$("$lab" compare "$seed" "$same"); st=$?
[ "$st" = 0 ]; t $? "compare on two seed runs exits 0 (got $st)"
echo "$out" | tail -1 | grep -q '^SAME VERDICTS: 0 verdicts changed'; t $? "and says so: $(echo "$out" | tail -1)"
tap_done
