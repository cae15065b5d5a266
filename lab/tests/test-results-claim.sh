#!/bin/sh
# A local user who makes a run's results dir first, with
# links where root writes (consoles/HOST.log, which QEMU opens; splats.txt),
# gets no root write through them. As that user would: `up --results` into
# their dir, and `bench-boot` whose old name /tmp/bpfwire-bench-PID-1 they
# can predict (here: the PID of the shell that execs it). The kernel is not
# one, so QEMU starts, opens its console and ends: nothing boots.
# Every dir above RUN is checked too (StrictModes): under a dir of nobody's,
# or one of mode 0777 without the sticky bit, `up` refuses in one line.
# Usage: test-results-claim.sh BPFWIRE_LAB
lab=$1
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_tmpdir
command -v qemu-system-x86_64 > /dev/null || { echo "1..0 # SKIP no qemu-system-x86_64"; exit 0; }

echo 'not a kernel' > "$tmp/bzImage"
echo precious > "$tmp/victim"
echo precious > "$tmp/victim2"
# DIR as another user leaves it: theirs, links to the victims where the lab writes
plant() {
	mkdir -p "$1/consoles"
	ln -s "$tmp/victim" "$1/consoles/lone.log"
	ln -s "$tmp/victim2" "$1/splats.txt"
	chown -R nobody "$1"
}
untouched() { [ "$(cat "$tmp/victim")" = precious ] && [ "$(cat "$tmp/victim2")" = precious ]; }

plant "$tmp/theirs"
"$lab" up --results "$tmp/theirs" --kernel "$tmp/bzImage" --accel tcg --timeout 10 --no-capture -q \
	--run q32claim lone > "$tmp/up.log" 2>&1
st=$?
[ $st = 2 ] && grep -q 'refused' "$tmp/up.log"; t $? "up --results into another user's dir is refused (status $st)"
untouched; t $? "the files behind its links are untouched"
"$lab" down --run q32claim > /dev/null 2>&1

# A parent another user can write lets them swap RUN: refused in one line
# before anything is laid out, whoever made RUN itself.
mkdir -p "$tmp/nobodys" "$tmp/open"
chown nobody "$tmp/nobodys"
chmod 0777 "$tmp/open"
for p in nobodys open; do
	"$lab" up --results "$tmp/$p/run" --kernel "$tmp/bzImage" --accel tcg --timeout 10 --no-capture -q \
		--run q32parent lone > "$tmp/parent.log" 2>&1
	st=$?
	"$lab" down --run q32parent > /dev/null 2>&1
	case $p in nobodys) want='is owned by uid' ;; open) want='is mode 0777' ;; esac
	[ $st = 2 ] && [ "$(wc -l < "$tmp/parent.log")" = 1 ] && grep -q "refused: its parent $tmp/$p $want" "$tmp/parent.log"
	t $? "up --results $tmp/$p/run (parent $p) is refused in one line (status $st: $(head -c 200 "$tmp/parent.log"))"
	[ ! -e "$tmp/$p/run/consoles" ]; t $? "nothing laid out under $tmp/$p/run"
done

# bench-boot: the dir its old code named after its own PID, planted first
rm -f "$tmp/bench.pid"
sh -c 'd=/tmp/bpfwire-bench-$$-1; echo "$d" > "$0/bench.pid"; mkdir -p "$d/consoles";
	ln -s "$0/victim" "$d/consoles/lone.log"; ln -s "$0/victim2" "$d/splats.txt"; chown -R nobody "$d";
	exec "$1" bench-boot --kernel "$0/bzImage" --accel tcg --timeout 10 --no-capture lone' \
	"$tmp" "$lab" > "$tmp/bench.log" 2>&1
st=$?
planted=$(cat "$tmp/bench.pid")
untouched; t $? "bench-boot wrote nothing through the links in $planted (status $st)"
used=$(sed -n 's/^run .*, results \(.*\)$/\1/p' "$tmp/bench.log" | head -1)
[ -n "$used" ] && [ "$used" != "$planted" ] && [ "$(stat -c %u "$used")" = 0 ]
t $? "bench-boot used a fresh dir of root's (${used:-none}), not $planted"
case $used in /tmp/bpfwire-bench-??????) rm -rf "$used" ;; esac
rm -rf "$planted"

[ $fail = 0 ] && [ -z "$Q32_DEBUG" ] || { echo "# logs:"; sed 's/^/#   /' "$tmp/up.log" "$tmp/bench.log" | head -40; }
tap_done
