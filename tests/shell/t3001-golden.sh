#!/bin/sh
# Golden reports: the fixture recordings (tests/fixtures/*.dat, made by
# tests/fixtures/make-report-fixtures.sh) give exactly the stored text and json.
. "$(dirname "$0")/../test-lib.sh"

cd "$TOP" || exit 1
for dat in tests/fixtures/*.dat; do
	name=${dat%.dat}
	[ -f "$name.report.txt" ] || continue
	expect "$(basename "$name"): text report" \
		"'$BOOTPROF' report '$dat' >'$TEST_DIR/out.txt' && diff -u '$name.report.txt' '$TEST_DIR/out.txt'"
	expect "$(basename "$name"): json report" \
		"'$BOOTPROF' report --format json '$dat' >'$TEST_DIR/out.json' && diff -u '$name.report.json' '$TEST_DIR/out.json'"
	expect "$(basename "$name"): the report fits 100 columns" \
		"awk 'length > 100 { exit 1 }' '$name.report.txt'"
done
