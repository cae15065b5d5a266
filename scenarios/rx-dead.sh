#!/bin/sh
# Guest-side helpers of scenario rx-dead (its comments say why each exists).
# Under TCG every dynamically linked tool costs 0.1-0.4 s to start, so each
# subcommand runs as few of them as it can.
#
#   rx-dead.sh timers                          sender: shorten eth0's v4 and v6 neighbour timers
#   rx-dead.sh snap SHARE TAG 4|6 DST BUILD    sender: one phase snapshot into SHARE/TAG.json
#   rx-dead.sh rx SHARE TAG dead|alive         receiver: drop (or pass again) all it sends, stamped
set -eu

IP=/usr/sbin/ip
TC=/usr/sbin/tc
DATE=/usr/bin/date	# busybox's date has no %N

# The neighbour parameters, the same for IPv4 (ARP) and IPv6 (ND):
#  base_reachable_time_ms 2500  REACHABLE lasts 1.25-3.75 s (default 30 s); longer than
#                               the DELAY, so it always ends in a STALE that
#                               ip monitor shows (one under 1 s may go to DELAY, silent)
#  delay_first_probe_time 1     DELAY 1 s before the first unicast probe (default 5 s)
#  retrans_time_ms 500          probes 0.5 s apart (default 1 s)
#  ucast_solicit 2              unicast probes in PROBE before FAILED (default 3)
#  mcast_solicit 2              broadcast/multicast probes in INCOMPLETE (default 3)
# unres_qlen_bytes (the queue of datagrams waiting for resolution) stays at
# its default, printed below.
timers() {
	for fam in ipv4 ipv6; do
		d=/proc/sys/net/$fam/neigh/eth0
		echo 2500 > $d/base_reachable_time_ms
		echo 1 > $d/delay_first_probe_time
		echo 500 > $d/retrans_time_ms
		echo 2 > $d/ucast_solicit
		echo 2 > $d/mcast_solicit
		printf '%s eth0:' $fam
		for k in base_reachable_time_ms delay_first_probe_time retrans_time_ms \
			 ucast_solicit mcast_solicit app_solicit unres_qlen unres_qlen_bytes; do
			printf ' %s=%s' $k "$(cat $d/$k)"
		done
		echo
	done
}

# Sum of two columns of /proc/net/stat/{arp,ndisc}_cache over all CPUs (hex).
cache_counters() {
	rf=0 ud=0
	{
		read -r _
		while read -r _ _ _ _ _ _ c7 _ _ _ _ c12 _; do
			rf=$((rf + 0x$c7)) ud=$((ud + 0x$c12))
		done
	} < "$1"
	printf '{"res_failed": %d, "unresolved_discards": %d}' $rf $ud
}

# The host-unreachable errors the kernel sends itself when a resolution
# fails (ICMP for IPv4, ICMPv6 for IPv6): do they reach ksock's socket?
icmp_counters() {
	od=0 id=0
	if [ "$1" = 4 ]; then
		hdr= val=
		while read -r name rest; do
			[ "$name" = Icmp: ] || continue
			if [ -z "$hdr" ]; then hdr=$rest; else val=$rest; fi
		done < /proc/net/snmp
		set -- $val
		for h in $hdr; do
			case $h in OutDestUnreachs) od=$1 ;; InDestUnreachs) id=$1 ;; esac
			shift
		done
	else
		while read -r k v; do
			case $k in Icmp6OutDestUnreachs) od=$v ;; Icmp6InDestUnreachs) id=$v ;; esac
		done < /proc/net/snmp6
	fi
	printf '{"out_dest_unreachs": %d, "in_dest_unreachs": %d}' $od $id
}

snap() {
	share=$1 tag=$2 fam=$3 dst=$4 build=$5
	read -r up _ < /proc/uptime
	if [ "$fam" = 4 ]; then stat=/proc/net/stat/arp_cache; else stat=/proc/net/stat/ndisc_cache; fi
	neigh=$($IP -j neigh show to "$dst" dev eth0)
	cache=$(cache_counters $stat)
	icmp=$(icmp_counters "$fam")
	status=$("$build/bpf/bpfwire-agent" status --json)
	printf '{"tag": "%s", "uptime_s": %s, "neigh": %s, "cache": %s, "icmp": %s, "status": %s}\n' \
		"$tag" "$up" "${neigh:-[]}" "$cache" "$icmp" "$status" > "$share/$tag.json"
	# One line for summary.txt: the neighbour's state, the cache counters, the senders.
	echo "$tag t=$up neigh=$(echo "$neigh" | sed -n 's/.*"state":\[\([^]]*\)\].*/\1/p' | tr -d '"') $cache icmp=$icmp"
	echo "$status" | tr -d ' \n' | sed 's/"via":/\n&/g' | sed -n 's/.*"via":"\([a-z]*\)".*"events":\([0-9]*\),"sent":\([0-9]*\),"failed":\([0-9]*\).*"last_seq":\([0-9]*\),"errors":\({[^}]*}\).*/  \1 events=\2 sent=\3 failed=\4 last_seq=\5 errors=\6/p'
	echo
}

# The receiver is the only other host on the segment, so dropping every frame
# it sends (ARP replies, neighbour advertisements, anything) is everything
# towards the sender dropped. The stamps bracket the change in the
# receiver's CLOCK_REALTIME, the clock of its capture's timestamps.
rx() {
	share=$1 tag=$2 what=$3 dropped=0
	if [ "$what" = alive ]; then
		# what the receiver did not send: frames towards the sender
		st=$($TC -s qdisc show dev eth0)
		echo "$st" | head -3
		dropped=$(echo "$st" | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -1)
	fi
	from=$($DATE +%s%N)
	if [ "$what" = dead ]; then
		$TC qdisc replace dev eth0 root netem loss 100%
	else
		$TC qdisc del dev eth0 root
	fi
	to=$($DATE +%s%N)
	printf '{"from_ns": %s, "to_ns": %s, "netem_dropped": %d}\n' "$from" "$to" "${dropped:-0}" | tee "$share/$tag.json"
}

cmd=$1
shift
case $cmd in
timers) timers ;;
snap) snap "$@" ;;
rx) rx "$@" ;;
*) echo "rx-dead.sh: unknown command $cmd" >&2; exit 2 ;;
esac
