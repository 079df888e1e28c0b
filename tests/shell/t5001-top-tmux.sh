#!/bin/sh
# bootprof top on a terminal, driven through tmux: switch views, sort,
# filter, drill down and back, move and resize the window, help, resize
# the terminal, quit with q and with SIGTERM; then 80x24 with TERM=vt100
# and NO_COLOR. Each step asserts what the screen shows.
. "$(dirname "$0")/../test-lib.sh"

command -v tmux >/dev/null || skip_all "tmux is not installed (scripts/deps.sh check)"
[ -f "$TOP/tests/fixtures/top-small.dat.gz" ] || skip_all "no fixture top-small.dat.gz"
DAT=$TEST_DIR/top-small.dat
gzip -dc "$TOP/tests/fixtures/top-small.dat.gz" >"$DAT"

. "$TOP/tests/fixtures/top-tmux.sh"

# start W H [ENV...]: run top on the fixture in a W x H terminal.
start() {
	w=$1 h=$2
	shift 2
	rm -f "$TEST_DIR/status" "$TEST_DIR/pid"
	T new-session -d -s top -x "$w" -y "$h" \
		"env $* sh -c 'echo \$\$ >$TEST_DIR/pid; exec \"$BOOTPROF\" top \"$DAT\"' \
		 2>$TEST_DIR/stderr; echo \$? >$TEST_DIR/status; sleep 60"
}

keys() { T send-keys -t top "$@"; }

start 100 30
expect "first screen: the files view sorted by wait" "wait_for 'Files: [0-9]* of [0-9]*, by WAIT'"
expect "header: span, totals, timeline, window" \
	"wait_for '^span .* window .* lost 0' && wait_for '^read .* I/O wait .* CPU idle waiting .* never used' &&
	 wait_for '^wait  ' && wait_for '^window\\[=*\\]'"
expect "footer shows the keys" "wait_for 'F1Help.*Filter.*Sort.*Tab.*Quit'"

keys Tab
expect "Tab: the processes view" "wait_for 'Processes: [0-9]* of [0-9]*, by WAIT'"
keys s
expect "s: sorted by the next column (TREE WAIT)" "wait_for 'Processes: .*, by TREE WAIT'"
keys S S
expect "S S: back past WAIT to COMM" "wait_for 'Processes: .*, by COMM'"

keys / d d Enter
expect "/dd: only dd processes listed" \
	"wait_for 'filter: dd\$' && wait_for '^ *[0-9]* dd  ' &&
	 ! screen | grep -q '^ *[0-9]* cat  '"
keys Home Enter
expect "Enter on dd: its files" \
	"wait_for '^Process dd\\[' && wait_for 'bootprof-top-fixture/.*/data3.bin\$'"
keys Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down
keys Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down
keys Home
# The data file's row: select it, open it.
line=$(screen | grep -n 'data3.bin$' | head -n 1 | cut -d: -f1)
first=$(screen | grep -n '^ *WAIT *READ *FIRST *LAST PATH' | cut -d: -f1)
i=$((first + 1))
while [ "$i" -lt "$line" ]; do
	keys Down
	i=$((i + 1))
done
keys Enter
expect "Enter on data3.bin: its readers, dd among them" \
	"wait_for '^File /var/tmp/bootprof-top-fixture/.*/data3.bin' &&
	 wait_for 'PID COMM *WAIT *READ *FIRST *LAST' && wait_for '^ *[0-9]* dd  .* 2.0 MiB '"
keys BSpace
expect "Backspace: back to the process" "wait_for '^Process dd\\['"
keys Escape
expect "Esc: back to the processes" "wait_for 'Processes: .*filter: dd'"
keys Escape
expect "Esc at the top: filter cleared" \
	"wait_for 'Processes: [0-9]* of [0-9]*, by COMM\$'"

# The window: narrower by 60 columns, then moved right by 10.
before=$(screen | grep '^span')
i=0
while [ $i -lt 60 ]; do
	keys '['
	i=$((i + 1))
done
expect "[ x60: the window narrows, numbers rebuilt" \
	"wait_for '^window\\[=*\\] *\$' && wait_for 'rebuilt in [0-9.]* ms' &&
	 ! screen | grep -qxF '$before'"
narrow=$(screen | grep '^read ')
keys Right Right Right Right Right Right Right Right Right Right
expect "Right x10: the window moves right" "wait_for '^window          \\[=*\\]'"
expect "Right x10: totals recomputed for the window" \
	"sleep 0.5; ! screen | grep -qxF '$narrow'"
keys w
expect "w: the whole recording again" "wait_for '^window\\[=*\\]\$'"

keys '?'
expect "?: help" "wait_for 'q, Q or F10 quits; any other key returns'"
expect "help: p is the critical path" "wait_for ' p  *critical path'"
keys x
expect "a key leaves help" "wait_for 'Processes: '"

keys p
expect "p: the critical path, its end under the title" \
	"wait_for 'Critical path of the whole recording: [0-9]* rows, by MS' && wait_for '^to .* segments\$' &&
	 wait_for '^By category: 7 of 7'"
keys / t o k i o Enter
expect "/tokio: only the rows whose name holds it" \
	"wait_for 'by MS  *filter: tokio' && wait_for '^By category: 0 of 7' && wait_for 'tokio-rt-worker\\['"
keys Enter
expect "Enter on a task of the path: its process" "wait_for '^Process tokio-rt-worker\\['"
keys BSpace
expect "Backspace: back to the path, filter kept" "wait_for 'Critical path of .* filter: tokio'"
keys Escape Tab
expect "Esc, Tab: back to the files" "wait_for 'Files: [0-9]* of [0-9]*, by WAIT'"
keys Tab

T resize-window -t top -x 120 -y 30 2>/dev/null || T resize-pane -t top -x 120 -y 30
expect "terminal resized to 120: the timeline follows" \
	"wait_for '^window\\[=\\{112\\}\\]\$'"

keys q
expect "q: exit status 0" "exited && [ \"\$(cat '$TEST_DIR/status')\" = 0 ]"
expect "q: terminal restored (alternate screen off)" \
	"[ \"\$(T display -p -t top '#{alternate_on}')\" = 0 ]"
expect "q: nothing on stderr" "[ ! -s '$TEST_DIR/stderr' ]"
T kill-session -t top

start 100 30
expect "SIGTERM: running" "wait_for 'Files: '"
kill -TERM "$(cat "$TEST_DIR/pid")"
expect "SIGTERM: exits with status 0" "exited && [ \"\$(cat '$TEST_DIR/status')\" = 0 ]"
expect "SIGTERM: terminal restored" "[ \"\$(T display -p -t top '#{alternate_on}')\" = 0 ]"
T kill-session -t top

start 100 30
expect "SIGINT (Ctrl-C): running" "wait_for 'Files: '"
keys C-c
expect "Ctrl-C: exits with status 0" "exited && [ \"\$(cat '$TEST_DIR/status')\" = 0 ]"
expect "Ctrl-C: terminal restored" "[ \"\$(T display -p -t top '#{alternate_on}')\" = 0 ]"
T kill-session -t top

# A recording that cannot be read: one line, status 1, the terminal untouched.
rm -f "$TEST_DIR/status"
T new-session -d -s top -x 100 -y 30 \
	"'$BOOTPROF' top '$TEST_DIR/nosuch.dat' 2>$TEST_DIR/stderr; echo \$? >$TEST_DIR/status; sleep 60"
expect "missing recording: status 1" "exited && [ \"\$(cat '$TEST_DIR/status')\" = 1 ]"
expect "missing recording: one line on stderr" \
	"[ \$(wc -l <'$TEST_DIR/stderr') = 1 ] && grep -q \"cannot open '.*nosuch.dat'\" '$TEST_DIR/stderr'"
expect "missing recording: the screen was never taken" \
	"[ \"\$(T display -p -t top '#{alternate_on}')\" = 0 ]"
T kill-session -t top

# 80x24, a terminal without colours, and NO_COLOR.
start 80 24 TERM=vt100 NO_COLOR=1
expect "vt100 80x24: first screen" "wait_for 'Files: [0-9]* of [0-9]*, by WAIT'"
expect "vt100 80x24: footer on the last line" \
	"[ \"\$(screen | sed -n 24p | cut -c1-6)\" = 'F1Help' ]"
expect "vt100 80x24: no line wider than 80" "screen | awk 'length > 80 { exit 1 }'"
expect "vt100: no colours, reverse video for headers" \
	"T capture-pane -e -p -t top >'$TEST_DIR/attrs' &&
	 ! grep -q '\\[3[0-7]m\\|;3[0-7]m\\|\\[4[0-7]m\\|;4[0-7]m' '$TEST_DIR/attrs' &&
	 grep -q '\\[7m\\|;7m\\|\\[1;7m' '$TEST_DIR/attrs'"
keys Tab
expect "vt100 80x24: Tab works" "wait_for 'Processes: '"
keys Enter
expect "vt100 80x24: Enter works" "wait_for '^Process '"
keys q
expect "vt100 80x24: q exits 0" "exited && [ \"\$(cat '$TEST_DIR/status')\" = 0 ]"
T kill-session -t top
