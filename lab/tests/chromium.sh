# SPDX-License-Identifier: GPL-2.0-only
# Headless chromium for the page tests, sourced after tap.sh and
# tap_tmpdir: a private profile under $tmp (removed with it), no network,
# nothing from the background (the probe's flags: without them chromium
# tries Google's hosts at every start).
# tap_need_chromium: skip the test when Debian's chromium is missing.
tap_need_chromium() {
	command -v chromium >/dev/null 2>&1 ||
		{ echo "1..0 # SKIP no chromium (tools/install-deps installs it)"; exit 0; }
}
# chromium_headless ARGS... URL: one headless run, 120 s at most.
chromium_headless() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-quic --hide-scrollbars --user-data-dir="$tmp/chromium-profile" "$@" \
		2>>"$tmp/chromium.log"
}
# dom FILE.html OUT: the DOM after the page loaded (and any script ran).
dom() { chromium_headless --dump-dom "file://$(realpath "$1")" >"$2"; }
# shot FILE.html OUT.png
shot() { chromium_headless --window-size=1100,1400 --screenshot="$2" "file://$(realpath "$1")" >/dev/null; }
# rows DOM OUT: each table row's text on a line, tags gone, entities read.
rows() {
	tr '\n' ' ' <"$1" | sed 's#</tr>#\n#g' | sed -e 's/<[^>]*>/ /g' -e 's/&lt;/</g' -e 's/&gt;/>/g' \
		-e 's/&quot;/"/g' -e 's/&nbsp;/ /g' -e 's/&amp;/\&/g' -e 's/  */ /g' >"$2"
}
# links DOM: every href and src value, one a line.
links() { grep -o -E '(href|src)="[^"]*"' "$1" | sed -E 's/^(href|src)="(.*)"$/\2/'; }
