#!/bin/sh
# A guest cannot write to the host, nor read its secrets.
# One scenario on topology lone, in which guest root (each attempt on its
# own: the old lab's host may refuse mknod, the others still count):
#  - makes a setuid file, two device nodes and symlinks (to /etc/passwd, to
#    a host file and a host dir of this test) in its results share; the lab
#    then writes `tapstats` to the links' names;
#  - reads /etc/shadow and /root, and looks under its root's own mounts
#    (a bind of /) for the host's /proc, /root, /home and /etc/shadow;
#  - writes a JSON file that the host folds in with `stats` (reads still work),
#    and one whose name ends a host `sleep 100 until lone late.json`.
# On the host afterwards: no setuid file, device node or symlink in the
# results tree, the host file and dir are untouched, and the guest saw none
# of the secrets. Needs root and a kernel; TAP skip otherwise.
# Usage: test-guest-confinement.sh BPFWIRE_LAB
lab=$1
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir

echo precious > "$tmp/target"
mkdir "$tmp/targetdir"
run=$tmp/run
share=$run/hosts/lone
cat > "$tmp/confine" <<EOF
summary guest root against the host: setuid files, device nodes and links in its share; the host's secrets
topology lone
timeout 240
exec lone -- cd \${SHARE} || exit 1; echo x > suid; chmod 4755 suid; mknod chr c 1 3; mknod blk b 7 0; ln -s /etc/passwd passwd-link; ln -s $tmp/target ts.json; ln -s $tmp/targetdir sub; ls -l
exec lone -- cat /etc/shadow 2>/dev/null | wc -c > \${SHARE}/shadow.bytes; ls -A /root 2>/dev/null | wc -l > \${SHARE}/root.entries
exec lone -- mkdir -p /tmp/r && mount --bind / /tmp/r && for d in proc root home; do ls -A /tmp/r/\$d 2>/dev/null | wc -l; done > \${SHARE}/under-root.txt; cat /tmp/r/etc/shadow 2>/dev/null | wc -c >> \${SHARE}/under-root.txt
exec lone -- echo '{"n": 7}' > \${SHARE}/s.json
spawn late lone -- sleep 2; echo '{}' > \${SHARE}/late.tmp; mv \${SHARE}/late.tmp \${SHARE}/late.json
sleep 100 until lone late.json
wait late
stats s lone s.json
check s.n == 7
tapstats lone eth0 ts.json
tapstats lone eth0 sub/ts.json
EOF
"$lab" run --results "$run" --no-capture "$tmp/confine" > "$tmp/run.log" 2>&1
echo "# bpfwire-lab run: status $? (1 expected: the last tapstats is refused)"
[ -s "$share/shadow.bytes" ]; t $? "the guest booted and ran the steps"

# (a) nothing the guest made carries a privilege or a link on the host
left=$(find "$run" -perm -4000 | tr '\n' ' ')
[ -z "$left" ]; t $? "no setuid file in the results tree${left:+: $left}"
left=$(find "$run" \( -type c -o -type b -o -type p \) | tr '\n' ' ')
[ -z "$left" ]; t $? "no device node in the results tree${left:+: $left}"
left=$(find "$run" -type l | tr '\n' ' ')
[ -z "$left" ]; t $? "no symlink in the results tree${left:+: $left}"
[ "$(cat "$tmp/target")" = precious ]; t $? "tapstats to a guest link's name did not write through it"
[ ! -e "$tmp/targetdir/ts.json" ]; t $? "tapstats under a guest link to a dir did not write through it"
grep -q '"ifname"' "$share/ts.json" 2>/dev/null; t $? "tapstats wrote its own file in the share"
# the run's verdict is FAIL, for the right reason only
grep -q '^  FAIL line 14 .*tapstats' "$run/summary.txt" 2>/dev/null
t $? "tapstats under a guest link to a dir is refused (the scenario's only failed step)"
grep -q '^  ok.*line 11 .*stats' "$run/summary.txt" 2>/dev/null; t $? "the host read the guest's JSON (stats)"
# a name the guest writes in its share ends a host `sleep ... until` early
grep -q 'lone has late.json after [0-9.]* s: the sleep ends' "$tmp/run.log"
t $? "sleep 100 until lone late.json ended when the guest wrote it"

# (b) the host's secrets are not in the guest's root
if [ -s /etc/shadow ]; then
	[ "$(cat "$share/shadow.bytes" 2>/dev/null)" = 0 ]
	t $? "guest root reads nothing of the host's /etc/shadow (got $(cat "$share/shadow.bytes" 2>/dev/null) bytes)"
fi
[ "$(cat "$share/root.entries" 2>/dev/null)" = 0 ]
t $? "guest root lists nothing in /root (got $(cat "$share/root.entries" 2>/dev/null) entries)"
set -- $(cat "$share/under-root.txt" 2>/dev/null)
[ "$#" = 4 ] && [ "$1" = 0 ]; t $? "under its own mounts, the guest's root has no host /proc (got ${1:-?} entries)"
[ "$#" = 4 ] && [ "$2" = 0 ] && [ "$3" = 0 ]; t $? "nor /root, /home (got ${2:-?}, ${3:-?} entries)"
[ "$#" = 4 ] && [ "$4" = 0 ]; t $? "nor the content of /etc/shadow (got ${4:-?} bytes)"

[ $fail = 0 ] || { echo "# run log:"; sed 's/^/#   /' "$tmp/run.log" "$run/summary.txt" 2>/dev/null | head -60; }
tap_done
