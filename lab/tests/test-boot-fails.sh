#!/bin/sh
# guest-init says ready only when its setup succeeded: a NIC it
# cannot rename, or an `ip -batch` that fails, is a failed boot. `up` must
# fail and name the reason, init.log must hold it, and nothing is left.
# Needs root and a kernel. Usage: test-boot-fails.sh BPFWIRE_LAB TOPOLOGY_DIR
lab=$1 dir=$2
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir

# boot_fails CASE REASON: up of boot-fails-CASE.topo fails, naming REASON
boot_fails() {
	id=bf-$1-$$ log=$tmp/$1.log
	"$lab" up --run "$id" --results "$tmp/$1" -q "$dir/boot-fails-$1.topo" > "$log" 2>&1
	st=$?
	[ "$st" = 1 ]; t $? "$1: up fails (exit $st)"
	[ "$st" = 0 ] && "$lab" down --run "$id" > /dev/null 2>&1
	grep -q "lone: boot failed, guest-init's setup failed: $2" "$log"
	t $? "$1: up names the reason: $2"
	grep -q "setup failed: $2" "$tmp/$1/hosts/lone/init.log" 2>/dev/null
	t $? "$1: init.log has the reason"
	[ ! -e "$tmp/$1/hosts/lone/stage.ready" ]; t $? "$1: guest-init never said ready"
	ip netns list | grep -q "bpfwire-$id\b"; ns=$?
	[ "$ns" = 1 ] && [ ! -e "/run/bpfwire/$id" ]; t $? "$1: the run is torn down"
	[ $fail = 0 ] || sed 's/^/#   /' "$log"
}

boot_fails rename "couldn't rename bwnic0 to lo"
boot_fails route "ip -batch failed"
tap_done
