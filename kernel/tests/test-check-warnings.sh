#!/bin/bash
# TAP: kernel/check-warnings.sh can fail. With check-warnings-bait.patch
# (a global without a declaration that reads a __user pointer directly)
# on top of the patched side, net/socket.o must be "not ok", with both of
# sparse's warnings named, and the script must exit 1. Only net/socket.o
# is built, twice (~20 s).
#
#   test-check-warnings.sh CHECK_WARNINGS BAIT SRC OBJ [OPTION...]
#
# OPTIONs go to check-warnings.sh (--scratch DIR for a build tree that is
# only read).
. "$(dirname "$(realpath "$0")")/../../lab/tests/tap.sh"
[ $# -ge 4 ] || { echo "Bail out! usage: test-check-warnings.sh CHECK_WARNINGS BAIT SRC OBJ [OPTION...]"; exit 1; }
check=$1 bait=$2 src=$3 obj=$4
shift 4
tap_tmpdir
"$check" --patch "$bait" --only net/socket.o "$@" "$src" "$obj" >"$tmp/out" 2>&1
rc=$?
sed 's/^/# | /' "$tmp/out"
t "$([ "$rc" = 1 ]; echo $?)" "with the bait, check-warnings.sh exits 1 (got $rc)"
t "$(grep -qE "^not ok 1 - net/socket.o: [1-9][0-9]* new warnings" "$tmp/out"; echo $?)" "net/socket.o is not ok, with new warnings"
t "$(grep -q "^#   new: net/socket.c: warning: symbol 'bpfwire_check_warnings_bait' was not declared" "$tmp/out"; echo $?)" \
	"sparse's undeclared global is named as new"
t "$(grep -q '^#   new: net/socket.c: warning: cast removes address space' "$tmp/out"; echo $?)" \
	"sparse's cast that drops __user is named as new"
tap_done
