#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kernel-tests-api: the kernel suite on kernels whose kfunc API it reads
# from BTF, shown with `kernel-tests -l --btf FILE` (lists, loads nothing):
# on a ksock API bpfwire does not know every ksock case is # SKIP with the
# reason and the prototype found is printed beside the expected ones; the
# netpoll and API-independent cases still run; without netpoll the netpoll
# cases are # SKIP; on the posted series only the cases of bpfwire's sndbuf
# extension are # SKIP. A run (no -l) refuses --btf: it reads the running kernel
# (checked as nobody: nothing here ever runs a case on the host).
# usage: test-list-api.sh KERNEL-TESTS KAPI-FAKE-BTF [VMLINUX]
. "$(dirname "$0")/../../lab/tests/tap.sh"
kt=$1 fake=$2 vmlinux=${3:-}
tap_tmpdir
reason_unknown="# SKIP ksock API unknown: a bpf_ksock_* prototype matches neither seed nor upstream"

# list VARIANT: kernel-tests -l on that made-up kernel, into $tmp/VARIANT.list
list() {
	"$fake" "$1" "$tmp/$1.btf" && "$kt" -l --btf "$tmp/$1.btf" >"$tmp/$1.list" 2>&1
}

list connect-flags
t $? "kernel-tests -l --btf (a v8 whose connect gained an argument): exit 0"
f=$tmp/connect-flags.list
grep -q "^#     found     int bpf_ksock_connect(struct bpf_ksock \*ks, const union bpf_ksock_addr \*addr, u32 addr__sz, u32 flags);" "$f" &&
	grep -q "^#     upstream  int bpf_ksock_connect(struct bpf_ksock \*ks, const union bpf_ksock_addr \*addr, u32 addr__sz);" "$f"
t $? "  the prototype found, beside upstream's, as comments"
# (the nsproxy guard is SKIP on every kernel: not reachable from BPF)
n_ks=$(grep -e '^ksock' -e '^up ' "$f" | grep -vc "# SKIP not reachable")
n_skip=$(grep -e '^ksock' -e '^up ' "$f" | grep -c -F "$reason_unknown")
echo "# $n_skip of $n_ks ksock cases SKIP with the reason"
t $([ "$n_ks" -gt 10 ] && [ "$n_skip" = "$n_ks" ]; echo $?) "  every ksock case is SKIP, with the reason ($n_skip of $n_ks)"
grep -q -x "netpoll_sanity" "$f" && grep -q -x "netpoll_create: dummy0 (control) -> ok" "$f" &&
	grep -q -x "mac_bpf_siphash_vectors" "$f"
t $? "  the netpoll cases and the MAC run"

list no-netpoll
f=$tmp/no-netpoll.list
n_np=$(grep -c "^netpoll" "$f")
n_npskip=$(grep "^netpoll" "$f" | grep -c -F "# SKIP no netpoll kfuncs in this kernel's BTF (netpoll absent)")
echo "# $n_npskip of $n_np netpoll areas SKIP"
t $([ "$n_np" -gt 3 ] && [ "$n_npskip" = "$n_np" ]; echo $?) "upstream without netpoll: every netpoll area is SKIP, with the reason ($n_npskip of $n_np)"
grep -q "^up ksock_create: AF_INET, UDP -> ok$" "$f"
t $? "  and the upstream ksock cases run"

list no-ksock
t $([ "$(grep -c '# SKIP no ksock kfuncs' "$tmp/no-ksock.list")" -gt 10 ]; echo $?) "no ksock at all: the ksock cases are SKIP, saying so"

# The posted series (seed, 4-byte create opts): the seed's cases run, and
# only those of bpfwire's sndbuf extension SKIP, each with the reason.
reason_sndbuf="# SKIP kernel lacks bpfwire's sndbuf extension (kernel/patches/sndbuf)"
sndbuf_cases() { grep -e '^ksock_create: .*sndbuf' -e '^ksock_send: .*sndbuf' "$1" | grep -v '^ksock_create: sndbuf (kernel/patches/sndbuf) and'; }
list seed
f=$tmp/seed.list
grep -q "^# kernel API (from .*): ksock seed, netpoll present$" "$f" &&
	grep -q "^# bpfwire's sndbuf extension (kernel/patches/sndbuf): absent, its cases SKIP$" "$f"
t $? "the posted series: ksock seed, the sndbuf extension absent"
n_sb=$(sndbuf_cases "$f" | wc -l)
n_sbskip=$(sndbuf_cases "$f" | grep -c -F "$reason_sndbuf")
echo "# $n_sbskip of $n_sb sndbuf cases SKIP with the reason"
t $([ "$n_sb" -ge 14 ] && [ "$n_sbskip" = "$n_sb" ]; echo $?) "  every sndbuf case is SKIP, with the reason ($n_sbskip of $n_sb)"
t $([ "$(grep -c -F "$reason_sndbuf" "$f")" = "$n_sb" ]; echo $?) "  and no other case"
grep -q -x "ksock_create: AF_INET UDP (control) -> ok" "$f" && grep -q -x "ksock_create: opts__sz 6 -> EINVAL" "$f" &&
	grep -q -x "ksock_basic" "$f" &&
	grep -q -x "bpf_sys_bpf(BPF_PROG_TEST_RUN) from a SYSCALL program -> EINVAL, so no ksock_create runs with current->bpf_ctx set" "$f"
t $? "  the seed's other cases run (the controls, opts__sz 6, ksock_basic, the nested test run)"
t $([ "$(grep -c '# SKIP ksock API unknown' "$f")" = 0 ]; echo $?) "  no case SKIP for an unknown API"

list seed-sndbuf
f=$tmp/seed-sndbuf.list
n_sb=$(sndbuf_cases "$f" | grep -vc "# SKIP")
t $([ "$n_sb" -ge 14 ] && ! grep -q -F "$reason_sndbuf" "$f"; echo $?) "the seed with the sndbuf extension: its $n_sb sndbuf cases run"

if [ -n "$vmlinux" ] && [ -f "$vmlinux" ]; then
	"$kt" -l --btf "$vmlinux" >"$tmp/real.list"
	t $([ "$(grep -c '# SKIP ksock API unknown' "$tmp/real.list")" = 0 ]; echo $?) "this build's vmlinux: no case SKIP for an unknown API"
fi
# Never a run on the host: as root, this one call drops to nobody, so even
# a kernel-tests that took --btf for a run could load nothing.
nobody=
[ "$(id -u)" = 0 ] && nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
chmod a+rx "$tmp"
$nobody "$kt" --btf "$tmp/no-ksock.btf" >"$tmp/out" 2>&1
rc=$?
t $([ $rc = 2 ] && grep -q "lists the cases as on that kernel (-l)" "$tmp/out"; echo $?) "a run with --btf: exit 2, nothing run (got $rc)"
tap_done
