#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# TAP, in a real browser: a crafted run dir (no guest boots)
# whose step output, report key and value, console and splat quote hold
# <script>, an <img onerror> and ANSI escapes. `bpfwire-lab report` renders
# it; headless chromium loads it. The DOM must show them as text, and the
# marks the scripts would leave (a title, an element, an attribute) must be
# absent. A control page with the same script, made here by hand, shows
# that chromium runs it and that the marks are seen when they are there.
# usage: test-page-hostile.sh BPFWIRE_LAB PNG_COLORS TOPOLOGY
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/chromium.sh"
lab=$1 png_colors=$2 topo=$3
tap_need_chromium
tap_tmpdir
run=$tmp/results/hostile-20260101-000000
mkdir -p "$run/steps" "$run/consoles" "$run/hosts/r"
cp "$topo" "$run/topology.topo"

script="<script>document.title='PWNED';document.body.insertAdjacentHTML('beforeend','<p id=pwned>x</p>')</script>"
img="<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">"
esc=$'\e[31mRED\e[0m\e]0;evil-title\a'
# summary.json as a guest could shape it: strings through jq, so it is valid JSON
jq -n --arg s "$script" --arg i "$img" --arg e "$esc" '{
  scenario: "hostile", summary: ("a run whose guests wrote " + $s), topology: "pair",
  verdict: "FAIL", reason: ("step 1 failed: " + $i), accel: "tcg", kernel: "/k",
  kernel_release: "6.12.0-test", kernel_series: "seed", boot_seconds: 1.5, total_seconds: 12.25,
  series: { base: "v6.12", mbox_sha256: "0123abcd",
            patches: [ { subject: ("[PATCH 1/2] bpf: ksock " + $s) }, { subject: "[PATCH 2/2] net: two" } ] },
  splats: 1, splat_text: ("r (console): WARNING: " + $s + $e + "\n"),
  steps: [
    {line: 3, op: "exec", what: ("r: echo " + $s), stdout_last: ($i + $e), stderr_last: "",
     exit: 0, seconds: 0.5, verdict: "FAIL", why: ("exit 1: " + $s)},
    {line: 4, op: "report", what: "rx from r:rx.json", seconds: 0.1, verdict: "ok"},
    {line: 5, op: "check", what: "rx.n == 1", left: 0, right: 1, values: ("rx.n = 0, " + $i),
     seconds: 0, verdict: "FAIL", why: "0 != 1"}
  ],
  reports: { ($s): { kind: "other", ($i): ($e + $s) },
             rx: { kind: "receiver", valid: 3, invalid: 0,
                   wire: { senders: { ($s): { src: $i, received: 7, lost: 2, duplicates: 0,
                                             reordered: 1, events: 7 } } } } }
}' >"$run/summary.json"
printf '%s\n%s\n%s\n' "$script" "$img" "$esc" >"$run/steps/01.out"
printf 'boot line\n[    1.0] WARNING: CPU: 0 PID: 1 at x.c:1 %s\n%s\nafter\n' "$script" "$esc" \
	>"$run/consoles/r.log"

# two neighbours in the results dir: a malformed summary.json and none at all
mkdir -p "$tmp/results/broken-20250101-000000" "$tmp/results/empty-20250101-000000"
echo '{"verdict": "PASS", <script>' >"$tmp/results/broken-20250101-000000/summary.json"

"$lab" report "$run" >"$tmp/report.out" 2>&1
t $? "bpfwire-lab report renders the crafted run"
[ -f "$run/index.html" ] && [ -f "$run/summary.md" ] && [ -f "$tmp/results/index.html" ]
t $? "index.html, summary.md and the results index written"
! grep -qi '<script' "$run/index.html"
t $? "no <script in the page's bytes"
! grep -q $'\e' "$run/index.html" "$run/summary.md" "$tmp/results/index.html"
t $? "no ESC byte in the page, the summary or the index"

dom "$run/index.html" "$tmp/dom.html"
t $? "chromium dumps the page's DOM"
! grep -qi '<script' "$tmp/dom.html"
t $? "the DOM has no script element"
! grep -q -e 'id="pwned"' -e 'data-pwned=' -e '<title>PWNED' "$tmp/dom.html"
t $? "no mark of a script that ran (title, element, attribute)"
c=$(grep -o -F "&lt;script&gt;document.title='PWNED'" "$tmp/dom.html" | wc -l)
echo "# the script shows as text $c times"
[ "$c" -ge 6 ]
t $? "the script shows as text (summary, step, why, output, report key, console)"
grep -q -F '&lt;img src=x onerror="document.body.setAttribute' "$tmp/dom.html"
t $? "the onerror image shows as text"
grep -q -F '\x1b[31mRED\x1b[0m\x1b]0;evil-title\x07' "$tmp/dom.html"
t $? "ANSI escapes show as \\xNN"
rows "$tmp/dom.html" "$tmp/rows.txt"
grep -q -F "rx wire $script $img 7 2 22.22 % 0 1 7" "$tmp/rows.txt"
t $? "a hostile sender id and source stay text in the counts row"
grep -q '<mark>' "$tmp/dom.html"
t $? "the splat line is marked"
# outside the fenced console lines, which Markdown shows as they are
! awk '/^```/ { f = !f; next } !f' "$run/summary.md" | grep -q -E '(^|[^\\])[<`]' &&
	grep -q -F '\<script\>document.title' "$run/summary.md"
t $? "summary.md: every < and backtick of guest text escaped outside the fence"

grep -q -F "<li>[PATCH 1/2] bpf: ksock &lt;script&gt;" "$tmp/dom.html" &&
	grep -q -F "<li>[PATCH 2/2] net: two</li>" "$tmp/dom.html"
t $? "the series' subjects are listed, as text"
grep -q -F '  1. \[PATCH 1/2\] bpf: ksock \<script\>' "$run/summary.md" &&
	grep -q -F '  2. \[PATCH 2/2\] net: two' "$run/summary.md"
t $? "summary.md lists the series' subjects, escaped"

dom "$tmp/results/index.html" "$tmp/index-dom.html"
rows "$tmp/index-dom.html" "$tmp/index-rows.txt"
grep -q -F ' broken-20250101-000000 summary.json: ' "$tmp/index-rows.txt" &&
	grep -q -F ' empty-20250101-000000 summary.json: ' "$tmp/index-rows.txt" &&
	grep -q -F ' hostile-20260101-000000 hostile FAIL 6.12.0-test (seed) ' "$tmp/index-rows.txt"
t $? "the results index lists the run, and the malformed and empty run dirs as such"
! grep -qi '<script' "$tmp/index-dom.html"
t $? "the results index has no script element"

# the control: the same script on a page without the lab's policy runs
printf '<!DOCTYPE html><html><head><title>control</title></head><body>%s%s</body></html>\n' \
	"$script" "$img" >"$tmp/control.html"
dom "$tmp/control.html" "$tmp/control-dom.html"
grep -q 'id="pwned"' "$tmp/control-dom.html" && grep -q '<title>PWNED' "$tmp/control-dom.html"
t $? "control: without the lab's page the script runs and its marks are seen"

shot "$run/index.html" "$tmp/shot.png"
read -r w h colours < <("$png_colors" "$tmp/shot.png")
echo "# screenshot ${w}x$h, $colours colours"
[ "${colours:-0}" -ge 16 ]
t $? "the page's screenshot is not blank"
tap_done
