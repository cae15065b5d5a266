#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# TAP: the pages of real runs in a real browser. For each SCENARIO,
# the newest run of it in RESULTS (the scenario tests of this same `meson
# test` made them: this test runs last, by priority), loaded from file:// in
# headless chromium: its verdict, every step's row, every check's values and
# every receiver count are in the DOM; every local link and image names a
# file that exists; the screenshot is not blank. The same for RESULTS'
# index. A run without index.html fails: every run writes one.
# usage: test-page-browser.sh BPFWIRE_LAB PNG_COLORS RESULTS SCENARIO...
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/chromium.sh"
lab=$1 png_colors=$2 results=$3
shift 3
tap_need_chromium
command -v jq >/dev/null || { echo "1..0 # SKIP no jq (tools/install-deps installs it)"; exit 0; }
tap_tmpdir

# every href and src of DOM $1 is relative and names a file under dir $2
check_links() {
	local dom=$1 dir=$2 n=0 bad=0 l
	while IFS= read -r l; do
		n=$((n + 1))
		case $l in
		*:* | /*) echo "# not a local link: $l"; bad=$((bad + 1)) ;;
		*) [ -f "$dir/$l" ] || { echo "# no such file: $dir/$l"; bad=$((bad + 1)); } ;;
		esac
	done < <(links "$dom")
	echo "# $n links and images checked in $dom, $bad broken"
	[ "$n" -gt 0 ] && [ "$bad" = 0 ]
}

# text as the page shows it: escape.h doubles a backslash, spaces collapse
shown() { sed -e 's/\\/\\\\/g' -e 's/  */ /g'; }

found=0
for name in "$@"; do
	run=
	for d in "$results/$name"-[0-9]*; do
		[ -f "$d/summary.json" ] && run=$d
	done
	if [ -z "$run" ]; then
		echo "# no run of $name in $results (its scenario test did not run here)"
		continue
	fi
	found=$((found + 1))
	echo "# $name: $run"
	[ -f "$run/index.html" ]
	t $? "$name: the run wrote index.html"
	[ -s "$run/summary.md" ]
	t $? "$name: the run wrote summary.md"
	dom "$run/index.html" "$tmp/$name.dom"
	t $? "$name: chromium dumps the DOM"
	rows "$tmp/$name.dom" "$tmp/$name.rows"

	v=$(jq -r .verdict "$run/summary.json")
	grep -q "class=\"verdict [a-z]*\">$v<" "$tmp/$name.dom"
	t $? "$name: the verdict $v is on the page"

	nsteps=0 missing=0
	while IFS=$'\t' read -r i line verdict what; do
		nsteps=$((nsteps + 1))
		what=$(printf '%s' "$what" | shown)
		grep -F -- " $i $line $verdict " "$tmp/$name.rows" | grep -q -F -- "$what" ||
			{ echo "# no row for step $i (line $line, $verdict): $what"; missing=$((missing + 1)); }
	done < <(jq -r '.steps | to_entries[] | [.key + 1, .value.line, .value.verdict, .value.what] | @tsv' \
		"$run/summary.json")
	echo "# $name: $nsteps steps, $missing without their row"
	[ "$nsteps" -gt 0 ] && [ "$missing" = 0 ]
	t $? "$name: every step's number, line, status and command in the DOM"

	nchecks=0 missing=0
	while IFS=$'\t' read -r line what verdict left right; do
		nchecks=$((nchecks + 1))
		what=$(printf '%s' "$what" | shown)
		grep -F -- " $line $what $verdict $left $right " "$tmp/$name.rows" >/dev/null ||
			{ echo "# no check row: $line $what $verdict $left $right"; missing=$((missing + 1)); }
	done < <(jq -r '.steps[] | select(.op == "check") |
		[.line, .what, .verdict, (.left // "-"), (.right // "-")] | @tsv' "$run/summary.json")
	echo "# $name: $nchecks checks, $missing without both values"
	[ "$missing" = 0 ]
	t $? "$name: every check with both sides' values"

	ncounts=0 missing=0
	while IFS=$'\t' read -r rep plane id src rx lost dup reord; do
		ncounts=$((ncounts + 1))
		grep -q -F -- " $rep $plane $id $src $rx $lost " "$tmp/$name.rows" &&
			grep -F -- " $rep $plane $id $src $rx $lost " "$tmp/$name.rows" | grep -q -F -- " $dup $reord " ||
			{ echo "# no count row: $rep $plane $id $src $rx $lost $dup $reord"; missing=$((missing + 1)); }
	done < <(jq -r '.reports | to_entries[] | select(.value.kind == "receiver") | .key as $r |
		.value | to_entries[] | select(.value | type == "object" and has("senders")) | .key as $p |
		.value.senders | to_entries[] |
		[$r, $p, .key, .value.src, .value.received, .value.lost, .value.duplicates, .value.reordered] | @tsv' \
		"$run/summary.json")
	echo "# $name: $ncounts receiver count rows"
	[ "$ncounts" -gt 0 ] && [ "$missing" = 0 ]
	t $? "$name: received, lost, duplicated and reordered per sender in the DOM"

	check_links "$tmp/$name.dom" "$run"
	t $? "$name: every link and image of the page names a file that exists"

	shot "$run/index.html" "$tmp/$name.png"
	read -r w h colours < <("$png_colors" "$tmp/$name.png")
	echo "# $name: screenshot ${w}x$h, $colours colours"
	[ "${colours:-0}" -ge 16 ]
	t $? "$name: the screenshot is not blank"
done
if [ "$found" = 0 ]; then
	echo "1..0 # SKIP no run of $* in $results: run their scenario tests first"
	exit 0
fi

[ -f "$results/index.html" ]
t $? "the results index exists"
dom "$results/index.html" "$tmp/index.dom"
t $? "chromium dumps the results index"
nruns=0 missing=0
for d in "$results"/*/; do
	d=${d%/}
	nruns=$((nruns + 1))
	grep -q -F ">$(basename "$d")" "$tmp/index.dom" ||
		{ echo "# not in the index: $d"; missing=$((missing + 1)); }
done
echo "# the index: $nruns run dirs, $missing missing"
[ "$missing" = 0 ]
t $? "the results index lists every run dir"
check_links "$tmp/index.dom" "$results"
t $? "every link of the results index names a file that exists"
tap_done
