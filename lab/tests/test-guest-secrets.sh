#!/bin/sh
# One boot of lone:
#  - guest root reads files of the trees the lab exports that only root may
#    read: a 0600 file in the results tree RUN and one in the build tree, and
#    a 0644 file in a 0700 dir there. It must get none of them (QEMU reads
#    for it as a user of no rights, -runas), yet it sees that they exist;
#  - the lab's files for people (qemu.cmdline, qemu.log, setup.sh) are in
#    RUN/guests/lone, not in the guest's share RUN/hosts/lone;
#  - QEMU ran with -sandbox, and what the guest wrote is owned by QEMU's
#    uid, not root: it dropped root, and the guest still booted.
# Needs root and a kernel; TAP skip otherwise.
# Usage: test-guest-secrets.sh BPFWIRE_LAB
lab=$1
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir

# RUN in the build tree, as meson's scenario runs have it: a kept tree even
# where guest-init covers /tmp
run=$BPFWIRE_BUILD_ROOT/q32-run.$$
share=$run/hosts/lone
mkdir -m 0755 "$run" "$run/private"
echo secret-run > "$run/secret"
echo secret-dir > "$run/private/open"
chmod 0600 "$run/secret"
chmod 0700 "$run/private"
chmod 0644 "$run/private/open"
bsecret=$BPFWIRE_BUILD_ROOT/q32-secret.$$
echo secret-build > "$bsecret"
chmod 0600 "$bsecret"
trap 'rm -rf "$tmp" "$bsecret" "$run"' EXIT
cat > "$tmp/secrets" <<EOF
summary guest root against 0600 files of the trees the lab exports
topology lone
timeout 240
exec lone -- for f in $run/secret $run/private/open $bsecret; do if test -e \$f; then echo seen; else echo unseen; fi; cat \$f 2>/dev/null | wc -c; done > \${SHARE}/read.txt; echo '{"n": 1}' > \${SHARE}/made.json
stats s lone made.json
check s.n == 1
EOF
"$lab" run --results "$run" --no-capture "$tmp/secrets" > "$tmp/run.log" 2>&1
echo "# bpfwire-lab run: status $?"
[ -s "$share/read.txt" ]; t $? "the guest booted and ran its step"
set -- $(cat "$share/read.txt" 2>/dev/null) x x x x x x
[ "$1" = seen ] && [ "$2" = 0 ]; t $? "guest root sees a 0600 file in RUN but reads nothing of it ($1, $2 bytes)"
[ "$4" = 0 ]; t $? "nor of a 0644 file in a 0700 dir in RUN ($3, $4 bytes)"
[ "$5" = seen ] && [ "$6" = 0 ]; t $? "nor of a 0600 file in the build tree ($5, $6 bytes)"

left=
for f in qemu.cmdline qemu.log setup.sh; do
	[ -e "$share/$f" ] && left="$left $f"
done
[ -z "$left" ]; t $? "no lab-written file in the guest's share RUN/hosts/lone${left:+:$left}"
[ -s "$run/guests/lone/qemu.cmdline" ] && [ -s "$run/guests/lone/setup.sh" ] && [ -e "$run/guests/lone/qemu.log" ]
t $? "they are in RUN/guests/lone"

grep -q -- "-sandbox" "$run/guests/lone/qemu.cmdline" 2>/dev/null &&
	grep -q "spawn=deny" "$run/guests/lone/qemu.cmdline"
t $? "QEMU ran with -sandbox ...,spawn=deny"
owner=$(stat -c %u "$share/made.json" 2>/dev/null)
[ -n "$owner" ] && [ "$owner" != 0 ]; t $? "what the guest made is owned by QEMU's uid ${owner:-?}, not root"

[ $fail = 0 ] || { echo "# run log:"; sed 's/^/#   /' "$tmp/run.log" "$run/summary.txt" 2>/dev/null | head -60; }
tap_done
