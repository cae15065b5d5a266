#!/bin/sh
# The agent-guest test's splat check (bpf/tests/run_guest.sh) catches a
# WARNING however the console looks: its guest's command line ends with
# ignore_loglevel, and the script's check, fed through a stand-in QEMU that
# prints a finished guest's console, fails on a WARNING behind leading NULs
# (a truncated console) and on an empty console. bpfwire-splat itself:
# exit 1 on a splat, 2 on an empty or missing console, 0 on a clean one.
# Usage: test-splat-agent.sh BPFWIRE_SPLAT RUN_GUEST_SH BPFWIRE_LAB
splat=$1 run_guest=$2 lab=$3
. "$(dirname "$0")/tap.sh"
tap_tmpdir
line='WARNING: bpfwire test splat'

printf '\0\0\0\0\0\0\0\0[    1.000000] %s\n' "$line" > "$tmp/nul-warn.log"
: > "$tmp/empty.log"
printf '[    0.000000] Linux version 6.12\nBPFWIRE-GUEST-DONE failed=0\n' > "$tmp/clean.log"

"$splat" "$tmp/nul-warn.log" > "$tmp/out" 2>&1; st=$?
[ "$st" = 1 ]; t $? "bpfwire-splat: WARNING after leading NULs exits 1 (got $st)"
grep -q "$line" "$tmp/out"; t $? "bpfwire-splat: quotes the line"
"$splat" "$tmp/empty.log" > /dev/null 2>&1; st=$?
[ "$st" = 2 ]; t $? "bpfwire-splat: an empty console exits 2 (got $st)"
"$splat" "$tmp/missing.log" > /dev/null 2>&1; st=$?
[ "$st" = 2 ]; t $? "bpfwire-splat: a missing console exits 2 (got $st)"
"$splat" "$tmp/clean.log" > /dev/null 2>&1; st=$?
[ "$st" = 0 ]; t $? "bpfwire-splat: a clean console exits 0 (got $st)"

# A stand-in qemu-system-x86_64 on PATH: records its -append and prints
# $CONSOLE as the guest's console, as the real one does with -nographic.
mkdir "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -append ] && printf '%s\n' "$2" > "$APPEND_OUT"; shift; done
cat "$CONSOLE"
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
touch "$tmp/bz" "$tmp/init"
# guest_console KIND: a finished guest's TAP, then KIND's console
guest_console() {
	{ printf 'ok 1 - sender\n1..1\n'; cat "$tmp/$1.log"; printf 'BPFWIRE-GUEST-DONE failed=0\n'; } \
		> "$tmp/guest-$1.log"
	PATH=$tmp/bin:$PATH CONSOLE=$tmp/guest-$1.log APPEND_OUT=$tmp/append \
		bash "$run_guest" "$tmp/bz" "$splat" "$lab" "$tmp/init" BW_X=1 > "$tmp/rg-$1.out" 2>&1
}
guest_console nul-warn; st=$?
[ "$st" = 1 ]; t $? "run_guest.sh: a WARNING behind NULs on the console fails it (got $st)"
grep -q "$line" "$tmp/rg-nul-warn.out"; t $? "run_guest.sh: its output quotes the line"
case " $(cat "$tmp/append" 2>/dev/null)" in
*" ignore_loglevel") st=0 ;;
*) st=1 ;;
esac
t $st "run_guest.sh: the guest's command line ends with ignore_loglevel"
grep -qw quiet "$tmp/append" 2>/dev/null; [ $? != 0 ]
t $? "run_guest.sh: the guest's command line has no quiet"
guest_console clean; st=$?
[ "$st" = 0 ]; t $? "run_guest.sh: a clean console passes (got $st)"
[ $fail = 0 ] || sed 's/^/#   /' "$tmp"/rg-*.out
tap_done
