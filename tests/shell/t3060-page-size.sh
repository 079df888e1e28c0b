#!/bin/sh
# The page size is the recorded kernel's page, never the ring buffer's nor
# the reading machine's. fixtures/boot.dat (a 4 KiB-page x86_64 boot) is
# written again with each ring-buffer page padded to 8 and 16 KiB, as a
# kernel with a larger sub-buffer (buffer_subbuf_size_kb, Linux 6.7+) would
# have recorded the same events (tests/fixtures/rewrite.c): the events are
# the same, the report's page size is the one the filemap format states
# ("index << 12", read here from the format text), and every byte count is
# the original's. Read as ring-buffer pages, they would double and quadruple.
. "$(dirname "$0")/../test-lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

dat=$TOP/tests/fixtures/boot.dat
case "$BUILD" in *asan*) san="-fsanitize=address,undefined" ;; *) san= ;; esac
[ -e "$BUILD/libbootprof.a" ] && cc -std=gnu11 -D_GNU_SOURCE $san -I"$TOP/src" -o "$TEST_DIR/rewrite" \
	"$TOP/tests/fixtures/rewrite.c" "$BUILD/libbootprof.a" $(pkg-config --libs libtraceevent libzstd) \
	2>"$TEST_DIR/.cc-err" || skip_all "cannot build tests/fixtures/rewrite.c: $(head -n 1 "$TEST_DIR/.cc-err")"

# PAGE_SHIFT as the recorded kernel compiled it into the filemap format.
shift=$(trace-cmd report --events "$dat" 2>/dev/null |
	sed -n '/^name: mm_filemap_add_to_page_cache$/,/^print fmt/s/.*REC->index << \([0-9]*\).*/\1/p')
[ -n "$shift" ] || shift=12
page=$((1 << shift))
echo "# the recorded kernel's page: $page bytes (index << $shift)"
nums='[.recording.page_size, .totals.read_bytes, .totals.metadata_bytes, .totals.reread_bytes,
	.totals.never_used_bytes, .totals.mapped_unknown_bytes,
	([.files[] | [.path, .bytes_read, .never_used_bytes, .reread_bytes]])]'
"$BOOTPROF" report --format json "$dat" | jq -c "$nums" >"$TEST_DIR/orig"
"$BOOTPROF" dump "$dat" | grep -v '^#' >"$TEST_DIR/orig.dump"
echo "# original: $(cut -c1-80 "$TEST_DIR/orig")"
for ps in 8192 16384; do
	expect "padded to $ps-byte ring-buffer pages" \
		"'$TEST_DIR/rewrite' '$dat' '$TEST_DIR/p$ps.dat' $ps &&
		 '$BOOTPROF' dump --meta '$TEST_DIR/p$ps.dat' | grep -qx '# cpus: [0-9]*, page size $ps'"
	expect "$ps: the same events" \
		"'$BOOTPROF' dump '$TEST_DIR/p$ps.dat' | grep -v '^#' | cmp -s - '$TEST_DIR/orig.dump'"
	"$BOOTPROF" report --format json "$TEST_DIR/p$ps.dat" | jq -c "$nums" >"$TEST_DIR/p$ps"
	echo "# $ps: $(cut -c1-80 "$TEST_DIR/p$ps")"
	expect "$ps: the report's page size is the kernel's ($page)" \
		"[ \"\$(jq '.[0]' '$TEST_DIR/p$ps')\" = $page ]"
	expect "$ps: every byte count is the original's" "cmp -s '$TEST_DIR/orig' '$TEST_DIR/p$ps'"
done
