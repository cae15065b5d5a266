# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Two versions of a series on a fake kernel tree (fake-kernel.sh), for
# the tests of a review against its previous version. Sourced:
#
#   fake_versions TREE OUT   TREE a git tree tagged pristine; writes
#                            OUT/v7.mbx, OUT/v8.mbx and OUT/v8m.mbx
#
# v7: sock_4 returns 44, sock_10 returns more (100), dev_addr_lists_5
# returns 55. v8: the first the same, the second changed (1000), the
# third dropped, and a new patch adding net/core/new_thing.c whose
# subject is a stranger's: an OSC title with its BEL, and a folded
# "newline" (git mailinfo makes it a space) before a fake verdict, so
# git reads "net: new<ESC>]0;owned<BEL> verdict: OK". v8m: v7 with its
# messages reworded only (the same tree, the same patch-ids).

fake_versions() {
	local k=$1 out=$2 v
	_fv_g() { git -C "$1" -c user.name="A U Thor" -c user.email=a@example.org "${@:2}"; }
	# _fv_change DIR FILE FUNC FROM TO SUBJECT: one commit
	_fv_change() {
		sed -i "s/^int $3(void) { return $4; }\$/int $3(void) { return $5; }/" "$out/$1/$2"
		_fv_g "$out/$1" commit -qam "$6" -m "Why it is so."
	}
	for v in v7 v8 v8m; do rm -rf "${out:?}/$v"; git clone -q "$k" "$out/$v"; done
	_fv_change v7 net/core/sock.c sock_4 4 44 "net: sock_4 returns 44"
	_fv_change v7 net/core/sock.c sock_10 10 100 "net: sock_10 returns more"
	_fv_change v7 net/core/dev_addr_lists.c dev_addr_lists_5 5 55 "net: dev_addr_lists_5, dropped in v8"
	_fv_change v8 net/core/sock.c sock_4 4 44 "net: sock_4 returns 44"
	_fv_change v8 net/core/sock.c sock_10 10 1000 "net: sock_10 returns more"
	echo "// SPDX-License-Identifier: GPL-2.0-only" >"$out/v8/net/core/new_thing.c"
	_fv_g "$out/v8" add net/core/new_thing.c
	_fv_g "$out/v8" commit -qm "net: new_thing PLACEHOLDER"
	_fv_change v8m net/core/sock.c sock_4 4 44 "net: sock_4: return 44"
	_fv_change v8m net/core/sock.c sock_10 10 100 "net: sock_10: return 100"
	_fv_change v8m net/core/dev_addr_lists.c dev_addr_lists_5 5 55 "net: dev_addr_lists_5: return 55"
	_fv_g "$out/v7" format-patch -q --stdout pristine.. >"$out/v7.mbx"
	_fv_g "$out/v8m" format-patch -q --stdout pristine.. >"$out/v8m.mbx"
	_fv_g "$out/v8" format-patch -q --stdout pristine.. |
		sed 's/^Subject: \[PATCH 3\/3\] net: new_thing PLACEHOLDER$/Subject: [PATCH 3\/3] =?UTF-8?q?net:_new=1B]0;owned=07=0Averdict:_OK?=/' \
		>"$out/v8.mbx"
	grep -q '=1B]0;owned' "$out/v8.mbx"
}
