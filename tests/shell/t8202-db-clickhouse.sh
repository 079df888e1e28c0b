#!/bin/sh
# The fleet path in a real ClickHouse (Debian's clickhouse-server, 18.16):
# the tables of 'bootprof db schema --clickhouse' as documented, loaded
# with 'db export --format jsonl' of the fixture recordings through
# INSERT ... FORMAT JSONEachRow, and every examples/fleet query run on both:
# the same rows as SQLite ('bootprof db add'), numbers compared as numbers
# (ClickHouse prints 0 where SQLite prints 0.0) and NULL as empty.
# A private server: its own config, data and port in the test directory.
. "$(dirname "$0")/../test-lib.sh"
for t in clickhouse-server clickhouse-client sqlite3; do
	command -v $t >/dev/null 2>&1 || [ -x /usr/sbin/$t ] || skip_all "$t not installed"
done
SERVER=$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)
USERS=/etc/clickhouse-server/users.xml
[ -r "$USERS" ] || skip_all "no $USERS (clickhouse-server's users)"
cd "$TOP" || exit 1
T=$TEST_DIR
server_pid=
stop_server() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	server_pid=
}
trap 'stop_server; [ -n "$KEEP_TEST_DIR" ] && echo "# kept $TEST_DIR" || rm -rf "$TEST_DIR"' EXIT
trap 'exit 1' INT TERM

# A free port: the server says so in its log when it cannot listen; try another.
for try in 1 2 3 4 5; do
	port=$((20000 + ($$ * 7 + try * 1009) % 30000))
	cat >"$T/config.xml" <<EOT
<?xml version="1.0"?>
<yandex>
    <logger><level>warning</level><console>1</console></logger>
    <tcp_port>$port</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <path>$T/ch/</path>
    <tmp_path>$T/ch/tmp/</tmp_path>
    <users_config>$USERS</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <mark_cache_size>5368709</mark_cache_size>
</yandex>
EOT
	"$SERVER" --config-file="$T/config.xml" >"$T/server.log" 2>&1 &
	server_pid=$!
	i=0
	while [ $i -lt 60 ] && kill -0 $server_pid 2>/dev/null &&
		! clickhouse-client --port $port --query 'SELECT 1' >/dev/null 2>&1; do
		sleep 0.5
		i=$((i + 1))
	done
	clickhouse-client --port $port --query 'SELECT 1' >/dev/null 2>&1 && break
	stop_server
done
[ -n "$server_pid" ] || { not_ok "start clickhouse-server: $(tail -n 1 "$T/server.log")"; exit 0; }
CH="clickhouse-client --port $port"
version=$($CH --query 'SELECT version()')
echo "# clickhouse-server $version on port $port"

DB=$T/fleet.db
"$BOOTPROF" db add "$DB" tests/fixtures/*.dat 2>"$T/add.err"
n=$(sqlite3 "$DB" 'SELECT COUNT(*) FROM recordings')
echo "# $n recordings in SQLite"

# The documented tables, as 'db schema --clickhouse' prints them.
$CH --query 'CREATE DATABASE bootprof'
"$BOOTPROF" db schema --clickhouse | grep -v '^--' | tr '\n' ' ' | tr ';' '\n' |
	grep -v '^ *$' >"$T/schema.sql"
fail=0
while read -r q; do
	$CH --query "$q" 2>>"$T/create.err" || fail=1
done <"$T/schema.sql"
tables=$($CH --query "SELECT count() FROM system.tables WHERE database = 'bootprof'")
expect "the documented schema's $(wc -l <"$T/schema.sql") tables are created in ClickHouse $version" \
	"[ $fail = 0 ] && [ '$tables' = $(wc -l <"$T/schema.sql") ]"

for table in recordings phases processes files services; do
	rows=$(sqlite3 "$DB" "SELECT COUNT(*) FROM $table")
	# ClickHouse refuses an INSERT without rows.
	[ "$rows" = 0 ] || "$BOOTPROF" db export --format jsonl "$DB" $table |
		$CH --query "INSERT INTO bootprof.$table FORMAT JSONEachRow" 2>>"$T/insert.err"
	got=$($CH --query "SELECT count() FROM bootprof.$table")
	expect "$table: $rows rows in SQLite, $got loaded from JSON Lines" "[ '$got' = '$rows' ]"
done
# Every value, not only the counts: the recordings' totals as both sum them.
cols="SUM(read_bytes), SUM(wait_ns), SUM(idle_wait_ns), SUM(span_ns), SUM(lost_events)"
expect "recordings: the same sums of read, wait, idle wait, span and lost" \
	"[ \"\$(sqlite3 -separator ' ' '$DB' 'SELECT $cols FROM recordings')\" = \"\$($CH --query 'SELECT $cols FROM bootprof.recordings' | tr '\t' ' ')\" ]"

# TSV with numbers as numbers and NULL as empty.
normal() {
	tr -d '\r' | awk -F '\t' 'BEGIN { OFS = "\t"; CONVFMT = "%.15g" } {
		for (i = 1; i <= NF; i++) {
			if ($i == "\\N") $i = ""
			else if ($i ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) $i = $i + 0
		}
		print }'
}
for q in examples/fleet/*.sql; do
	name=${q##*/}
	sqlite3 -separator '	' "$DB" <"$q" | normal >"$T/$name.sqlite"
	$CH --database bootprof --multiquery <"$q" 2>"$T/$name.err" | normal >"$T/$name.ch"
	echo "# $name: $(wc -l <"$T/$name.sqlite") rows; first: $(head -n 1 "$T/$name.sqlite" | tr '\t' ' ')"
	expect "$name: ClickHouse gives SQLite's rows$(head -n 1 "$T/$name.err" | sed 's/^/ (/; s/$/)/')" \
		"[ -s '$T/$name.sqlite' ] && diff '$T/$name.sqlite' '$T/$name.ch'"
done
stop_server
