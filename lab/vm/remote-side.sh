#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What bpfwire-lab runs on a remote host, one subcommand per ssh command.
# The lab sends this text itself, as `exec /bin/sh -c SCRIPT bpfwire-remote
# SUBCOMMAND ARG...` with every argument quoted (remote_side_line in
# remote_ssh.c), so nothing has to be installed there and a cut connection
# runs none of it. The remote's login shell only has to run that line.
#
# /tmp there is anyone's: the run's dir BASE is mktemp's, and it (and SHARE,
# the host's share in it) is checked before every use; a refusal is a
# "bpfwire: " line on stderr and exit 97 (REMOTE_REFUSED in remote_ssh.h).
#
#   check                          SSH_CONNECTION, uptime, ip, nft, root
#   mkdir ID NAME                  BASE=/tmp/bpfwire-ID.XXXXXXXX and BASE/NAME
#   end TABLE VNI PEER IFACE MAC MTU [PREFIX]...
#                                  the VXLAN end, pinned to PEER by its VNI
#   capture BASE IFACE SNAPLEN     tcpdump of IFACE to stdout
#   exec BASE SHARE CMD [ARG]...   CMD in SHARE, its pid in BASE/pids
#   fetch BASE SHARE FILE          SHARE/FILE to stdout
#   link IFACE up|down
#   dmesg UPTIME                   the kernel log since UPTIME
#   down TABLE BASE|'' [IFACE VNI]...
#                                  what up made: pids, VXLANs, pin, BASE

refused=97
vxlan_port=4789	# VXLAN_PORT in remote.c

# CMD as root: itself, or through sudo without a password.
root() {
	[ "$(id -u)" = 0 ] || set -- sudo -n "$@"
	"$@"
}

# DIR is a directory, not a link, of the login user, that no one else can write.
own_dir() {
	case "$(stat -c %u:%A -- "$1" 2>/dev/null)" in
	"$(id -u)":d????[!w]??[!w]?) return 0 ;;
	esac
	echo "bpfwire: $1 is not a directory of uid $(id -u) that only it can write: refused" >&2
	return 1
}

not_link() {
	if [ -L "$1" ]; then
		echo "bpfwire: $1 is a link: refused" >&2
		return 1
	fi
}

do_check() {
	echo "conn $SSH_CONNECTION"
	echo "uptime $(cut -d' ' -f1 /proc/uptime)"
	command -v ip >/dev/null && echo have-ip
	{ command -v nft || [ -x /usr/sbin/nft ] || [ -x /sbin/nft ]; } >/dev/null && echo have-nft
	# its status is the run's: without root there, check fails
	{ [ "$(id -u)" = 0 ] || sudo -n true; } 2>/dev/null && echo have-root
}

do_mkdir() {
	umask 077
	d=$(mktemp -d "/tmp/bpfwire-$1.XXXXXXXX") && mkdir -- "$d/$2" && echo "dir $d"
}

# The same pin and link as the lab's end (vxlan_pin_argvs, vxlan_add_argv),
# toward the lab's address as this host sees it; the pin first.
do_end() {
	t=$1 vni=$2 peer=$3 dev=$4 mac=$5 mtu=$6
	shift 6
	fam=ip
	case $peer in *:*) fam=ip6 ;; esac
	root nft add table inet "$t" &&
		root nft add chain inet "$t" pin '{ type filter hook prerouting priority -300 ; policy accept ; }' &&
		root nft add rule inet "$t" pin "$fam" saddr "$peer" udp dport "$vxlan_port" @th,96,24 "$vni" accept &&
		root nft add rule inet "$t" pin udp dport "$vxlan_port" @th,96,24 "$vni" drop &&
		root ip link add "$dev" type vxlan id "$vni" remote "$peer" dstport "$vxlan_port" nolearning &&
		root ip link set dev "$dev" address "$mac" mtu "$mtu" || return
	for a in "$@"; do
		case $a in
		*:*) root ip addr add "$a" dev "$dev" nodad ;;
		*) root ip addr add "$a" dev "$dev" ;;
		esac || return
	done
	root ip link set dev "$dev" up
}

# This shell's pid goes to BASE/pids, and it becomes tcpdump: down ends it.
do_capture() {
	own_dir "$1" && not_link "$1/pids" || exit $refused
	echo $$ >>"$1/pids"
	set -- tcpdump -i "$2" -w - -U -n -s "$3" -B 4096 --immediate-mode
	[ "$(id -u)" = 0 ] || set -- sudo -n "$@"
	exec "$@"
}

do_exec() {
	d=$1 r=$2
	shift 2
	own_dir "$d" && own_dir "$r" && not_link "$d/pids" || exit $refused
	cd -- "$r" && echo $$ >>"$d/pids" && exec "$@"
}

do_fetch() {
	own_dir "$1" && own_dir "$2" || exit $refused
	f=$2/$3
	not_link "$f" || exit $refused
	[ -f "$f" ] || { echo "bpfwire: $f is not a regular file" >&2; exit $refused; }
	exec cat -- "$f"
}

do_link() {
	root ip link set dev "$1" "$2"
}

# The lines of dmesg from UPTIME on (its [seconds] stamps), as up read it.
do_dmesg() {
	k=$(root dmesg) || exit 3
	printf '%s\n' "$k" | awk -v t="$1" \
		'match($0, /^\[ *[0-9]+\.[0-9]+\]/) { keep = substr($0, 2, RLENGTH - 2) + 0 >= t } keep'
}

# The pids are read only from a BASE that passes own_dir, never through a
# link; a VXLAN is removed only when its VNI is the run's; BASE only when
# it passed. No BASE (up made none): the VXLANs and the pin only.
do_down() {
	t=$1 d=$2 ok=
	shift 2
	if [ -n "$d" ] && own_dir "$d"; then
		ok=1
		if not_link "$d/pids" && [ -f "$d/pids" ]; then
			# shellcheck disable=SC2013 # words: anything not a pid is skipped
			for p in $(cat -- "$d/pids"); do
				case $p in
				'' | *[!0-9]* | 0 | 1) ;;
				*) root kill "$p" 2>/dev/null ;;
				esac
			done
			sleep 0.5
		fi
	fi
	while [ $# -ge 2 ]; do
		if root ip -d link show dev "$1" 2>/dev/null | grep -q "vxlan id $2 "; then
			root ip link del dev "$1" || exit 4
		fi
		shift 2
	done
	if root nft list table inet "$t" >/dev/null 2>&1; then
		root nft delete table inet "$t" || exit 5
	fi
	if [ -n "$ok" ]; then rm -rf -- "$d"; fi
}

cmd=$1
shift
case $cmd in
check | mkdir | end | capture | exec | fetch | link | dmesg | down) "do_$cmd" "$@" ;;
*)
	echo "bpfwire: remote-side.sh: no subcommand '$cmd'" >&2
	exit 2
	;;
esac
