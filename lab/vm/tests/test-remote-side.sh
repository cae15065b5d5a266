#!/bin/sh
# The script the lab sends a remote host (lab/remote-side.sh) runs under
# any POSIX sh there: shellcheck finds nothing in it as sh, and dash parses
# it. Usage: test-remote-side.sh SCRIPT
script=$1
. "$(dirname "$0")/../../tests/tap.sh"
command -v shellcheck >/dev/null ||
	{ echo "1..0 # SKIP no shellcheck (apt-get install shellcheck)"; exit 0; }

out=$(shellcheck --shell=sh --severity=style "$script" 2>&1); st=$?
[ $st = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
t $st "shellcheck --shell=sh $script: nothing to say"
out=$(sh -n "$script" 2>&1); st=$?
[ $st = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
t $st "sh -n parses it"
tap_done
