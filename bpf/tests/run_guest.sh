#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boots one TCG guest on the lab kernel with two NICs on a QEMU hub (no host
# network at all) and runs INIT (guest_senders.sh, guest_vcost.sh) as init,
# with each NAME=VALUE on the kernel command line. Relays its TAP and
# fails on a missing plan, a guest that dies, or a kernel splat, found by
# the one scan (bpfwire-splat). The console shows every level
# (ignore_loglevel, last on the command line, and never quiet): a WARNING
# below the console's level would be a splat the scan never sees.
# The guest's root is the lab's read-only view (bpfwire-lab confine): the
# system trees with /etc's secrets masked, the source and build trees
# (the build's: the directory above the bzImage's).
# usage: run_guest.sh BZIMAGE SPLAT LAB INIT [NAME=VALUE...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 4 ] || { echo "Bail out! usage: run_guest.sh BZIMAGE SPLAT LAB INIT [NAME=VALUE...]"; exit 1; }
bz=$(realpath "$1") splat=$(realpath "$2") lab=$(realpath "$3") init=$(realpath "$4")
shift 4
vars="$*"
# The ksock API the guest must find: the kernel's BTF says it (api.json,
# written by the build beside the bzImage), not its release string, so a
# reviewed series (release -bpfwire-NAME) is checked as the API it has.
api=$(jq -r '.ksock // empty' "$(dirname "$bz")/api.json" 2>/dev/null)
# and whether it has bpfwire's sndbuf extension (true or false; none: unsaid)
sndbuf=$(jq -r 'if has("ksock_sndbuf") then .ksock_sndbuf else empty end' "$(dirname "$bz")/api.json" 2>/dev/null)
log=$(mktemp /tmp/bpfwire-guest.XXXXXX)
root=$(mktemp -d /tmp/bpfwire-guest-root.XXXXXX)
trap 'rm -f "$log"; rmdir "$root"' EXIT
status=1
timeout 1100 "$lab" confine "$root" --keep "$(realpath "$here/../..")" --keep "$(dirname "$(dirname "$bz")")" -- \
	qemu-system-x86_64 -accel tcg -machine q35 -cpu max -m 512 -smp 2 -nographic -no-reboot \
	-kernel "$bz" \
	-append "console=ttyS0 root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L ro init=$init panic=-1 tsc=reliable $vars${api:+ BW_API=$api}${sndbuf:+ BW_SNDBUF=$sndbuf} ignore_loglevel" \
	-fsdev local,id=r,path=$root,readonly=on,security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=r,mount_tag=/dev/root \
	-netdev hubport,id=h0,hubid=0 -device virtio-net-pci,netdev=h0,mac=52:54:00:00:00:01 \
	-netdev hubport,id=h1,hubid=0 -device virtio-net-pci,netdev=h1,mac=52:54:00:00:00:02 \
	</dev/null >"$log" 2>&1
grep -aE '^(ok|not ok|1\.\.|#)' "$log" | tr -d '\r'
if ! grep -aq '^BPFWIRE-GUEST-DONE failed=0' "$log"; then
	echo "# the guest did not finish cleanly; console tail:"
	tail -30 "$log" | sed 's/^/#   /'
else
	"$splat" "$log" | sed 's/^/#   /'
	case ${PIPESTATUS[0]} in
	0) status=0 ;;
	1) echo "# kernel splat on the console" ;;
	*) echo "# bpfwire-splat could not scan the console" ;;
	esac
fi
exit $status
