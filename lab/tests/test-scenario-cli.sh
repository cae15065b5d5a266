#!/bin/sh
# bpfwire-lab run: a scenario the parser refuses exits 2 with "file:line: what"
# before anything boots (no results directory, no root needed).
# Usage: test-scenario-cli.sh BPFWIRE_LAB
lab=$1
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# refused NAME LINE WANT TEXT: run it, expect exit 2, FILE:LINE: WANT, no results
refused() {
	f=$tmp/$1
	printf '%b' "$4" > "$f"
	err=$("$lab" run --results "$tmp/results-$1" "$f" 2>&1 >/dev/null); st=$?
	[ "$st" = 2 ]; t $? "$1: exits 2 (got $st)"
	case "$err" in
	*"$f:$2: $3"*) t 0 "$1: stderr names $1:$2: $3" ;;
	*) echo "# got: $err"; t 1 "$1: stderr names $1:$2: $3" ;;
	esac
	[ ! -e "$tmp/results-$1" ]; t $? "$1: nothing was laid out"
}

refused unknown-var 3 'unknown variable ${NOPE}' \
	'summary s\ntopology lone\nexec lone -- echo ${NOPE}\nreport rx lone rx.json\n'
refused spawn-id-var 4 'unknown variable ${rx}' \
	'summary s\ntopology lone\nspawn rx lone -- sleep 1\nexec lone -- kill ${rx}\nreport rx lone rx.json\n'
refused no-judge 1 "no 'check' or 'report'" \
	'summary s\ntopology lone\nexec lone -- true\n'
refused nul-byte 3 'a NUL byte' \
	'summary s\ntopology lone\nexec lone -- true\0\nreport rx lone rx.json\n'
tap_done
