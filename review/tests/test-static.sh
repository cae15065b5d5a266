#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The series' static checks: the series' own scripts/checkpatch.pl
# --strict on each of its patches, in the sandbox (review/checkpatch.sh),
# through the whole review with the fakes of tests/fake-meson.sh. The
# "built" tree is a small git tree with the real checkpatch.pl (and the
# files it reads and looks for), tag pristine, then three patches of the
# series (the second adds trailing whitespace: an ERROR; the third a
# function with no blank line before it: a CHECK) and one of
# bpfwire's lab series after them (with an error too, not the series').
#  default   exit 0: the static section names patch 2, its subject, the
#            ERROR and the file:line, and nothing of the lab patch;
#            review.json and review.eml have it; Tested-by kept; checkpatch
#            wrote as the sandbox's uid
#  --strict  exit 1, the verdict counts it; no Tested-by
#  no tree   a series.json without the series' patches: "not run", exit 0
# checkpatch.pl, spelling.txt and const_structs.checkpatch come from an
# unpacked tree ($BPFWIRE_KERNEL_TREE, SOURCE_ROOT/build*/kernel/src), else
# from /usr/src/linux-source-6.12.tar.xz (~20 s of xz), else SKIP.
#
#   test-static.sh BPFWIRE_REVIEW SOURCE_ROOT
set -u
[ $# -eq 2 ] || { echo "Bail out! usage: test-static.sh BPFWIRE_REVIEW SOURCE_ROOT"; exit 1; }
root=$(realpath "$2")
. "$root/lab/tests/tap.sh"
. "$root/kernel/tests/fake-kernel.sh"
. "$root/review/tests/fake-meson.sh"
review=$(realpath "$1")
command -v perl >/dev/null || { echo "1..0 # SKIP no perl"; exit 0; }
fake_meson_need STATIC_TEST_NS "$0" "$@"
tap_tmpdir
[ -z "${KEEP:-}" ] || trap - EXIT
fake_meson_setup

# the tree: checkpatch's files from an unpacked kernel, or the tarball
files="scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch"
mkdir -p "$tmp/tree/scripts"
from=
for d in ${BPFWIRE_KERNEL_TREE:-} "$root"/build*/kernel/src; do
	[ -f "$d/scripts/checkpatch.pl" ] && from=$d && break
done
if [ -n "$from" ]; then
	for f in $files; do cp "$from/$f" "$tmp/tree/$f"; done
elif [ -f /usr/src/linux-source-6.12.tar.xz ]; then
	from=/usr/src/linux-source-6.12.tar.xz
	tar -xJf "$from" -C "$tmp/tree" --strip-components=1 --wildcards $(printf '*/%s ' $files) 2>/dev/null
fi
[ -f "$tmp/tree/scripts/checkpatch.pl" ] || { echo "1..0 # SKIP no checkpatch.pl: no unpacked kernel tree and no linux-source-6.12 tarball"; exit 0; }
echo "# checkpatch.pl from $from"
cd "$tmp/tree"
# what checkpatch's top_of_kernel_tree looks for
mkdir -p Documentation arch include drivers fs init ipc kernel lib net/core
touch COPYING CREDITS Kbuild MAINTAINERS Makefile README
printf '// SPDX-License-Identifier: GPL-2.0-only\nint x_1(void)\n{\n\treturn 1;\n}\n' >net/core/x.c
g() { git -c user.name="A U Thor" -c user.email=a@example.org "$@"; }
g init -q && g add -A && g commit -qm base && g tag pristine
# commit SUBJECT: a commit of what changed, signed off
commit() { g commit -qam "$1" -m "Why it is so." -m "Signed-off-by: A U Thor <a@example.org>"; }
sed -i 's/return 1;/return 2;/' net/core/x.c && commit "net: x: return 2"
sed -i 's/return 2;/return 3; /' net/core/x.c && commit "net: x: return 3"
printf 'int x_2(void)\n{\n\treturn 4;\n}\n' >>net/core/x.c && commit "net: x: add x_2()"
sed -i 's/return 4;/return 5;  /' net/core/x.c && commit "lab: not the series'"
cd - >/dev/null
cat >"$tmp/series.json" <<'EOF'
{ "patches": [
  { "series": "user", "subject": "net: x: return 2" },
  { "series": "user", "subject": "net: x: return 3" },
  { "series": "user", "subject": "net: x: add x_2()" },
  { "series": "lab", "subject": "lab: not the series'" } ] }
EOF
printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: T <t@example.invalid>" "Subject: [PATCH 0/3] t" \
	"Message-ID: <t@example.invalid>" "" "t" >"$tmp/t.mbx"

# run NAME [ARGS]: a review; $rc, $out, $res (its results dir)
run() {
	local name=$1
	shift
	out=$tmp/$name.out
	fake_meson_forget_base
	SECONDS=0
	env PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/base" --name static \
		--tests kernel-suite --source "$tmp/src" "$@" "$tmp/t.mbx" >"$out" 2>&1
	rc=$? took=$SECONDS
	sed "s/^/#   /" "$out" | grep -v "^#     kernel: " | tail -n 16
	res=$(sed -n 's/^results: //p' "$out")
}
has() { grep -qF -- "$1" "$out"; }

run default
t $([ "$rc" = 0 ] && echo 0) "default: exit 0 (got $rc): a static finding is not worse"
has "static: checkpatch.pl --strict of the series' tree on each of its 3 patches: 1 errors, 0 warnings, 1 checks (not counted as worse" &&
	has '  patch 2 "net: x: return 3": ERROR TRAILING_WHITESPACE: trailing whitespace (net/core/x.c:4)' &&
	has '  patch 3 "net: x: add x_2()": CHECK LINE_SPACING: ' &&
	! grep -q "lab: not the series\|patch 4" "$out"
t $? "default: the section names patch 2, its subject, the ERROR and where, patch 3's CHECK; nothing of the lab series' patch"
[ "$(jq -r '.static | "\(.patches) \(.errors) \(.counted_as_worse) \(.findings[0].patch) \(.findings[0].type)"' "$res/review.json" 2>&1)" = "3 1 0 2 TRAILING_WHITESPACE" ]
t $? "default: review.json's static: 3 patches, 1 error, none counted, patch 2's TRAILING_WHITESPACE"
git mailinfo -k "$tmp/msg" "$tmp/patch" <"$res/review.eml" >/dev/null &&
	grep -q "^static: checkpatch.pl --strict .* 1 errors" "$tmp/msg" && grep -qF '  patch 2 "net: x: return 3": ERROR' "$tmp/msg" &&
	grep -qx "Tested-by: bpfwire <bpfwire@example.invalid>" "$tmp/msg"
t $? "default: review.eml has the static section, and Tested-by"
uid=$("$root/kernel/sandbox.sh" --uid)
[ "$(stat -c %u "$tmp/build-review-static/static/0002.checkpatch" 2>&1)" = "$uid" ] && has "static: checkpatch.pl --strict of the series' tree on each of its 3 patches, in the sandbox"
t $? "default: checkpatch ran in the sandbox, as uid $uid (the whole review took $took s)"

run strict --strict
t $([ "$rc" = 1 ] && echo 0) "--strict: exit 1 (got $rc)"
has "verdict: WORSE (0 worse than the baseline, 1 static findings under --strict)" &&
	[ -f "$res/review.eml" ] && ! grep -q "^Tested-by:" "$res/review.eml"
t $? "--strict: the verdict counts the error (not the CHECK); no Tested-by"

echo '{ "patches": [ { "series": "lab", "subject": "x" } ] }' >"$tmp/series.json"
run none
t $([ "$rc" = 0 ] && has "static: checkpatch.pl --strict not run: the build's kernel/series.json names no patch of the series" && echo 0) \
	"a series.json without the series' patches: not run, said, exit 0 (got $rc)"
tap_done
