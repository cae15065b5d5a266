#!/bin/sh
# The scenarios in DIR, one name a line, in byte order: every file whose name
# has no dot and has a lowercase letter (README.md, rx-dead.jq, names.sh and
# TEMPLATE are no scenarios). The only copy of this rule: meson's list of
# scenario tests (meson.build) and `bpfwire-lab scenarios`/`list` (lab/scenario/runner.c)
# both run this script.
# Usage: names.sh DIR
export LC_ALL=C
cd -- "${1:?usage: names.sh DIR}" || exit 2
for f in *; do
	case $f in
	*.*) ;;
	*[a-z]*) printf '%s\n' "$f" ;;
	esac
done
