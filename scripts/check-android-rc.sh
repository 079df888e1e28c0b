#!/bin/sh
# Check an Android init .rc file against the init language (AOSP
# system/core/init/README.md) as far as it can be without a device: section
# keywords, trigger syntax (one event trigger, property:NAME=VALUE, joined
# by &&), commands and their argument counts, service options, absolute
# service paths, modes, SELinux labels, and that every service started or
# stopped is defined in the file. One line per problem, FILE:LINE: what;
# status 1 when any, 2 on usage.
#
# Usage: scripts/check-android-rc.sh FILE.rc...
[ $# -ge 1 ] || { echo "usage: scripts/check-android-rc.sh FILE.rc..." >&2; exit 2; }
status=0
for f in "$@"; do
	[ -r "$f" ] || { echo "$f: cannot read" >&2; status=1; continue; }
	awk -v file="$f" '
	# Split a line into arguments as init does: whitespace separates them,
	# double quotes keep one together (and are dropped).
	function args(line,    i, ch, q, cur, has) {
		delete A; n = 0; cur = ""; q = 0; has = 0
		for (i = 1; i <= length(line); i++) {
			ch = substr(line, i, 1)
			if (ch == "\"") { q = !q; has = 1; continue }
			if (!q && (ch == " " || ch == "\t")) {
				if (has) { A[++n] = cur; cur = ""; has = 0 }
				continue
			}
			cur = cur ch; has = 1
		}
		if (q) err("unterminated quote")
		if (has) A[++n] = cur
		return n
	}
	function err(msg) { printf "%s:%d: %s\n", file, NR, msg; bad = 1 }
	function nargs(lo, hi) {
		if (NA - 1 < lo || (hi >= 0 && NA - 1 > hi))
			err(sprintf("%s takes %s argument%s, not %d", A[1],
			    lo == hi ? lo : (hi < 0 ? "at least " lo : lo " to " hi),
			    (lo == 1 && hi == 1) ? "" : "s", NA - 1))
	}
	function trigger(t) {
		if (t ~ /^property:[A-Za-z0-9_.\-]+=[^ ]+$/)
			return 0
		if (t ~ /^property:/) { err("bad property trigger \"" t "\" (property:NAME=VALUE)"); return 0 }
		if (t ~ /^[a-z][a-z0-9_\-]*$/) return 1
		err("bad trigger \"" t "\""); return 0
	}
	BEGIN {
		# Commands (README.md "Commands") and their argument counts (-1: any).
		split("bootchart 1 1|chmod 2 2|chown 2 3|class_reset 1 1|class_restart 1 2|class_start 1 1|" \
		      "class_stop 1 1|copy 2 2|copy_per_line 2 2|domainname 1 1|enable 1 1|exec 1 -1|" \
		      "exec_background 1 -1|exec_start 1 1|export 2 2|hostname 1 1|ifup 1 1|insmod 1 -1|" \
		      "interface_start 1 1|interface_restart 1 1|interface_stop 1 1|load_exports 1 1|" \
		      "load_system_props 0 0|load_persist_props 0 0|loglevel 1 1|mark_post_data 0 0|" \
		      "mkdir 1 5|mount_all 0 -1|mount 3 -1|perform_apex_config 0 1|restart 1 2|" \
		      "restorecon 1 -1|restorecon_recursive 1 -1|rm 1 1|rmdir 1 1|readahead 1 2|" \
		      "setprop 2 2|setrlimit 3 3|start 1 1|stop 1 1|swapon_all 0 1|symlink 2 2|" \
		      "sysclktz 1 1|trigger 1 1|umount 1 1|umount_all 0 1|verity_update_state 0 0|" \
		      "wait 1 2|wait_for_prop 2 2|write 2 2", c, "|")
		for (i in c) { split(c[i], a, " "); lo[a[1]] = a[2]; hi[a[1]] = a[3] }
		# Service options (README.md "Options").
		n = split("capabilities class console critical disabled enter_namespace file gentle_kill " \
		      "group interface ioprio keycodes memcg.limit_in_bytes memcg.limit_percent " \
		      "memcg.limit_property memcg.soft_limit_in_bytes memcg.swappiness namespace " \
		      "oneshot onrestart oom_score_adjust override priority reboot_on_failure " \
		      "restart_period rlimit seclabel setenv shutdown sigstop socket stdio_to_kmsg " \
		      "task_profiles timeout_period updatable user writepid", o, " ")
		for (i = 1; i <= n; i++) opt[o[i]] = 1
	}
	{ sub(/\r$/, "") }
	!/^[ \t]*(#|$)/ { NA = args($0) }
	/^[ \t]*(#|$)/ { next }
	/\\$/ { err("line continuations are not checked here"); next }
	A[1] == "on" {
		sect = "on"
		if (NA < 2) { err("on needs a trigger"); next }
		events = 0
		for (i = 2; i <= NA; i++) {
			if ((i % 2) == 1) { if (A[i] != "&&") err("triggers are joined by &&, not \"" A[i] "\""); continue }
			events += trigger(A[i])
		}
		if ((NA % 2) == 1) err("a trigger is missing after &&")
		if (events > 1) err("at most one event trigger per on")
		next
	}
	A[1] == "service" {
		sect = "service"
		if (NA < 3) { err("service needs a name and a path"); next }
		if (A[2] in defined) err("service " A[2] " defined twice")
		defined[A[2]] = NR
		if (A[3] !~ /^\//) err("service " A[2] ": the path \"" A[3] "\" is not absolute")
		next
	}
	A[1] == "import" { sect = ""; if (NA != 2) err("import takes 1 argument"); next }
	sect == "" { err("\"" A[1] "\" outside a section (on, service, import)"); next }
	sect == "service" {
		if (!(A[1] in opt)) { err("unknown service option \"" A[1] "\""); next }
		if (A[1] == "seclabel" && (NA != 2 || A[2] !~ /^u:r:[a-z0-9_]+:s0(:c[0-9,.c]+)?$/))
			err("seclabel takes one label u:r:DOMAIN:s0, not \"" A[2] "\"")
		if (A[1] == "class" && NA < 2) err("class takes at least 1 argument")
		if ((A[1] == "user" || A[1] == "oneshot" || A[1] == "disabled") && NA != (A[1] == "user" ? 2 : 1))
			err(A[1] " takes " (A[1] == "user" ? "1 argument" : "no arguments"))
		next
	}
	{
		if (!(A[1] in lo)) { err("unknown command \"" A[1] "\""); next }
		nargs(lo[A[1]] + 0, hi[A[1]] + 0)
		if ((A[1] == "start" || A[1] == "stop" || A[1] == "restart" || A[1] == "enable") && NA >= 2)
			used[A[2]] = used[A[2]] ? used[A[2]] : NR
		if (A[1] == "mkdir" && NA >= 3 && A[3] !~ /^0?[0-7][0-7][0-7][0-7]?$/)
			err("mkdir: mode \"" A[3] "\" is not octal")
		if ((A[1] == "mkdir" || A[1] == "write" || A[1] == "copy" || A[1] == "rm") && A[2] !~ /^\//)
			err(A[1] ": the path \"" A[2] "\" is not absolute")
	}
	END {
		for (s in used)
			if (!(s in defined)) { printf "%s:%d: no service %s in this file\n", file, used[s], s; bad = 1 }
		exit bad
	}' "$f" || status=1
done
exit $status
