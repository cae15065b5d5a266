#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The simulated remote machine for the remote-host tests: this
# machine has no second one, so the test builds it.
#  - netns bpfwire-remote-PID: "the remote machine", Debian's /usr/sbin/sshd
#    in it (-D, its own config, host key and pid file, all in a temp dir),
#    on uplink 198.51.100.2/24, port 2222; root logs in by a key made here.
#  - netns bpfwire-remote-PID-up: "the lab host's uplink", uplink
#    198.51.100.1/24, the other end of a veth. The lab runs unchanged and
#    only takes `--underlay-netns bpfwire-remote-PID-up`.
# Nothing is put in the root namespace. Usage: remote-sim.sh CMD [ARGS...]
# runs CMD with SIM_* in its environment (below), then tears everything
# down (also on failure or a signal) and exits with CMD's status.
#   SIM_REMOTE  SIM_UNDERLAY  netns names
#   SIM_ADDR SIM_PORT         198.51.100.2 2222
#   SIM_SSH_CONFIG            ssh -F file: the user key, a known_hosts of the host key
#   SIM_SSH_CONFIG_NOKEY      the same known_hosts and no key (for a wrong-key test)
#   SIM_DIR                   the temp dir (keys, sshd.log)
set -u
SIM_REMOTE=bpfwire-remote-$$
SIM_UNDERLAY=bpfwire-remote-$$-up
SIM_ADDR=198.51.100.2
SIM_PORT=2222
SIM_DIR=$(mktemp -d /tmp/bpfwire-remote-sim.XXXXXX)
made_run_sshd=false

sim_down() {
	if [ -s "$SIM_DIR/sshd.pid" ]; then kill "$(cat "$SIM_DIR/sshd.pid")" 2>/dev/null; fi
	# whatever still runs in the two namespaces was started here (sessions, receivers)
	for ns in "$SIM_REMOTE" "$SIM_UNDERLAY"; do
		if ip netns list | grep -q "^$ns\b"; then
			for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
			ip netns del "$ns" 2>/dev/null
		fi
	done
	if $made_run_sshd; then rmdir /run/sshd 2>/dev/null; fi
	rm -rf "$SIM_DIR"
}

sim_up() {
	ip netns add "$SIM_REMOTE" && ip netns add "$SIM_UNDERLAY" || return 1
	ip -n "$SIM_REMOTE" link add uplink type veth peer name uplink netns "$SIM_UNDERLAY" || return 1
	ip -n "$SIM_REMOTE" link set lo up
	ip -n "$SIM_UNDERLAY" link set lo up
	ip -n "$SIM_REMOTE" addr add $SIM_ADDR/24 dev uplink
	ip -n "$SIM_UNDERLAY" addr add 198.51.100.1/24 dev uplink
	ip -n "$SIM_REMOTE" link set uplink up && ip -n "$SIM_UNDERLAY" link set uplink up || return 1
	ssh-keygen -q -t ed25519 -N '' -C bpfwire-sim-host -f "$SIM_DIR/host_ed25519" || return 1
	ssh-keygen -q -t ed25519 -N '' -C bpfwire-sim-user -f "$SIM_DIR/id_ed25519" || return 1
	cp "$SIM_DIR/id_ed25519.pub" "$SIM_DIR/authorized_keys"
	printf '[%s]:%s %s\n' $SIM_ADDR $SIM_PORT "$(cut -d' ' -f1,2 "$SIM_DIR/host_ed25519.pub")" \
		> "$SIM_DIR/known_hosts"
	cat > "$SIM_DIR/sshd_config" <<EOF
Port $SIM_PORT
ListenAddress $SIM_ADDR
HostKey $SIM_DIR/host_ed25519
PidFile $SIM_DIR/sshd.pid
AuthorizedKeysFile $SIM_DIR/authorized_keys
AllowUsers root
PermitRootLogin prohibit-password
PubkeyAuthentication yes
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
AllowAgentForwarding no
PrintMotd no
LogLevel VERBOSE
EOF
	cat > "$SIM_DIR/ssh_config" <<EOF
Host $SIM_ADDR
    IdentityFile $SIM_DIR/id_ed25519
    IdentitiesOnly yes
    UserKnownHostsFile $SIM_DIR/known_hosts
    GlobalKnownHostsFile /dev/null
EOF
	cat > "$SIM_DIR/ssh_config.nokey" <<EOF
Host $SIM_ADDR
    IdentitiesOnly yes
    UserKnownHostsFile $SIM_DIR/known_hosts
    GlobalKnownHostsFile /dev/null
EOF
	# sshd's privilege separation chroots into /run/sshd (ssh.service makes it)
	if [ ! -d /run/sshd ]; then mkdir -m 0755 /run/sshd && made_run_sshd=true; fi
	ip netns exec "$SIM_REMOTE" /usr/sbin/sshd -D -f "$SIM_DIR/sshd_config" -E "$SIM_DIR/sshd.log" &
	i=0
	while [ $i -lt 50 ]; do
		[ -s "$SIM_DIR/sshd.pid" ] && ip netns exec "$SIM_REMOTE" ss -ltn | grep -q "$SIM_ADDR:$SIM_PORT" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "# remote-sim: sshd did not listen within 5 s:" >&2
	sed 's/^/#   /' "$SIM_DIR/sshd.log" >&2
	return 1
}

trap 'sim_down' EXIT
trap 'exit 130' INT TERM HUP
[ -x /usr/sbin/sshd ] || { echo "# remote-sim: no /usr/sbin/sshd (tools/install-deps installs openssh-server)" >&2; exit 1; }
sim_up || { echo "# remote-sim: could not build the simulated remote" >&2; exit 1; }
SIM_SSH_CONFIG=$SIM_DIR/ssh_config
SIM_SSH_CONFIG_NOKEY=$SIM_DIR/ssh_config.nokey
export SIM_REMOTE SIM_UNDERLAY SIM_ADDR SIM_PORT SIM_DIR SIM_SSH_CONFIG SIM_SSH_CONFIG_NOKEY
"$@"
