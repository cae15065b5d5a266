#!/bin/sh
# A reused results dir (`up --run ID` twice, `run --results DIR`)
# starts every run with an empty share: a stale hosts/HOST/rx.json from the
# last run cannot satisfy this run's `report`, and the links a guest left
# there are removed, never followed. No guest boots: the kernel is a
# directory, so QEMU ends at once and `up` fails after the layout.
# Needs root. Usage: test-share-reset.sh BPFWIRE_LAB LONE_TOPO BPFWIRE_LOCK
lab=$1 topo=$2 locker=$3
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_tmpdir
id=share-$$
res=$tmp/run share=$tmp/run/hosts/lone out=$tmp/outside

# What the last run's guest left: a report, a dir, links to host files.
mkdir -p "$share/sub/deeper" "$out/dir" "$tmp/notakernel"
echo '{"valid": 999, "lost": 0}' > "$share/rx.json"
echo stale > "$share/sub/deeper/x"
echo keep > "$out/keep"
echo keep > "$out/dir/keep"
ln -s "$out/keep" "$share/file-link"
ln -s "$out/dir" "$share/dir-link"
ln -s "$out/dir" "$share/sub/dir-link"
ln -s / "$share/root-link"

"$locker" guest "$lab" up --run "$id" --results "$res" --kernel "$tmp/notakernel" \
	--no-capture -q "$topo" > "$tmp/up.log" 2>&1
st=$?
[ "$st" = 0 ] && "$lab" down --run "$id" > /dev/null 2>&1
[ "$st" != 0 ]; t $? "up with no kernel fails (exit $st)"
[ -f "$res/guests/lone/setup.sh" ]; t $? "after laying out the run (RUN/guests/lone/setup.sh is there)"
[ ! -e "$share/rx.json" ]; t $? "the stale rx.json is gone"
[ ! -e "$share/sub" ]; t $? "the stale dir is gone"
[ ! -L "$share/file-link" ] && [ ! -L "$share/dir-link" ] && [ ! -L "$share/root-link" ]
t $? "the links are gone"
[ "$(cat "$out/keep" 2>/dev/null)" = keep ] && [ "$(cat "$out/dir/keep" 2>/dev/null)" = keep ]
t $? "what they pointed to is untouched"
ip netns list | grep -q "bpfwire-$id\b"; ns=$?
[ "$ns" = 1 ] && [ ! -e "/run/bpfwire/$id" ]; t $? "the run is torn down"
[ $fail = 0 ] || sed 's/^/#   /' "$tmp/up.log"
tap_done
