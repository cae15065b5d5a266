#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Kernel build glue: build the tree's own test_progs (test_progs.c,
# test_loader.c and the helpers it links, the tree's libbpf and bootstrap
# bpftool) with only the prog_tests/*.c and progs/*.c that a series adds or
# changes, as BPF CI does for a series. Everything is built under OUT; the
# tree is only read.
#
#   build.sh --src TREE --vmlinux VMLINUX --vmlinux-h H --decls TOOL
#            --clang CLANG --out OUT [--apply] PATCH|MBOX...
#
# Without --apply the series is in TREE already (the kernel was built with
# it): its selftest files are read from TREE. With --apply (a series of
# selftests alone, such as the test-made one) its files are applied to
# copies under OUT/overlay. The bridges for 6.12's harness (README.md)
# are each used only when the tree lacks what they stand in for; the log
# names each one used. Progress and bridges on stdout, one line each.
set -euo pipefail

here=$(dirname "$(realpath "$0")")
src= vmlinux= vmlinux_h= decls= clang= out= apply=0 patches=()
while [ $# -gt 0 ]; do
	case "$1" in
	--src) src=$(realpath -m "$2"); shift 2 ;;
	--vmlinux) vmlinux=$(realpath -m "$2"); shift 2 ;;
	--vmlinux-h) vmlinux_h=$(realpath -m "$2"); shift 2 ;;
	--decls) decls=$(realpath -m "$2"); shift 2 ;;
	--clang) clang=$2; shift 2 ;;
	--out) out=$(realpath -m "$2"); shift 2 ;;
	--apply) apply=1; shift ;;
	-h|--help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "build.sh: unknown option $1" >&2; exit 2 ;;
	*) [ -f "$1" ] || { echo "build.sh: $1: no such patch file" >&2; exit 2; }
	   patches+=("$(realpath "$1")"); shift ;;
	esac
done
for v in src vmlinux vmlinux_h decls clang out; do
	[ -n "${!v}" ] || { echo "build.sh: --${v//_/-} is required" >&2; exit 2; }
done
[ ${#patches[@]} -gt 0 ] || { echo "build.sh: no series given (patch files or an mbox)" >&2; exit 2; }
for f in "$vmlinux" "$vmlinux_h" "$decls"; do
	[ -f "$f" ] || { echo "build.sh: $f: no such file" >&2; exit 2; }
done
sel=tools/testing/selftests/bpf
tsel=$src/$sel
[ -f "$tsel/test_progs.c" ] || { echo "build.sh: $src has no $sel/test_progs.c" >&2; exit 2; }
jobs=$(nproc)
start=$(date +%s)
# ccache, as the kernel build has it: with paths made relative (the same
# layout under build/ and build-up/), the second flavour's libbpf, bpftool
# and runner are cache hits.
cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_BASEDIR=/ CCACHE_NOHASHDIR=true
fi
log() { echo "selftests: $*"; }

# The series' selftest files: added or changed (not deleted) prog_tests/*.c,
# progs/*.c and progs/*.h.
files=$(cat "${patches[@]}" | sed -n 's#^+++ b/\('"$sel"'/\(prog_tests\|progs\)/[^/[:space:]]*\.[ch]\)$#\1#p' | sort -u)
tests=$(printf '%s\n' "$files" | grep "^$sel/prog_tests/.*\.c$" || true)
progs=$(printf '%s\n' "$files" | grep "^$sel/progs/.*\.c$" || true)
if [ -z "$tests" ]; then
	log "the series adds or changes no $sel/prog_tests/*.c: nothing to build"
	exit 3
fi
log "series: $(echo $tests | wc -w) prog_tests, $(echo $progs | wc -w) progs: $(for f in $tests $progs; do printf '%s ' "${f#$sel/}"; done)"

rm -rf "$out/overlay" "$out/obj" "$out/gen"
mkdir -p "$out/overlay/$sel/prog_tests" "$out/overlay/$sel/progs" "$out/obj" "$out/gen/prog_tests"
if [ "$apply" = 1 ]; then
	for f in $files; do [ -f "$src/$f" ] && cp "$src/$f" "$out/overlay/$f"; done
	# git apply outside any repository (OUT may lie inside one): the paths
	# are then relative to the overlay.
	for p in "${patches[@]}"; do
		(cd "$out/overlay" && GIT_CEILING_DIRECTORIES=$out git apply -p1 \
			--include="$sel/prog*" --exclude='*' "$p") 2>"$out/apply.err" ||
		{ echo "build.sh: $(basename "$p") does not apply to $sel:"; cat "$out/apply.err"; exit 1; } >&2
	done
else
	for f in $files; do
		[ -f "$src/$f" ] || { echo "build.sh: $f of the series is not in $src (was the kernel built with it? else --apply)" >&2; exit 1; }
		cp "$src/$f" "$out/overlay/$f"
	done
fi
osel=$out/overlay/$sel

# libbpf and the bootstrap bpftool (skeletons) of the tree.
log "libbpf and bpftool of the tree"
mkdir -p "$out/libbpf" "$out/bpftool"
make -s -C "$src/tools/lib/bpf" OUTPUT="$out/libbpf/" DESTDIR="$out/libbpf" prefix= CC="$cc" \
	-j"$jobs" "$out/libbpf/libbpf.a" install_headers >"$out/libbpf.log" 2>&1 ||
	{ tail -20 "$out/libbpf.log" >&2; echo "build.sh: libbpf failed ($out/libbpf.log)" >&2; exit 1; }
make -s -C "$src/tools/bpf/bpftool" OUTPUT="$out/bpftool/" CC="$cc" HOSTCC="$cc" -j"$jobs" bootstrap \
	>"$out/bpftool.log" 2>&1 ||
	{ tail -20 "$out/bpftool.log" >&2; echo "build.sh: bpftool failed ($out/bpftool.log)" >&2; exit 1; }
bpftool=$out/bpftool/bootstrap/bpftool
inc=$out/libbpf/include

# Bridges: each only when the tree lacks the thing.
bridges=()
user_extra=() user_srcs=()
if grep -q 'BPF_NO_KFUNC_PROTOTYPES' "$vmlinux_h"; then
	cp "$vmlinux_h" "$out/gen/vmlinux.h"
else
	# Headers that declare functions themselves: a kfunc they declare is theirs.
	"$decls" --btf "$vmlinux" --vmlinux-h "$vmlinux_h" \
		--declared "$inc/bpf/bpf_helper_defs.h" --declared "$tsel/bpf_experimental.h" \
		--declared "$tsel/bpf_kfuncs.h" --declared "$tsel/progs/bpf_misc.h" \
		--out "$out/gen/vmlinux.h" $(for f in $progs; do echo "$out/overlay/$f"; done) \
		$(ls "$osel"/progs/*.h 2>/dev/null) >"$out/decls.log"
	bridges+=("kfunc prototypes from BTF ($(cat "$out/decls.log"))")
fi
if ! grep -q 'define ASSERT_MEMEQ' "$tsel/test_progs.h"; then
	user_extra+=(-include "$here/compat/assert_memeq.h")
	bridges+=("ASSERT_MEMEQ (selftests/compat/assert_memeq.h)")
fi
if [ ! -f "$tsel/sysctl_helpers.h" ]; then
	user_extra+=(-idirafter "$here/compat")
	user_srcs+=("$here/compat/sysctl_helpers.c")
	bridges+=("sysctl helpers (selftests/compat/sysctl_helpers.[ch])")
fi
if [ ${#bridges[@]} -eq 0 ]; then
	log "bridges: none (the tree has everything)"
else
	for b in "${bridges[@]}"; do log "bridge used: $b"; done
fi

# BPF objects and skeletons, as the tree's Makefile makes them.
log "BPF: $(echo $progs | wc -w) objects"
sysinc=$("$clang" -v -E - </dev/null 2>&1 | sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
for f in $progs; do
	b=$(basename "$f" .c)
	# shellcheck disable=SC2086
	"$clang" -g -Wall -Werror -D__TARGET_ARCH_x86 -mlittle-endian \
		-I"$osel/progs" -I"$out/gen" -I"$inc" -I"$tsel" -I"$tsel/progs" \
		-I"$src/tools/include/uapi" -Wno-compare-distinct-pointer-types \
		-DENABLE_ATOMICS_TESTS -fms-extensions -Wno-microsoft-anon-tag \
		$sysinc -O2 --target=bpf -mcpu=v3 \
		-c "$out/overlay/$f" -o "$out/obj/$b.bpf.o"
	"$bpftool" gen object "$out/obj/$b.linked.o" "$out/obj/$b.bpf.o"
	"$bpftool" gen skeleton "$out/obj/$b.linked.o" name "$b" >"$out/obj/$b.skel.h"
done

# The tests' list, as the Makefile's TEST-HDR rule writes it.
sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p' \
	$(for f in $tests; do echo "$out/overlay/$f"; done) | sort >"$out/gen/prog_tests/tests.h"
log "tests: $(sed 's/DEFINE_TEST(\(.*\))/\1/' "$out/gen/prog_tests/tests.h" | tr '\n' ' ')"

# 7.x's test_progs.c includes verification_cert.h, which the tree's
# Makefile makes: a signing key (verify_sig_setup.sh genkey), its
# certificate as a C array. test_progs adds it to the session keyring at
# start and exits if it cannot (the guest kernel needs CONFIG_KEYS and
# X.509 asymmetric keys: kernel/configs/7.3/lab.config).
if grep -q '"verification_cert.h"' "$tsel/test_progs.c"; then
	mkdir -p "$out/gen/sig"
	bash "$tsel/verify_sig_setup.sh" genkey "$out/gen/sig" >"$out/sig.log" 2>&1 3>&2 ||
		{ cat "$out/sig.log" >&2; echo "build.sh: verify_sig_setup.sh genkey failed ($out/sig.log)" >&2; exit 1; }
	der=$out/gen/sig/signing_key.der
	{
		echo "unsigned char test_progs_verification_cert[] = {"
		od -v -t xC -w12 "$der" | sed 's/ \(\S\+\)/ 0x\1,/g;s/^\S\+/ /;$d'
		echo "};"
		echo "unsigned int test_progs_verification_cert_len = $(wc -c <"$der");"
	} >"$out/gen/verification_cert.h"
	log "test_progs' signing certificate: verification_cert.h, as the tree's Makefile makes it"
fi

# User space: the tree's runner and helpers, the series' prog_tests.
cflags=(-g -O2 -rdynamic -Wall -fno-omit-frame-pointer -fno-strict-aliasing -D_GNU_SOURCE=
	-I"$out/gen" -I"$out/obj" -I"$osel" -I"$tsel" -I"$inc" -I"$src/tools/lib" -I"$src/tools/include"
	-I"$src/tools/arch/x86/include" -I"$src/tools/include/uapi" -I"$src/include/generated")
# (the Makefile's TRUNNER_EXTRA_SOURCES that are C; one a tree lacks is skipped:
# sysctl_helpers.c is 7.x's, 6.12 has the bridge's)
runner=(test_progs.c cgroup_helpers.c trace_helpers.c network_helpers.c testing_helpers.c
	btf_helpers.c cap_helpers.c unpriv_helpers.c sysctl_helpers.c netlink_helpers.c
	jit_disasm_helpers.c test_loader.c disasm.c disasm_helpers.c json_writer.c)
objs=()
log "test_progs: ${#runner[@]} runner sources, $(echo $tests | wc -w) prog_tests files"
pids=()
for f in "${runner[@]}"; do
	[ -f "$tsel/$f" ] || continue
	$cc "${cflags[@]}" -c "$tsel/$f" -o "$out/obj/${f%.c}.o" &
	pids+=($!); objs+=("$out/obj/${f%.c}.o")
	[ ${#pids[@]} -ge "$jobs" ] && { wait "${pids[0]}"; pids=("${pids[@]:1}"); }
done
for f in $tests "${user_srcs[@]}"; do
	case "$f" in /*) p=$f ;; *) p=$out/overlay/$f ;; esac
	o=$out/obj/$(basename "${f%.c}").test.o
	$cc "${cflags[@]}" "${user_extra[@]}" -c "$p" -o "$o" &
	pids+=($!); objs+=("$o")
	[ ${#pids[@]} -ge "$jobs" ] && { wait "${pids[0]}"; pids=("${pids[@]:1}"); }
done
for p in "${pids[@]}"; do wait "$p"; done
gcc "${cflags[@]}" "${objs[@]}" "$out/libbpf/libbpf.a" -lelf -lz -lrt -lpthread \
	-o "$out/test_progs"
log "built $out/test_progs in $(( $(date +%s) - start )) s"
