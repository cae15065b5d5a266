#!/bin/sh
# bpfwire-lab run: a scenario the parser refuses exits 2 with "file:line: what"
# before anything boots (no results directory, no root needed); one whose
# `series` does not list the kernel's exits 77; a bzImage whose release is
# no release (a newline, an escape) is named invalid, its bytes never shown.
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
# The kernel series, checked before boot. A fake bzImage: the
# setup header's "HdrS" (0x202) and version pointer (0x20e -> 0x300).
fakebz() {
	head -c 1024 /dev/zero > "$1"
	printf 'HdrS' | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null
	printf '%s (t@t) #1 SMP\000' "$2" | dd of="$1" bs=1 seek=768 conv=notrunc 2>/dev/null
}
fakebz "$tmp/up.bz" 6.12.118-bpfwire-up
printf 'summary s\ntopology lone\nseries seed\nreport rx lone rx.json\n' > "$tmp/seedonly"
err=$("$lab" run --results "$tmp/r-na" --kernel "$tmp/up.bz" "$tmp/seedonly" 2>&1 >/dev/null); st=$?
[ "$st" = 77 ]; t $? "series seed on a -bpfwire-up kernel: exits 77 (got $st)"
case "$err" in
*"applies to series 'seed' only; kernel 6.12.118-bpfwire-up is the upstream series"*) t 0 "series mismatch: stderr names both series and the release" ;;
*) echo "# got: $err"; t 1 "series mismatch: stderr names both series and the release" ;;
esac
[ ! -e "$tmp/r-na" ]; t $? "series mismatch: nothing was laid out"
# A series' bzImage whose release is a newline, a line of its own and an
# ANSI clear: the terminal names it invalid and never gets its bytes.
esc=$(printf '\033')
forged=$(printf '6.12.0\nverdict:OK\033[2J')
printf '# release tried: %s (%s bytes)\n' '6.12.0\nverdict:OK\x1b[2J' "${#forged}"
fakebz "$tmp/forged.bz" "$forged"
printf 'summary s\ntopology lone\nseries seed\nexec lone -- echo {} > ${SHARE}/rx.json\nreport rx lone rx.json\n' \
	> "$tmp/seedwrites"
"$lab" run --dry-run --kernel "$tmp/forged.bz" "$tmp/seedwrites" >"$tmp/forged.out" 2>&1; st=$?
sed 's/^/# /' "$tmp/forged.out" | tr -d '\033'
[ "$st" = 0 ]; t $? "forged release: the dry run goes on (got $st)"
! grep -q "$esc" "$tmp/forged.out"; t $? "forged release: no ESC on the terminal"
! grep -q '^verdict:' "$tmp/forged.out"; t $? "forged release: no line of its making"
grep -qF "kernel release invalid (${#forged} bytes) is no bpfwire series" "$tmp/forged.out"
t $? "forged release: named 'invalid (${#forged} bytes)'"
head -c 1024 /dev/zero > "$tmp/zero.bz"
err=$("$lab" run --results "$tmp/r-bz" --kernel "$tmp/zero.bz" "$tmp/seedonly" 2>&1 >/dev/null); st=$?
[ "$st" = 2 ]; t $? "a file without a setup header: exits 2 (got $st)"
case "$err" in *"not a bzImage"*) t 0 "no setup header: stderr says not a bzImage" ;;
*) echo "# got: $err"; t 1 "no setup header: stderr says not a bzImage" ;; esac
"$lab" run --kernel-series mainline "$tmp/seedonly" >/dev/null 2>&1; st=$?
[ "$st" = 2 ]; t $? "--kernel-series mainline: exits 2 (got $st)"
"$lab" run --kernel "$tmp/up.bz" --kernel-series upstream "$tmp/seedonly" >/dev/null 2>&1; st=$?
[ "$st" = 2 ]; t $? "--kernel with --kernel-series: exits 2 (got $st)"
tap_done
