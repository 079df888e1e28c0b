#!/bin/sh
# bootprof chart: usage errors, a valid (xmllint) and deterministic SVG
# equal to its golden file, one lane per process of the report (and the
# "others" lane when folding), one strip per disk whose bytes and requests
# in flight match the block layer's, and a real browser (Debian's chromium,
# headless) that loads it, finds the lanes in its DOM with a size, and
# draws a picture that is not blank.
. "$(dirname "$0")/../test-lib.sh"

FIX=$TOP/tests/fixtures
REC=$FIX/basic.dat
command -v jq >/dev/null || skip_all "jq not installed (scripts/deps.sh check)"

# 1. Usage and failures.
expect "without -o the chart is FILE.svg beside the recording, said on stderr" '
	cp "$REC" "$TEST_DIR/beside.dat" && "$BOOTPROF" chart "$TEST_DIR/beside.dat" 2>"$TEST_DIR/err" &&
	cat "$TEST_DIR/err" && grep -qx "bootprof: wrote '"'$TEST_DIR/beside.svg'"'" "$TEST_DIR/err" &&
	"$BOOTPROF" chart "$TEST_DIR/beside.dat" -o - | cmp - "$TEST_DIR/beside.svg"'
expect "... and not over an existing one without --force (1)" '
	"$BOOTPROF" chart "$TEST_DIR/beside.dat"; [ $? -eq 1 ]'
expect "a bad --since is a usage error (2)" '"$BOOTPROF" chart --since 1x "$REC" -o -; [ $? -eq 2 ]'
expect "a bad --min-bytes is a usage error (2)" \
	'"$BOOTPROF" chart --min-bytes lots "$REC" -o -; [ $? -eq 2 ]'
expect "--until before --since is a usage error (2)" \
	'"$BOOTPROF" chart --since 2 --until 1 "$REC" -o -; [ $? -eq 2 ]'
expect "a missing recording fails (1) with one line" '
	"$BOOTPROF" chart "$TEST_DIR/none.dat" -o "$TEST_DIR/x.svg" 2>"$TEST_DIR/err"; rc=$?
	cat "$TEST_DIR/err"; [ $rc -eq 1 ] && [ $(wc -l <"$TEST_DIR/err") -eq 1 ] &&
	[ ! -e "$TEST_DIR/x.svg" ]'
expect "a window without events fails (1)" \
	'"$BOOTPROF" chart --since 1000 "$REC" -o -; [ $? -eq 1 ]'

# 2. The SVG.
SVG=$TEST_DIR/basic.svg
expect "chart writes the SVG" '"$BOOTPROF" chart "$REC" -o "$SVG" && [ -s "$SVG" ]'
expect "an existing output is kept without --force (1)" '
	"$BOOTPROF" chart "$REC" -o "$SVG"; [ $? -eq 1 ] && [ -s "$SVG" ]'
expect "--force overwrites it, with the same bytes (deterministic)" '
	cp "$SVG" "$TEST_DIR/first.svg" && "$BOOTPROF" chart "$REC" -o "$SVG" --force &&
	cmp "$SVG" "$TEST_DIR/first.svg"'
if command -v xmllint >/dev/null; then
	expect "xmllint: well-formed XML" 'xmllint --noout "$SVG"'
else
	skip "xmllint: well-formed XML" "xmllint not installed (libxml2-utils)"
fi
expect "self-contained: no script, no link, no external reference" '
	! grep -E "<script|href=|url\(|@import|<image|<foreignObject" "$SVG"'
expect "equal to tests/fixtures/basic.chart.svg (tests/fixtures/make-chart-fixtures.sh)" '
	sed "s|$REC|basic.dat|" "$SVG" | diff -u "$FIX/basic.chart.svg" - | head -n 40
	sed "s|$REC|basic.dat|" "$SVG" | cmp -s - "$FIX/basic.chart.svg"'

# One lane per process of the report, none missing, none twice.
"$BOOTPROF" report --format json "$REC" | jq -r '.processes[] | "[\(.pid)]"' | sort \
	>"$TEST_DIR/pids.report"
grep -o '\[[0-9]*\]</text></g>$' "$SVG" | sed 's/<.*//' | sort >"$TEST_DIR/pids.chart"
expect "one lane per process of the report" '
	[ -s "$TEST_DIR/pids.report" ] && diff "$TEST_DIR/pids.report" "$TEST_DIR/pids.chart"'
# The workload's find and its parent, the shell that ran it, by name.
"$BOOTPROF" report --format json "$REC" >"$TEST_DIR/report.json"
find_pid=$(jq '[.processes[] | select(.comm == "find")] | if length == 1 then .[0].pid else empty end' \
	"$TEST_DIR/report.json")
sh_pid=$(jq --argjson f "${find_pid:-0}" \
	'.processes[] | select(.comm == "sh" and (.children | index($f))) | .pid' "$TEST_DIR/report.json")
expect "lanes are in tree order: find [$find_pid] indented under its parent sh [$sh_pid], with its siblings" '
	grep -o "<text x=\"[0-9]*\" y=\"[0-9]*\">[^<]*</text></g>" "$SVG" |
		sed "s/<text x=\"\([0-9]*\)\"[^>]*>\([^<]*\)<.*/\1 \2/" >"$TEST_DIR/order"
	jq -r ".processes[] | select(.pid == $sh_pid) | .children[]" "$TEST_DIR/report.json" |
		sort >"$TEST_DIR/children"
	# The lanes after the shell'"'"'s, up to the next one as far left as it.
	awk -v sh="sh [$sh_pid]" "
		\$0 == \"4 \" sh { in_ = 1; next }
		in_ && \$1 <= 4 { exit }
		in_ { print }" "$TEST_DIR/order" >"$TEST_DIR/under"
	grep -q "^12 find \[$find_pid\]\$" "$TEST_DIR/under" &&
	sed -n "s/^12 .*\[\([0-9]*\)\]\$/\1/p" "$TEST_DIR/under" | sort | diff "$TEST_DIR/children" -'
# The report's header lines, as text: "lost events: N", "attributed: P% of SIZE".
lost=$("$BOOTPROF" report "$REC" | sed -n "s/^\(lost events: [0-9]*\)\$/\1/p")
attributed=$("$BOOTPROF" report "$REC" | sed -n "s/^\(attributed: [0-9.]*% of [0-9.]* [KMG]*i*B\) .*/\1/p")
expect "the header says lost events and the attributed share, as report does ($lost, $attributed)" '
	[ -n "$lost" ] && [ -n "$attributed" ] && grep -qF "$lost" "$SVG" && grep -qF "$attributed" "$SVG"'

# Per-disk strips, checked against the block layer: the bytes summed over a
# strip's buckets (its tooltip) are the disk's rq_read_bytes in the report,
# and the requests in flight (most at once, never completed) are those of
# block_rq_issue/complete in the dump, matched by dev and sector here.
disk_truth() { # REC: "NAME READ_BYTES MOST_IN_FLIGHT UNFINISHED" per disk read from
	"$BOOTPROF" report --format json "$1" |
		jq -r '.disks[] | select(.rq_read_bytes > 0) | "\(.dev) \(.name) \(.rq_read_bytes)"' \
		>"$TEST_DIR/disks.json"
	"$BOOTPROF" dump --events block:block_rq_issue,block:block_rq_complete "$1" | awk '
	function fields(   i) {
		for (i = 1; i <= NF; i++) if ($i ~ /^block_rq_/) break
		dev = $(i + 1); sub(",", ":", dev)
		for (; i <= NF; i++) if ($i == "()") break
		sector = $(i + 1); n = $(i + 3)
	}
	/ block_rq_issue: / {
		fields()
		if (n > 0 && !((dev, sector) in left)) {
			left[dev, sector] = n
			if (++now[dev] > most[dev]) most[dev] = now[dev]
		}
	}
	/ block_rq_complete: / {
		fields()
		if (!((dev, sector) in left)) next
		l = left[dev, sector]; delete left[dev, sector]
		if (n > 0 && n < l) left[dev, sector + n] = l - n; else now[dev]--
	}
	END {
		for (k in left) { split(k, a, SUBSEP); open_[a[1]]++ }
		for (d in most) print d, most[d], open_[d] + 0
	}' >"$TEST_DIR/flight.dump"
	while read -r dev name bytes; do
		echo "$name $bytes $(awk -v d="$dev" '$1 == d { print $2, $3 }' "$TEST_DIR/flight.dump")"
	done <"$TEST_DIR/disks.json"
}
disk_chart() { # SVG: the same from the per-disk strips
	grep -A2 '<g class="disk1"><title>' "$1" | sed 's/<[^>]*>//g' | awk '
	/: read [0-9]* bytes at the block layer/ { if (name != "") print name, bytes, most, open_
		name = $1; sub(":$", "", name); bytes = $3; most = ""; open_ = 0 }
	/requests in flight.*at most/ { most = $0; sub(".*at most ", "", most); sub(",.*", "", most) }
	/never completed in the recording/ { open_ = $1 }
	END { if (name != "") print name, bytes, most, open_ }'
}
# top-small.dat has requests that never complete before the stop.
gzip -dc "$FIX/top-small.dat.gz" >"$TEST_DIR/top-small.dat"
for rec in "$FIX/basic.dat" "$FIX/boot.dat" "$TEST_DIR/top-small.dat"; do
	name=$(basename "$rec" .dat)
	"$BOOTPROF" chart "$rec" -o "$TEST_DIR/$name-disks.svg" 2>/dev/null
	disk_truth "$rec" | sort >"$TEST_DIR/$name.truth"
	expect "$name: one strip per disk read from, with its bytes and requests in flight" '
		disk_chart "$TEST_DIR/'$name'-disks.svg" | sort >"$TEST_DIR/chart"
		echo "truth: name bytes most-in-flight unfinished"; cat "$TEST_DIR/'$name'.truth"
		[ -s "$TEST_DIR/'$name'.truth" ] && diff "$TEST_DIR/'$name'.truth" "$TEST_DIR/chart"'
done
# The count of the dump's requests left open, in the tooltip's sentence.
expect "the tooltip says the requests never completed count until the end" '
	awk "\$4 > 0 { print FILENAME, \$1, \$4 }" "$TEST_DIR"/*.truth >"$TEST_DIR/unfinished"
	cat "$TEST_DIR/unfinished"; [ -s "$TEST_DIR/unfinished" ] &&
	while read -r truth disk n; do
		grep -A3 "<g class=\"disk1\"><title>$disk: " "${truth%.truth}-disks.svg" |
			grep -q "^$n requests* never completed in the recording (completion lost or after the stop): counted in flight until the end" ||
			exit 1
	done <"$TEST_DIR/unfinished"'

# Disk throughput is what the disks completed: the largest rate a strip
# gives is the read bytes of the block_rq_complete events inside the
# window its tooltip names (dump: µs, so the bounds are taken ±1 µs) over
# that window's length, and at most those bytes over the time the disk
# was busy in the window (a request in flight, issue to completion).
tput_truth() { # DUMP DEV|all A B: "LOW HIGH BOUND" in MB/s
	awk -v dev="$2" -v a="$3" -v b="$4" '
	function fields(   i) {
		for (i = 1; i <= NF; i++) if ($i ~ /^block_rq_/) break
		d = $(i + 1); sub(",", ":", d); rw = $(i + 2)
		for (; i <= NF; i++) if ($i == "()") break
		sector = $(i + 1); n = $(i + 3)
	}
	function busy_to(t,   lo, hi) {
		lo = since > a ? since : a; hi = t < b ? t : b
		if (open_ > 0 && hi > lo) busy += hi - lo
		since = t
	}
	/ block_rq_(issue|complete): / {
		fields(); if (dev != "all" && d != dev) next
		t = $1
	}
	/ block_rq_issue: / && n > 0 && !((d, sector) in left) {
		busy_to(t); left[d, sector] = n; open_++
	}
	/ block_rq_complete: / {
		if (rw ~ /R/) {
			if (t >= a + 1e-6 && t < b - 1e-6) low += n * 512
			if (t >= a - 1e-6 && t < b + 1e-6) high += n * 512
		}
		if (!((d, sector) in left)) next
		l = left[d, sector]; delete left[d, sector]
		if (n > 0 && n < l) { left[d, sector + n] = l - n; next }
		busy_to(t); open_--
	}
	END {
		busy_to(b); len = b - a
		printf "%.3f %.3f %.3f\n", low / len / 1e6, high / len / 1e6, (busy > 0 ? high / busy / 1e6 : 0)
	}' "$1"
}
for rec in "$FIX/basic.dat" "$FIX/boot.dat"; do
	name=$(basename "$rec" .dat)
	"$BOOTPROF" dump --events block:block_rq_issue,block:block_rq_complete "$rec" >"$TEST_DIR/$name.rq"
	"$BOOTPROF" report --format json "$rec" | jq -r '.disks[] | "\(.name) \(.dev)"' >"$TEST_DIR/$name.devs"
	# "DEV RATE A B" per strip: the all-disks one and each disk's.
	grep -A1 -E '<g class="disk1?"><title>' "$TEST_DIR/$name-disks.svg" | sed 's/<[^>]*>//g' |
		sed -n 's/^\(.*\): read [0-9]* bytes.* max \([0-9.]*\) MB\/s from \([0-9.]*\) to \([0-9.]*\) s$/\1 \2 \3 \4/p
			s/^block-layer reads completed (.*), max \([0-9.]*\) MB\/s from \([0-9.]*\) to \([0-9.]*\) s;.*/all \1 \2 \3/p' |
		while read -r disk rate a b; do
			dev=$(awk -v n="$disk" '$1 == n { print $2 }' "$TEST_DIR/$name.devs")
			echo "$disk ${dev:-all} $rate $a $b $(tput_truth "$TEST_DIR/$name.rq" "${dev:-all}" "$a" "$b")"
		done >"$TEST_DIR/$name.tput"
	expect "$name: each disk strip's largest MB/s is the reads completed in its window, at most those bytes over the busy time" '
		echo "strip dev chart-MB/s from to truth-low truth-high bytes/busy"; cat "$TEST_DIR/'$name'.tput"
		[ $(wc -l <"$TEST_DIR/'$name'.tput") -ge 2 ] &&
		awk "{ if (!(\$3 >= \$6 - 0.06 && \$3 <= \$7 + 0.06 && \$3 <= \$8 + 0.06 && \$3 > 0)) bad = 1 }
			END { exit bad }" "$TEST_DIR/'$name'.tput"'
done

# Folding: processes below --min-wait share the "others" lane.
waited=$("$BOOTPROF" report --format json "$REC" | jq '[.processes[] | select(.wait_ns >= 1000000)] | length')
rest=$("$BOOTPROF" report --format json "$REC" | jq '[.processes[] | select(.wait_ns < 1000000)] | length')
expect "--min-wait 1ms: $waited lanes and one others lane of $rest processes" '
	"$BOOTPROF" chart --min-wait 1ms "$REC" -o "$TEST_DIR/fold.svg" &&
	[ $(grep -c "<g class=\"lane\">" "$TEST_DIR/fold.svg") -eq '"$waited"' ] &&
	grep -q "others ('"$rest"' processes)" "$TEST_DIR/fold.svg"'
# Folded lanes, from the report's processes (jq and awk, the rule of the
# man page): kernel threads (kthreadd and its children that never
# exec'd) without I/O wait and under 1 % of the window's CPU share one
# lane; a process forked and exited in the window, without I/O wait and
# under 1 % of the CPU, whose children with a lane are folded likewise,
# goes to one "short-lived" lane under its nearest ancestor that keeps
# its own. --all-lanes: one lane per process.
lanes_truth() { # REPORT-JSON: "LANES KTHREADS COLLAPSED"
	jq -r '.window as $w | .processes[] |
		"\(.pid) \(.ppid // 0) \(.start_ns) \(.exit_ns) \(.wait_ns) \(.run_ns) \(.exec | length) \($w.since_ns) \($w.until_ns) \(.children | join(","))"' "$1" |
	sort -k3,3nr -k1,1nr | awk '
	{
		pid = $1; ppid[pid] = $2; span = $9 - $8
		idle = $5 == 0 && $6 * 100 < span
		if ($7 == 0 && (pid == 2 || $2 == 2) && idle) { kthread[pid] = 1; nk++; next }
		own[pid] = 1; order[n++] = pid
		can[pid] = idle && $4 > 0 && $4 <= $9 && $3 > $8 && $2 > 0
		kids[pid] = $10
	}
	END {
		# Latest first: children are decided before their parents.
		for (i = 0; i < n; i++) {
			p = order[i]
			if (!can[p]) continue
			k = split(kids[p], ch, ",")
			for (j = 1; j <= k; j++) if ((ch[j] in own) && !can[ch[j]]) can[p] = 0
			# The rule needs a parent in the recording.
			if (!(ppid[p] in own) && !(ppid[p] in kthread)) can[p] = 0
		}
		for (i = 0; i < n; i++) {
			p = order[i]
			if (!can[p]) { lanes++; continue }
			for (a = ppid[p]; a in ppid; a = ppid[a])
				if ((a in own) && !can[a]) break
			if ((a in own) && !can[a]) { coll++; owner[a] = 1 } else lanes++
		}
		for (a in owner) lanes++
		print lanes + (nk > 0), nk + 0, coll + 0
	}'
}
"$BOOTPROF" report --format json "$FIX/boot.dat" >"$TEST_DIR/boot.json"
set -- $(lanes_truth "$TEST_DIR/boot.json")
nprocs=$(jq '.processes | length' "$TEST_DIR/boot.json")
"$BOOTPROF" chart "$FIX/boot.dat" -o "$TEST_DIR/folded.svg" 2>/dev/null
"$BOOTPROF" chart --all-lanes "$FIX/boot.dat" -o "$TEST_DIR/all-lanes.svg" 2>/dev/null
expect "boot: $1 lanes, $2 idle kernel threads in one, $3 short-lived children collapsed" '
	echo "lanes: $(grep -c "<g class=\"lane" "$TEST_DIR/folded.svg")"
	grep -o "kernel threads ([0-9]* idle)\|+[0-9]* short-lived" "$TEST_DIR/folded.svg" | sort | uniq -c | head
	[ $(grep -c "<g class=\"lane" "$TEST_DIR/folded.svg") -eq '"$1"' ] &&
	grep -q ">kernel threads ('"$2"' idle)</text>" "$TEST_DIR/folded.svg" &&
	[ "$(grep -o ">+[0-9]* short-lived:" "$TEST_DIR/folded.svg" | tr -dc "0-9\n" | awk "{ s += \$1 } END { print s + 0 }")" = '"$3"' ]'
expect "boot --all-lanes: one lane per process of the report ($nprocs)" '
	[ $(grep -c "<g class=\"lane" "$TEST_DIR/all-lanes.svg") -eq '"$nprocs"' ] &&
	! grep -q "short-lived\|kernel threads (" "$TEST_DIR/all-lanes.svg"'
expect "boot: folding leaves under a quarter of the lanes" '
	[ $(($(grep -c "<g class=\"lane" "$TEST_DIR/folded.svg") * 4)) -lt '"$nprocs"' ]'

# The window is on the recording clock (+T: after the first event, here the
# chart's 0); the header says where the axis is on that clock.
first=$("$BOOTPROF" report --format json --all "$REC" | jq .totals.first_ns)
at() { s=$((first + $1)); printf '%d.%06d' $((s / 1000000000)) $((s % 1000000000 / 1000)); }
secs() { s=$((first + $1)); printf '%d.%09d' $((s / 1000000000)) $((s % 1000000000)); }
expect "--since/--until +T narrow the axis" '
	"$BOOTPROF" chart --since +0.01 --until +0.02 "$REC" -o "$TEST_DIR/win.svg" &&
	grep -q "span: 0.010000 s .. 0.020000 s (10.0 ms)   recording clock: '"$(at 10000000) s .. $(at 20000000)"' s" "$TEST_DIR/win.svg"'
expect "--since/--until on the recording clock draw the same chart" '
	"$BOOTPROF" chart --since '"$(secs 10000000)"' --until '"$(secs 20000000)"' "$REC" -o "$TEST_DIR/abs.svg" &&
	cmp "$TEST_DIR/win.svg" "$TEST_DIR/abs.svg"'

# 3. A boot: PID 1's execs make the phases, the initcall plugin the initcall bars.
BOOT=$FIX/boot.dat
"$BOOTPROF" chart "$BOOT" -o "$TEST_DIR/boot.svg" 2>"$TEST_DIR/boot.err"
grep -o '<g class="phases">.*' "$TEST_DIR/boot.svg" | grep -o '<title>[^<]*</title>' |
	sed 's/<[^>]*>//g' >"$TEST_DIR/phases"
expect "boot: 0 is the kernel's start" 'grep -q "span: 0.000 s \.\." "$TEST_DIR/boot.svg"'
expect "boot: phases kernel, initramfs, init, stop, in this order" '
	cat "$TEST_DIR/phases"
	[ "$(sed "s/^[0-9.]* s: //" "$TEST_DIR/phases" | tr "\n" "|")" = \
		"kernel|initramfs /init|init /sbin/test-init|stop: file /run/test-done appeared|" ]'
expect "boot: the initramfs phase starts at the exec of /init" '
	t=$("$BOOTPROF" dump --events sched:sched_process_exec "$BOOT" | grep "filename=/init pid=1 " |
		awk "{ printf \"%.3f\", \$1 }")
	echo "exec of /init at $t s"; grep -q "^$t s: initramfs /init" "$TEST_DIR/phases"'
calls=$("$BOOTPROF" report --format json "$BOOT" | jq .plugins.initcall.count)
expect "boot: one bar per initcall of the initcall plugin ($calls)" '
	[ "$(grep -o "<rect class=\"ic\" x=" "$TEST_DIR/boot.svg" | wc -l)" -eq $((calls + 1)) ]'
# The README's picture: a systemd boot (scripts/chart-example.sh), up to
# date when its recording is in the boot cache.
EXAMPLE_REC=${BOOT_CACHE:-$TOP/tests/boot/cache}/chart-example.dat
expect "examples/chart.svg is the chart of a systemd boot, with its critical path" '
	grep -q "<title>bootprof chart: systemd-boot.dat</title>" "$TOP/examples/chart.svg" &&
	grep -q "<g class=\"cp\">" "$TOP/examples/chart.svg"'
if [ -s "$EXAMPLE_REC" ]; then
	expect "examples/chart.svg is up to date (make chart-example)" '
		"$BOOTPROF" chart "$EXAMPLE_REC" -o - 2>/dev/null |
			sed "s|$EXAMPLE_REC|systemd-boot.dat|" | cmp -s - "$TOP/examples/chart.svg"'
else
	skip "examples/chart.svg is up to date" "no systemd boot recording in the boot cache (scripts/chart-example.sh)"
fi

# 4. A real browser.
CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROMIUM" ]; then
	skip "chromium renders the chart" "chromium not installed (scripts/deps.sh check)"
	exit 0
fi
[ "$(id -u)" = 0 ] || { skip "chromium renders the chart" "needs root (--no-sandbox)"; exit 0; }
browse() {
	prof=$(mktemp -d)
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" "$@" 2>"$TEST_DIR/chromium.err"
	rc=$?
	rm -rf "$prof"
	return $rc
}
# The page inlines the SVG; its own script (not the SVG's) counts what the
# browser laid out: lanes with a non-empty box.
{
	echo '<!DOCTYPE html><html><body>'
	sed 1d "$SVG"
	echo '<pre id="out"></pre><script>'
	echo 'var l = document.querySelectorAll("svg g.lane"), n = 0;'
	echo 'for (var i = 0; i < l.length; i++) { var b = l[i].getBBox(); if (b.width > 0 && b.height > 0) n++; }'
	echo 'var s = document.querySelector("svg").getBBox();'
	echo 'document.getElementById("out").textContent = "lanes=" + n + " of " + l.length +'
	echo '  " titles=" + document.querySelectorAll("svg g.lane > title").length +'
	echo '  " size=" + Math.round(s.width) + "x" + Math.round(s.height);'
	echo '</script></body></html>'
} >"$TEST_DIR/page.html"
n=$(wc -l <"$TEST_DIR/pids.report")
expect "chromium lays out $n lanes, each with its tooltip" '
	browse --dump-dom "file://$TEST_DIR/page.html" >"$TEST_DIR/dom.html"
	grep -o "lanes=[^<]*" "$TEST_DIR/dom.html"
	grep -q "lanes='"$n"' of '"$n"' titles='"$n"' size=1[34][0-9][0-9]x" "$TEST_DIR/dom.html"'
expect "chromium's screenshot of the SVG is not blank" '
	browse --screenshot="$TEST_DIR/shot.png" --window-size=1400,900 "file://$SVG" >/dev/null &&
	python3 "$TOP/tests/helpers/png-ink.py" "$TEST_DIR/shot.png" 0.05'
# Every text element inside the picture, as the browser lays it out (its
# bounding box, not an estimate), and the axis's labels (ticks, phases)
# clear of each other: the boot's stop label sits at the right edge.
texts_page() { # SVG: a page whose script reports texts past an edge and overlaps on the axis
	echo '<!DOCTYPE html><html><body style="margin:0">'
	sed 1d "$1"
	cat <<'EOT'
<pre id="out"></pre><script>
var s = document.querySelector("svg"), w = s.viewBox.baseVal.width;
var t = s.querySelectorAll("text"), past = [], over = [], i, j;
for (i = 0; i < t.length; i++) {
	var b = t[i].getBBox();
	if (b.x < 0 || b.x + b.width > w) past.push(t[i].textContent);
}
var a = s.querySelectorAll("g.ticks text, g.phases text");
for (i = 0; i < a.length; i++)
	for (j = i + 1; j < a.length; j++) {
		var p = a[i].getBBox(), q = a[j].getBBox();
		if (p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height)
			over.push(a[i].textContent + " / " + a[j].textContent);
	}
document.getElementById("out").textContent = "texts=" + t.length + " past=" + past.length +
	" overlaps=" + over.length + " [" + past.concat(over).join(" | ") + "]";
</script></body></html>
EOT
}
for svg in "$SVG" "$TEST_DIR/boot.svg" "$TEST_DIR/win.svg" "$TOP/examples/chart.svg"; do
	texts_page "$svg" >"$TEST_DIR/texts.html"
	expect "chromium: no text of $(basename "$svg") past the picture's edges, no axis labels overlapping" '
		browse --dump-dom "file://$TEST_DIR/texts.html" >"$TEST_DIR/texts.dom"
		grep -o "texts=[^<]*" "$TEST_DIR/texts.dom"
		grep -q "texts=[1-9][0-9]* past=0 overlaps=0 " "$TEST_DIR/texts.dom"'
done
