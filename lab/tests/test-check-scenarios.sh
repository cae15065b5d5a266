#!/bin/sh
# bpfwire-lab check on every shipped scenario (and TEMPLATE): each must lint
# clean, exit 0 with "PATH: ok, ...". Nothing boots.
# Usage: test-check-scenarios.sh BPFWIRE_LAB SCENARIO...
lab=$1
. "$(dirname "$0")/tap.sh"
shift
count=0
for f; do
	out=$("$lab" check "$f" 2>&1); st=$?
	case "$st:$out" in
	"0:$f: ok, "*) t 0 "check $(basename "$f"): ${out#"$f: "}" ;;
	*) echo "$out" | sed 's/^/# /'; t 1 "check $(basename "$f") exits 0 with ok (got $st)" ;;
	esac
	count=$((count + 1))
done
[ "$count" -gt 0 ]; t $? "some scenarios to check"
echo "# checked $count scenarios"
tap_done
