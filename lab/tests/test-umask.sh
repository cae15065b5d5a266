#!/bin/sh
# The lab works whatever root's umask, and with a results dir of mode 0700:
# tests/share/plain (one lone boot that reads the checkout and writes its
# share) passes under `umask 077`, and with --results "$(mktemp -d)". A
# file of the build tree that guests cannot read (0700, as a build under
# umask 077 leaves it) stops `run` before boot with one line naming it.
# Needs root and a kernel. Usage: test-umask.sh BPFWIRE_LAB SCENARIO_DIR BPFWIRE_LOCK
lab=$1 dir=$2 locker=$3
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir
unread=$BPFWIRE_BUILD_ROOT/lab/umask-test-0700
trap 'rm -rf "$tmp" "$unread" "$made"' EXIT

# run_case NAME UMASK [RUN OPTIONS]: the scenario passes with root's umask UMASK
run_case() {
	name=$1 mask=$2
	shift 2
	(umask "$mask" && exec "$locker" guest "$lab" run --no-capture "$@" "$dir/plain") \
		> "$tmp/$name.log" 2>&1
	st=$?
	[ "$st" = 0 ]; t $? "$name: plain passes (exit $st): $(grep -E '^plain: ' "$tmp/$name.log" | head -c 300)"
	[ $st = 0 ] || sed 's/^/#   /' "$tmp/$name.log" | tail -30
}

echo "# umask 077: the lab's dirs, the guest root view and setup.sh must still be readable to QEMU's uid"
run_case umask-077 077 --results "$tmp/u077"
made=$(mktemp -d)
echo "# --results $made, mode $(stat -c %a "$made") (mktemp -d)"
run_case mktemp-results 022 --results "$made"
[ -f "$made/hosts/lone/ok.json" ]; t $? "the guest's report is in $made"

printf '#!/bin/sh\necho {}\n' > "$unread"
chmod 0700 "$unread"
cat > "$tmp/unreadable" <<'SCN'
summary a build file guests cannot read
topology lone
exec lone -- ${BUILD}/lab/umask-test-0700 > ${SHARE}/x.json
report x lone x.json
check x.n == 1
SCN
"$lab" run --no-capture --results "$tmp/unread-run" "$tmp/unreadable" > "$tmp/unread.log" 2>&1
st=$?
echo "# $(cat "$tmp/unread.log")"
[ "$st" = 1 ] && [ "$(wc -l < "$tmp/unread.log")" = 1 ] && grep -q "umask-test-0700 is mode 0700: .*chmod o+rx" "$tmp/unread.log"
t $? "a 0700 file of the build tree is refused in one line naming it (exit $st)"
[ ! -e "$tmp/unread-run" ]; t $? "before anything was laid out or booted"
tap_done
