#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpf-build-any-api: every BPF object that calls a bpfwire kfunc compiles
# whatever the kernel's kfuncs are. From this build's vmlinux.h
# it makes the header of a kernel without ksock and netpoll (their types
# cut out) and of one whose create opts changed (family renamed domain,
# a field added), and compiles each object against each, as the build does
# (BPF_CFLAGS: the build rule's flags, from meson).
# usage: BPF_CFLAGS=... test-build-any-api.sh CLANG VMLINUX.H SRCROOT OBJECT.bpf.c...
. "$(dirname "$0")/../../lab/tests/tap.sh"
clang=$1 vmlinux_h=$2 src=$3
shift 3
tap_tmpdir
[ -f "$vmlinux_h" ] || { echo "1..0 # SKIP no $vmlinux_h"; exit 0; }
[ -n "${BPF_CFLAGS:-}" ] || { echo "test-build-any-api.sh: BPF_CFLAGS (the build rule's flags) is not set" >&2; exit 2; }

# The kernel's own kfunc types, as bpftool dumps them: "struct NAME {" to "};".
types='bpf_ksock|bpf_netpoll|bpf_ksock_create_opts|bpf_ksock_addr_opts|bpf_netpoll_opts'
mkdir -p "$tmp/none" "$tmp/changed"
awk -v re="^(struct|union) ($types|bpf_ksock_addr) \\\\{" '
	$0 ~ re { skip = 1; next }
	skip && /^};/ { skip = 0; next }
	!skip' "$vmlinux_h" |
	sed -E 's/struct (bpf_ksock|bpf_netpoll) \*/void */g' >"$tmp/none/vmlinux.h"
sed -E '/^struct bpf_ksock_create_opts \{/,/^\};/ { s/ family;/ domain;/; s/ reserved;/ flags;\n\t__u64 cookie;/; }' \
	"$vmlinux_h" >"$tmp/changed/vmlinux.h"
left=$(grep -cE "^(struct|union) ($types|bpf_ksock_addr) \{" "$tmp/none/vmlinux.h")
t $([ "$left" = 0 ]; echo $?) "the header without ksock and netpoll has none of their types ($left left)"
grep -A7 '^struct bpf_ksock_create_opts {' "$tmp/changed/vmlinux.h" | grep -q 'cookie;'
t $? "the changed header's create opts grew a field"

c=0
for kind in none changed; do
	for obj in "$@"; do
		# shellcheck disable=SC2086 # BPF_CFLAGS: words, none with a space
		"$clang" $BPF_CFLAGS \
			-I "$tmp/$kind" -I "$src/bpf" -I "$src/common" -I "$(dirname "$obj")" \
			-c "$obj" -o "$tmp/obj.o" 2>"$tmp/err"
		rc=$?
		[ $rc = 0 ] || sed 's/^/# /' "$tmp/err" | head -20
		t $rc "$(basename "$obj") compiles against the $kind kfunc header"
		c=$((c + 1))
	done
done
echo "# $c compiles of $# objects"
tap_done
