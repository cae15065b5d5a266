#!/bin/bash
# Run a command from a series under review with no power over the host:
# bubblewrap gives it a mount namespace where / is read-only and only the
# --rw directories are writable, a private /tmp and /run, no network, its
# own pid namespace (nothing it starts outlives it); setpriv then drops
# root for a uid that is no user's, with no groups, no capabilities and
# no_new_privs. bpfwire's own flavours never come here.
#
#   sandbox.sh [--rw DIR]... [--ro PATH]... [--ro-at SRC DEST]...
#              [--chdir DIR] -- CMD [ARG]...
#
# Each --rw DIR is made (if missing) and handed to the sandbox's uid,
# contents and all; --ro PATH shows PATH read-only where it is (needed
# under /tmp, which is private); --ro-at SRC DEST shows SRC at DEST,
# under /tmp only. The exit status is CMD's.
set -euo pipefail

# No user's: like the lab's QEMU uid (lab/vm/model.h), one above it.
SANDBOX_UID=2147480001

usage() { sed -n '9,17p' "$0" | sed 's/^# \{0,1\}//'; }
rw=() ro=() chdir=/
while [ $# -gt 0 ]; do
	case "$1" in
	--rw) rw+=("$(realpath -m "$2")"); shift 2 ;;
	--ro) ro+=("$(realpath -m "$2")" "$(realpath -m "$2")"); shift 2 ;;
	--ro-at) ro+=("$2" "$3"); shift 3 ;;
	--chdir) chdir=$2; shift 2 ;;
	--uid) echo "$SANDBOX_UID"; exit 0 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) echo "sandbox: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { usage >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "sandbox: run as root (it drops to uid $SANDBOX_UID itself)" >&2; exit 2; }
command -v bwrap >/dev/null ||
	{ echo "sandbox: bwrap not found: install the Debian package bubblewrap (apt-get install bubblewrap)" >&2; exit 2; }

args=(--ro-bind / / --dev /dev --proc /proc --perms 1777 --tmpfs /tmp --tmpfs /run --tmpfs /root
	--unshare-net --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try
	--die-with-parent --new-session --hostname bpfwire-sandbox)
# bwrap makes a missing mount point's parents 0700 in the private /tmp:
# the sandbox's uid must be able to walk them.
# Not below a path bound already: its parents are there.
bound=()
parents() {
	local p=$(dirname "$1") l=() b
	while [[ $p == /tmp/* ]]; do
		for b in "${bound[@]}"; do [[ $p == "$b" || $p == "$b"/* ]] && break 2; done
		l=("$p" "${l[@]}")
		p=$(dirname "$p")
	done
	for p in "${l[@]}"; do args+=(--perms 0755 --dir "$p"); done
}
for ((i = 0; i < ${#ro[@]}; i += 2)); do
	[ -e "${ro[i]}" ] || { echo "sandbox: ${ro[i]} does not exist" >&2; exit 2; }
	case "${ro[i + 1]}" in
	"${ro[i]}") ;;
	/tmp/*) ;;
	*) echo "sandbox: --ro-at DEST must be under /tmp" >&2; exit 2 ;;
	esac
	parents "${ro[i + 1]}"
	args+=(--ro-bind "${ro[i]}" "${ro[i + 1]}")
	bound+=("${ro[i + 1]}")
done
for d in "${rw[@]}"; do
	# chown -R never follows links.
	mkdir -p "$d"
	[ "$(stat -c %u "$d")" = "$SANDBOX_UID" ] || chown -R -P "$SANDBOX_UID:$SANDBOX_UID" "$d"
	parents "$d"
	args+=(--bind "$d" "$d")
done
exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8 \
	${TERM:+TERM=$TERM} \
	bwrap "${args[@]}" --chdir "$chdir" -- \
	setpriv --reuid="$SANDBOX_UID" --regid="$SANDBOX_UID" --clear-groups \
		--inh-caps=-all --bounding-set=-all --no-new-privs -- "$@"
