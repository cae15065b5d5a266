#!/bin/sh
# bpfwire-lab check: a bad topology exits 2 with "file:line: what" on stderr,
# good ones exit 0. Usage: test-cli-check.sh BPFWIRE_LAB BAD.topo GOOD.topo...
lab=$1 bad=$2
. "$(dirname "$0")/tap.sh"
shift 2

err=$("$lab" check "$bad" 2>&1 >/dev/null); st=$?
[ "$st" = 2 ]; t $? "check $bad exits 2 (got $st)"
want="$bad:6: bad NIC model 'rtl8139' (expected virtio-net, e1000 or e1000e)"
case "$err" in *"$want"*) t 0 "error names file:line";; *) echo "# got: $err"; t 1 "error names file:line";; esac
"$lab" check /nonexistent.topo 2>/dev/null; st=$?
[ "$st" = 2 ]; t $? "missing topology exits 2 (got $st)"
for f; do
	"$lab" check "$f" >/dev/null; st=$?
	[ "$st" = 0 ]; t $? "check $f exits 0 (got $st)"
done
tap_done
