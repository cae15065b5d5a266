# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# A tiny fake kernel tree for tests of kernel/build.sh: just enough of
# kbuild's interface that build.sh runs every phase (source, patch,
# config, build, btf) in seconds. Sourced, after lab/tests/tap.sh:
#
#   fake_kernel_need        SKIP unless root, bwrap and /sys/kernel/btf/vmlinux
#   fake_kernel DIR [--git] write the tree into DIR; with --git it is a git
#                           repository of one commit, tagged pristine;
#                           its Makefile says Linux $FAKE_KERNEL_VERSION
#                           (VERSION.PATCHLEVEL.SUBLEVEL, default 6.12.0)
#
# The tree: a Makefile that plays allnoconfig (the fragment as .config),
# olddefconfig (drops each symbol the top Kconfig does not define, as
# kconfig would) and bzImage (the running kernel's raw BTF as vmlinux and
# as the bzImage's payload; the release is VERSION.PATCHLEVEL.SUBLEVEL,
# then CONFIG_LOCALVERSION, then make's LOCALVERSION), a Kconfig, a
# scripts/extract-vmlinux that prints its argument, kvm_guest.config, a
# rule for one object (DIR/FILE.o: gcc, W=1, C=1 with a fake checker), and
# net/core/sock.c and net/core/dev_addr_lists.c for patches to change
# (numbered one-line functions, so a hunk's context is unique).
#
# Each line of the Makefile's allnoconfig recipe is what a test that
# edits it (test-series-sandbox.sh) looks for: keep them as they are.

fake_kernel_need() {
	tap_need_root
	command -v bwrap >/dev/null || { echo "1..0 # SKIP bwrap is missing (apt-get install bubblewrap)"; exit 0; }
	[ -r /sys/kernel/btf/vmlinux ] || { echo "1..0 # SKIP no /sys/kernel/btf/vmlinux to stand for a vmlinux"; exit 0; }
}

# The symbols the fake Kconfig defines.
FAKE_KERNEL_SYMBOLS="NET BPF HYPERVISOR_GUEST LOCALVERSION INITRAMFS_SOURCE"

fake_kernel() {
	local dir=$1 git=${2:-} f i s
	mkdir -p "$dir/kernel/configs" "$dir/scripts" "$dir/net/core"
	cat >"$dir/Makefile" <<'EOF'
VERSION = 6
PATCHLEVEL = 12
SUBLEVEL = 0
EXTRAVERSION =
KCONFIG_CONFIG ?= .config
allnoconfig:
	cat $(KCONFIG_ALLCONFIG) >$(O)/$(KCONFIG_CONFIG)
olddefconfig:
	awk 'NR == FNR { if ($$1 == "config" || $$1 == "menuconfig") k["CONFIG_" $$2]; next } \
		{ s = $$0; sub(/^# /, "", s); sub(/[= ].*/, "", s) } s in k' \
		Kconfig $(O)/$(KCONFIG_CONFIG) >$(O)/$(KCONFIG_CONFIG).kept
	mv $(O)/$(KCONFIG_CONFIG).kept $(O)/$(KCONFIG_CONFIG)
bzImage:
	mkdir -p $(O)/arch/x86/boot/compressed $(O)/include/config
	cp $(CURDIR)/btf.raw $(O)/vmlinux
	cp $(O)/vmlinux $(O)/arch/x86/boot/compressed/vmlinux.bin
	cp $(O)/vmlinux $(O)/arch/x86/boot/bzImage
	echo $(VERSION).$(PATCHLEVEL).$(SUBLEVEL)$$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$$/\1/p' $(O)/.config)$(LOCALVERSION) \
		>$(O)/include/config/kernel.release
.PHONY: allnoconfig olddefconfig bzImage
EOF
	# The version kernel/build.sh reads (--kernel-version checks it).
	local v=${FAKE_KERNEL_VERSION:-6.12.0}
	sed -i -e "1s/=.*/= ${v%%.*}/" -e "2s/=.*/= $(echo "$v" | cut -d. -f2)/" \
		-e "3s/=.*/= ${v##*.}/" "$dir/Makefile"
	# One object, as kbuild's "make O=DIR W=1 C=1 DIR/FILE.o" (the review's
	# per-patch checks): syncconfig's stand-in (the config loses each
	# symbol this tree's Kconfig does not define, as kbuild's rewrite of
	# .config would), kbuild's "  CC" and "  CHECK" lines, gcc (W=1
	# adds warnings), then $(CHECK), sparse's stand-in, which prints each
	# "checker: TEXT */" line of the file as a warning. Appended: the
	# lines above are what other tests look for.
	cat >>"$dir/Makefile" <<'EOF'
CHECK = $(CURDIR)/scripts/fake-checker
%.o: %.c FORCE | fake-syncconfig
	@echo "  CC      $@"
	@mkdir -p $(O)/$(@D)
	@gcc -c -Wall $(if $(W),-Wextra -Wmissing-prototypes) $(KCFLAGS) -o $(O)/$@ $(CURDIR)/$<
	@if [ -n "$(C)" ]; then echo "  CHECK   $(CURDIR)/$<"; $(CHECK) $(CURDIR)/$<; fi
fake-syncconfig:
	@awk 'NR == FNR { if ($$1 == "config") k["CONFIG_" $$2]; next } \
		{ s = $$0; sub(/^# /, "", s); sub(/[= ].*/, "", s) } s in k' \
		Kconfig $(O)/$(KCONFIG_CONFIG) >$(O)/$(KCONFIG_CONFIG).sync
	@cmp -s $(O)/$(KCONFIG_CONFIG).sync $(O)/$(KCONFIG_CONFIG) || cp $(O)/$(KCONFIG_CONFIG).sync $(O)/$(KCONFIG_CONFIG)
	@rm -f $(O)/$(KCONFIG_CONFIG).sync
FORCE:
.PHONY: fake-syncconfig
EOF
	cat >"$dir/scripts/fake-checker" <<'EOF'
#!/bin/sh
# FILE:LINE:1: warning: TEXT for each "checker: TEXT */" line of FILE
awk -v f="$1" 'match($0, /checker: .* \*\//) { print f ":" FNR ":1: warning: " substr($0, RSTART + 9, RLENGTH - 12) }' "$1"
EOF
	chmod 755 "$dir/scripts/fake-checker"
	for s in $FAKE_KERNEL_SYMBOLS; do printf 'config %s\n\tbool\n\n' "$s"; done >"$dir/Kconfig"
	printf '#!/bin/sh\ncat "$1"\n' >"$dir/scripts/extract-vmlinux"
	chmod 755 "$dir/scripts/extract-vmlinux"
	echo "CONFIG_HYPERVISOR_GUEST=y" >"$dir/kernel/configs/kvm_guest.config"
	cp /sys/kernel/btf/vmlinux "$dir/btf.raw"
	for f in sock dev_addr_lists; do
		{
			echo "// SPDX-License-Identifier: GPL-2.0-only"
			echo "/* net/core/$f.c of a fake kernel tree */"
			for i in $(seq 1 24); do echo "int ${f}_$i(void) { return $i; }"; done
		} >"$dir/net/core/$f.c"
	done
	[ "$git" = --git ] || return 0
	git -C "$dir" init -q
	git -C "$dir" add -A
	GIT_AUTHOR_DATE='@1733000000 +0000' GIT_COMMITTER_DATE='@1733000000 +0000' \
		git -C "$dir" -c user.name=t -c user.email=t@example.invalid commit -q -m base
	git -C "$dir" tag pristine
}
