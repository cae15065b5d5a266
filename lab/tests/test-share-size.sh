#!/bin/sh
# A guest's share has a size: run tests/share/fill with --share-size 8, its
# results on a 48 MiB tmpfs of their own (so nothing else on the machine
# moves the free space measured). Guest root writes 64 MiB into its share
# and leaves it full: the write ends with ENOSPC in the guest, the results'
# file system loses
# no more than the share's size (and the run's few logs), the run passes,
# and teardown leaves no mount, netns or state dir; the share's files are
# on the results' disk after down.
# Needs root and a kernel. Usage: test-share-size.sh BPFWIRE_LAB SCENARIO_DIR BPFWIRE_LOCK
lab=$1 dir=$2 locker=$3
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tmp=$(mktemp -d)
res=$tmp/res
trap 'umount -l "$res" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$res"
mount -t tmpfs -o size=48m,mode=0755 bpfwire-test-results "$res" || { echo "1..0 # SKIP no tmpfs"; exit 0; }
free_kib() { df -k --output=avail "$res" | tail -1 | tr -d ' '; }
before=$(free_kib)
echo "# results on a 48 MiB tmpfs, $before KiB free; the guest writes 64 MiB into an 8 MiB share"
"$locker" guest "$lab" run --no-capture --share-size 8 --results "$res/run" "$dir/fill" \
	> "$tmp/run.log" 2>&1
st=$?
after=$(free_kib)
[ "$st" = 0 ]; t $? "the run passes (exit $st): $(grep -E '^fill: ' "$tmp/run.log" | head -c 300)"
grep -q "No space left on device" "$res/run/steps/02.out" 2>/dev/null
t $? "the guest's dd ended with ENOSPC ($(grep -h "No space" "$res/run/steps/02.out" 2>/dev/null | head -1))"
drop=$((before - after))
echo "# free on the results' file system: $before KiB before, $after KiB after (drop $drop KiB)"
[ "$drop" -le $((8 * 1024 + 2048)) ]; t $? "it dropped by at most the share's 8 MiB and 2 MiB of logs ($drop KiB)"
size=$(stat -c %s "$res/run/hosts/lone/fill" 2>/dev/null || echo 0)
[ -f "$res/run/hosts/lone/fill.json" ] && [ -f "$res/run/hosts/lone/init.log" ] &&
	[ "$size" -gt $((6 * 1048576)) ] && [ "$size" -le $((8 * 1048576)) ]
t $? "the share's files are on the results' disk after down (fill: $size bytes)"
! grep -q " $res/run/hosts/" /proc/self/mounts; t $? "no share mount is left"
id=$(jq -r .run "$res/run/state.json" 2>/dev/null)
[ -n "$id" ] && ! ip netns list | grep -q "^bpfwire-$id\b" && [ ! -e "/run/bpfwire/$id" ]
t $? "the run ${id:-(no id in state.json)} is torn down"
[ $fail = 0 ] || sed 's/^/#   /' "$tmp/run.log" | tail -40
tap_done
