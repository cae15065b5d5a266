#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The review suite: series made now from build-up's tree
# (make-series.sh) reviewed against build-up, one after another in one
# build directory, so that each kernel build after the first is
# incremental. Only kernel-suite runs in each review (the suite's time
# budget); by hand, `./run review` runs agent-guest and the scenarios too.
#
#   test-review.sh BPFWIRE_REVIEW MAKE_SERIES UP_BUILD
#
# 1. the v8 (the reserved check dropped): exit 1, and the worse items are
#    exactly kernel-suite, its case "up ksock_create: reserved 1 -> EINVAL"
#    and its case of kernel-tests' exit status
# 2. the upstream series unchanged: exit 0, nothing worse
# 3. a changed kfunc prototype: it builds, the API is unknown, the ksock
#    cases are SKIP with that reason and bpf_ksock_send's prototype, as
#    the kernel has it, is in the review
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
review=$1 make=$2 up=$3
tap_need_root
[ -d "$up/kernel/src/.git" ] || { echo "1..0 # SKIP no $up/kernel/src: build-up is built by ./run tests first"; exit 0; }
tap_tmpdir
name=review-suite

# review MODE: the mbox made, reviewed; $st its exit status, $json its review.json
review() {
	"$make" "$1" "$up/kernel/src" "$tmp/ksock-$1.mbx" >"$tmp/$1.make" 2>&1 || { cat "$tmp/$1.make"; st=99; json=; return; }
	# --retries 0: the v8 is worse in every run, and each rerun is two more
	# kernel suites in guests (review-flakes tests the reruns)
	"$review" --name "$name" --base "$up" --tests kernel-suite --retries 0 "$tmp/ksock-$1.mbx" >"$tmp/$1.out" 2>&1
	st=$?
	sed 's/^/# /' "$tmp/$1.out" | grep -v '^#  *\[' | tail -n 40
	json=$(sed -n 's/^results: //p' "$tmp/$1.out" | tail -n 1)/review.json
}

# show MODE: its review's output on stderr when one of its lines failed
seen=0
show() { [ "$nfail" = "$seen" ] || { seen=$nfail; tap_show "$tmp/$1.make" 20; tap_show "$tmp/$1.out" 120; }; }

review v8
t $([ "$st" = 1 ] && echo 0) "v8: exit 1 (got $st)"
worse=$(jq -r '.items[] | select(.mark == "WORSE") | .kind + " " + .test + ": " + .what' "$json" 2>/dev/null | sort)
want=$(printf '%s\n' "case kernel-suite: up ksock_create: reserved 1 -> EINVAL" \
	"case kernel-suite: guest: kernel-tests exited 1" "test kernel-suite: " | sort)
t $([ "$worse" = "$want" ] && echo 0) "v8: exactly the reserved case, kernel-tests' status and their test are worse"
[ "$worse" = "$want" ] || printf "# worse: %s\n" "$worse" | tee /dev/stderr
t $(grep -q '^verdict: WORSE' "$tmp/v8.out" && echo 0) "v8: the verdict line says WORSE"
t $(grep -q '^caveat: .*the verdict is advisory$' "$tmp/v8.out" && echo 0) "v8: the caveat line under it"
# The series is a stranger's: its kernel was built by the sandbox's uid.
kd=$(realpath "$(dirname "$make")/../..")/build-review-$name/kernel
t $([ "$(stat -c %u "$kd/sbx/src" 2>/dev/null)" = "$("$(dirname "$make")/../../kernel/sandbox.sh" --uid)" ] &&
	[ "$(stat -c %u "$kd/bzImage")" = 0 ] && grep -q 'sandbox: the build runs as uid' "$tmp/v8.out" && echo 0) \
	"v8: its kernel was built in the sandbox (sbx/src is uid $(stat -c %u "$kd/sbx/src" 2>/dev/null)'s), root took the bzImage"
show v8

review copy
t $([ "$st" = 0 ] && echo 0) "unchanged upstream series: exit 0 (got $st)"
t $([ "$(jq -r .worse "$json" 2>/dev/null)" = 0 ] && echo 0) "unchanged upstream series: nothing worse in review.json"
t $([ "$(jq -r '.same.case' "$json" 2>/dev/null)" -gt 50 ] 2>/dev/null && echo 0) "unchanged upstream series: the cases compared ($(jq -r .same.case "$json" 2>/dev/null) the same)"
show copy

review proto
t $([ "$st" = 0 ] || [ "$st" = 1 ] && echo 0) "changed prototype: it built and was reviewed (exit $st, not 2)"
t $([ "$(jq -r .ksock_api "$json" 2>/dev/null)" = unknown ] && echo 0) "changed prototype: the ksock API is unknown"
skips=$(jq -r '[.items[] | select(.review == "skip" and (.note | contains("ksock API unknown")))] | length' "$json" 2>/dev/null)
t $([ "${skips:-0}" -gt 0 ] && echo 0) "changed prototype: $skips ksock cases SKIP, the reason the unknown API"
t $(jq -r '.prototypes["kernel-suite"]' "$json" 2>/dev/null | grep -q 'bpf_ksock_send(.*u32 data__sz, u64 flags)' && echo 0) "changed prototype: review.json shows bpf_ksock_send's prototype as the kernel has it"
t $(grep -q 'bpf_ksock_send(.*u64 flags)' "$tmp/proto.out" && echo 0) "changed prototype: so does the text"
show proto
tap_done
