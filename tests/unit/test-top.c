// SPDX-License-Identifier: GPL-2.0
/*
 * top's screen without a terminal: what keys do (views, sort, drill-down,
 * filter, window) and what the frames say, on a model made by hand whose
 * numbers are known.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/model.h"
#include "tracefile/meta.h"
#include "util/xalloc.h"
#include "views/tui/screen.h"

#define MS 1000000ull
#define S 1000000000ull
#define T0 (100 * S)

/* What the source was asked for. */
static int builds;
static struct bp_window last_window;
static int windowed;
static uint64_t lost_events;    /* put in the next models' totals */

/*
 * sh[100] forks cat[101]; cat reads /data/a (8 KiB, waits 5 ms) and
 * /data/b (4 KiB); sh reads /data/b (4 KiB, waits 1 ms). A window model
 * (any window) has cat's wait halved, so tests see which one is shown.
 * sh is in session-2.scope (exec'd nothing there), cat in cat.service,
 * where it exec'd /bin/cat at 101.5 s.
 */
static struct bp_model *make_model(int half)
{
	struct bp_model *m = bp_model_new();
	struct bp_process *sh, *cat;
	struct bp_file *a, *b;
	struct bp_access *x;
	size_t i;

	m->window = (struct bp_window){ T0, T0 + 10 * S, 1 * S, 0 };
	m->nbuckets = 10;
	m->timeline_start_ns = T0;
	m->timeline = xcalloc(10, sizeof(*m->timeline));
	for (i = 0; i < 10; i++) {
		m->timeline[i].wait_ns = i < 5 ? 100 * MS : 0;
		m->timeline[i].rq_read_bytes = i >= 5 ? 4096 : 0;
	}
	m->header.hostname = xstrdup("box");
	m->header.ncpus = 2;
	m->nprocesses = 2;
	m->processes = xcalloc(2, sizeof(*m->processes));
	sh = &m->processes[0];
	cat = &m->processes[1];
	sh->pid = 100;
	strcpy(sh->comm, "sh");
	cat->pid = 101;
	strcpy(cat->comm, "cat");
	cat->parent = sh;
	cat->ppid = 100;
	cat->start_ns = T0 + 1 * S;
	sh->children = xcalloc(1, sizeof(*sh->children));
	sh->children[0] = cat;
	sh->nchildren = 1;
	m->nfiles = 2;
	m->files = xcalloc(2, sizeof(*m->files));
	a = &m->files[0];
	b = &m->files[1];
	a->dev = b->dev = BP_DEV(254, 0);
	a->ino = 10;
	b->ino = 11;
	a->path = xstrdup("/data/a");
	b->path = xstrdup("/data/b");
	m->naccesses = 3;
	m->accesses = x = xcalloc(3, sizeof(*x));
	x[0] = (struct bp_access){ cat, a, (half ? 2500 : 5000) * 1000ull, 8192, T0 + 1 * S,
				   T0 + 2 * S };
	x[1] = (struct bp_access){ cat, b, 0, 4096, T0 + 2 * S, T0 + 3 * S };
	x[2] = (struct bp_access){ sh, b, 1 * MS, 4096, T0 + 4 * S, T0 + 5 * S };
	a->readers = xcalloc(1, sizeof(*a->readers));
	a->readers[a->nreaders++] = &x[0];
	b->readers = xcalloc(2, sizeof(*b->readers));
	b->readers[b->nreaders++] = &x[2];
	b->readers[b->nreaders++] = &x[1];
	cat->files = xcalloc(2, sizeof(*cat->files));
	cat->files[cat->nfiles++] = &x[0];
	cat->files[cat->nfiles++] = &x[1];
	sh->files = xcalloc(1, sizeof(*sh->files));
	sh->files[sh->nfiles++] = &x[2];
	for (i = 0; i < 3; i++) {
		x[i].process->wait_ns += x[i].wait_ns;
		x[i].process->bytes_read += x[i].bytes_read;
		x[i].file->wait_ns += x[i].wait_ns;
		x[i].file->bytes_read += x[i].bytes_read;
		m->totals.wait_ns += x[i].wait_ns;
		m->totals.read_bytes += x[i].bytes_read;
	}
	sh->tree_wait_ns = sh->wait_ns + cat->wait_ns;
	cat->tree_wait_ns = cat->wait_ns;
	sh->worst_file = b;
	cat->worst_file = a;
	m->nservices = 2;
	m->services = xcalloc(2, sizeof(*m->services));
	m->services[0].path = xstrdup("/system.slice/cat.service");
	m->services[1].path = xstrdup("/user.slice/user-1000.slice/session-2.scope");
	cat->service = &m->services[0];
	sh->service = &m->services[1];
	cat->exec = xcalloc(1, sizeof(*cat->exec));
	cat->exec[cat->nexec++] = xstrdup("/bin/cat");
	cat->exec_part = xcalloc(1, sizeof(*cat->exec_part));
	cat->first_exec_ns = cat->service_exec_ns = T0 + 1500 * MS;
	m->totals.lost_events = lost_events;
	m->totals.events_total = 1000;
	return m;
}

static struct bp_model *build(void *arg, const struct bp_window *w)
{
	struct bp_model *m = make_model(w != NULL);

	(void)arg;
	builds++;
	windowed = w != NULL;
	if (w) {
		last_window = *w;
		m->window.since_ns = w->since_ns ? w->since_ns : T0;
		m->window.until_ns = w->until_ns ? w->until_ns : T0 + 10 * S;
	}
	return m;
}

static const struct bp_top_source source = { build, NULL, NULL, "hand.dat", 0, NULL };

static struct top t;
static struct top_frame f;

static int setup(void **state)
{
	struct bp_top_opts o = { 0 };

	(void)state;
	builds = 0;
	windowed = 0;
	o.width = 100;
	lost_events = *state ? 5 : 0;
	if (top_init(&t, &source, &o, 0) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	top_frame_release(&f);
	top_release(&t);
	return 0;
}

/* The frame as one string, lines joined by '\n', padding trimmed. */
static const char *frame_text(int width, int height)
{
	static char buf[1 << 16];
	size_t len = 0, i;

	top_render(&t, &f, width, height);
	buf[0] = '\0';
	for (i = 0; i < f.nlines && len < sizeof(buf) - TOP_MAX_WIDTH - 2; i++) {
		int n = (int)strlen(f.lines[i].text);

		while (n > 0 && f.lines[i].text[n - 1] == ' ')
			n--;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%.*s\n", n, f.lines[i].text);
	}
	return buf;
}

/* The text of the first row of the list (after the column headers). */
static const char *first_row(void)
{
	static char row[TOP_MAX_WIDTH + 1];

	top_render(&t, &f, 100, 30);
	snprintf(row, sizeof(row), "%s", f.lines[t.list_top].text);
	return row;
}

static void press(const char *keys)
{
	for (; *keys; keys++)
		assert_int_equal(top_key(&t, (unsigned char)*keys), 0);
}

static void test_first_screen(void **state)
{
	const char *s = frame_text(100, 30);

	(void)state;
	assert_int_equal(builds, 1); /* the whole recording: no second model */
	assert_non_null(strstr(s, "bootprof top - hand.dat  host box  2 cpus"));
	assert_non_null(strstr(s, "read 16.0 KiB  I/O wait 6.0 ms"));
	assert_non_null(strstr(s, "Files: 2 of 2, by WAIT"));
	assert_non_null(strstr(first_row(), "/data/a"));
	/* The wait strip is busy in its first half, the disk in its second. */
	assert_non_null(strstr(s, "\nwait  @"));
	assert_non_null(strstr(s, "\ndisk   "));
	assert_non_null(strstr(s, "\nwindow[====="));
	/* The footer is on the last line of a 30-line screen. */
	assert_int_equal((int)f.nlines, 30);
	assert_non_null(strstr(f.lines[29].text, "F1Help"));
}

static void test_sort(void **state)
{
	(void)state;
	press("s");
	assert_non_null(strstr(frame_text(100, 30), "by READ"));
	press("s");
	assert_non_null(strstr(frame_text(100, 30), "by NEVER USED"));
	press("SS");
	assert_non_null(strstr(frame_text(100, 30), "by WAIT"));
	press("S");
	assert_non_null(strstr(frame_text(100, 30), "by PATH"));
	assert_non_null(strstr(first_row(), "/data/a"));
}

static void test_drill_down(void **state)
{
	const char *s;

	(void)state;
	top_key(&t, TOP_KEY_TAB);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Processes: 2 of 2, by WAIT"));
	assert_non_null(strstr(first_row(), " cat "));
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Process cat[101] /bin/cat  parent sh[100]"));
	assert_non_null(strstr(first_row(), "/data/a"));
	assert_non_null(strstr(s, "Children of cat[101]: 0"));
	/* Open /data/a: its one reader, cat, with its wait, bytes, first and last. */
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "File /data/a  (254:0 ino 10)"));
	assert_non_null(strstr(first_row(), "101 cat"));
	assert_non_null(strstr(first_row(), "5.0 ms   8.0 KiB    101.000    102.000"));
	top_key(&t, TOP_KEY_BACKSPACE);
	assert_non_null(strstr(frame_text(100, 30), "Process cat[101]"));
	/* Down twice: past the children's title, nothing selectable there. */
	press("jjjj");
	top_key(&t, TOP_KEY_ESC);
	assert_non_null(strstr(frame_text(100, 30), "Processes: 2 of 2"));
	/* sh's children: cat. */
	top_key(&t, TOP_KEY_DOWN);
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Process sh[100]"));
	assert_non_null(strstr(s, "Children of sh[100]: 1"));
	press("jj");
	top_key(&t, TOP_KEY_ENTER);
	assert_non_null(strstr(frame_text(100, 30), "Process cat[101]"));
}

static void test_filter(void **state)
{
	const char *s;

	(void)state;
	top_key(&t, TOP_KEY_TAB);
	press("/ca");
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Processes: 1 of 2, by WAIT  filter: ca_"));
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "filter: ca\n"));
	assert_null(strstr(s, " sh "));
	top_key(&t, TOP_KEY_ESC);
	assert_non_null(strstr(frame_text(100, 30), "Processes: 2 of 2, by WAIT\n"));
	/* o: only what waited or read; a process that did neither goes. */
	t.full->processes[0].wait_ns = t.full->processes[0].bytes_read = 0;
	press("o");
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Processes: 1 of 2, by WAIT  waiting or reading only\n"));
	assert_null(strstr(s, " sh "));
	press("o");
	assert_non_null(strstr(frame_text(100, 30), "Processes: 2 of 2, by WAIT\n"));
	/* Files: by path; Esc while typing puts the old filter back. */
	top_key(&t, TOP_KEY_TAB);
	press("/b");
	top_key(&t, TOP_KEY_ENTER);
	assert_non_null(strstr(frame_text(100, 30), "Files: 1 of 2"));
	press("/x");
	top_key(&t, TOP_KEY_ESC);
	assert_non_null(strstr(frame_text(100, 30), "Files: 1 of 2, by WAIT  filter: b\n"));
}

static void test_window(void **state)
{
	const char *s;

	(void)state;
	frame_text(100, 30); /* 94 timeline columns */
	press("[[[[[[[[[[");
	assert_int_equal(builds, 1);  /* keys only mark the window */
	assert_int_equal(top_apply(&t), 0);
	assert_int_equal(builds, 2);  /* one build for the burst */
	assert_true(windowed);
	assert_int_equal(last_window.since_ns, 0);
	assert_true(last_window.until_ns > T0 && last_window.until_ns < T0 + 10 * S);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "rebuilt in"));
	/* The window's model is shown: cat's wait halved. */
	assert_non_null(strstr(s, "I/O wait 3.5 ms"));
	assert_non_null(strstr(s, "\nwindow[====="));
	assert_null(strstr(s, "\nwindow[" "==============================================================="
			      "===============================]"));
	top_key(&t, TOP_KEY_RIGHT);
	top_apply(&t);
	assert_true(last_window.since_ns > T0);
	assert_non_null(strstr(frame_text(100, 30), "\nwindow [="));
	/* w: the whole recording again, with no build. */
	press("w");
	top_apply(&t);
	assert_int_equal(builds, 3);
	assert_ptr_equal(t.win, t.full);
	assert_non_null(strstr(frame_text(100, 30), "I/O wait 6.0 ms"));
}

static void test_small_and_batch(void **state)
{
	const char *s;
	size_t i;

	(void)state;
	s = frame_text(80, 24);
	assert_int_equal((int)f.nlines, 24);
	for (i = 0; i < f.nlines; i++)
		assert_int_equal((int)strlen(f.lines[i].text), 80);
	/* Batch frames (height 0): every row, no footer. */
	s = frame_text(80, 0);
	assert_null(strstr(s, "F1Help"));
	assert_non_null(strstr(s, "/data/b\n"));
	press("?");
	assert_non_null(strstr(frame_text(80, 24), "any other key returns"));
	press("x");
	assert_non_null(strstr(frame_text(80, 24), "Files: "));
	assert_int_equal(top_key(&t, 'q'), 1);
}

/* The line and the span of the frame that hold @text, or -1. */
static int find_span(const char *text, int *line)
{
	size_t i;
	int k;

	for (i = 0; i < f.nlines; i++) {
		const char *at = strstr(f.lines[i].text, text);

		if (!at)
			continue;
		*line = (int)i;
		for (k = 0; k < f.lines[i].nspans; k++) {
			if (f.lines[i].spans[k].start == (int)(at - f.lines[i].text))
				return k;
		}
		return -1;
	}
	*line = -1;
	return -1;
}

static void test_lost_events(void **state)
{
	int line, k;

	(void)state;
	frame_text(100, 30);
	k = find_span("lost 5", &line);
	assert_int_equal(line, 1);
	assert_true(k >= 0);
	assert_int_equal(f.lines[line].spans[k].attr, TA_WARN);
	assert_int_equal(f.lines[line].spans[k].len, (int)strlen("lost 5"));
}

static void test_no_lost_events(void **state)
{
	int line;

	(void)state;
	frame_text(100, 30);
	assert_int_equal(find_span("lost 0", &line), -1); /* plain text, no warning */
	assert_int_equal(line, 1);
}

/* The help screen is the key table: every action's keys and words are on it. */
static void test_help_is_the_key_table(void **state)
{
	/* Keys that worked before the table but were missing from the help. */
	static const char *const once_missing[] = { "k", "j", "g", "G", "Space", ".", ",",
						    "F3", "Q", "r", "I", "t", "F5", "u" };
	char keys[64], line[TOP_MAX_WIDTH + 8];
	const char *help, *s;
	size_t i, n;

	(void)state;
	press("?");
	s = frame_text(80, 24);
	assert_true(f.nlines <= 24);
	n = top_key_help(0, keys, sizeof(keys), &help);
	assert_true(n > 20);
	for (i = 0; i < n; i++) {
		assert_int_equal(top_key_help(i, keys, sizeof(keys), &help), n);
		snprintf(line, sizeof(line), "%s", keys);
		assert_non_null(strstr(s, line));
		assert_non_null(strstr(s, help));
		assert_true(strlen(help) <= 23);
	}
	assert_int_equal(top_key_help(n, keys, sizeof(keys), &help), 0);
	for (i = 0; i < sizeof(once_missing) / sizeof(once_missing[0]); i++) {
		int found = 0;
		size_t j;

		for (j = 0; j < n; j++) {
			char *w, *save = NULL;

			top_key_help(j, keys, sizeof(keys), &help);
			for (w = strtok_r(keys, " ", &save); w; w = strtok_r(NULL, " ", &save))
				found |= !strcmp(w, once_missing[i]);
		}
		assert_true(found);
	}
	/* In the help, q quits, as it says. */
	assert_int_equal(top_key(&t, 'q'), 1);
}

/* r (and I) reverse the sort order; t (and F5) show processes as a tree. */
static void test_reverse_and_tree(void **state)
{
	char before[TOP_MAX_WIDTH + 1];

	(void)state;
	snprintf(before, sizeof(before), "%s", first_row());
	assert_non_null(strstr(before, "/data/a"));
	press("r");
	assert_non_null(strstr(frame_text(100, 30), "by WAIT, reversed"));
	assert_null(strstr(first_row(), "/data/a"));
	assert_int_equal(top_key(&t, 'I'), 0);
	assert_string_equal(first_row(), before);
	assert_int_equal(top_key(&t, TOP_KEY_TAB), 0);
	press("t");
	assert_non_null(strstr(frame_text(100, 30), ", as a tree"));
	assert_int_equal(top_key(&t, TOP_KEY_F5), 0);
	assert_null(strstr(frame_text(100, 30), ", as a tree"));
}

/* u: the services view, the report's rows (bp_view_services()) in its order. */
static void test_services(void **state)
{
	struct bp_service_row *v;
	const char *s, *at;
	size_t i, n;

	(void)state;
	assert_int_equal(top_key(&t, 'u'), 0);
	s = frame_text(100, 0);
	assert_non_null(strstr(s, "Services: 2 of 2, by WAIT\n"));
	assert_non_null(strstr(s, "STARTED FIRST EXEC     ENDED SERVICE\n"));
	assert_non_null(strstr(s, "   5.0 ms  12.0 KiB      0 ms     1   101.000    101.500   "
				  "running cat.service\n"));
	assert_non_null(strstr(s, "   1.0 ms   4.0 KiB      0 ms     1    before          -   "
				  "running session-2.scope\n"));
	v = bp_view_services(t.win, &t.focus, &n);
	assert_int_equal(n, 2);
	for (i = 0, at = s; i < n; i++) {
		at = strstr(at, v[i].unit);
		assert_non_null(at);
	}
	free(v);
	/* Sort by first exec: rows without one last; reversed, first. */
	press("sssss");
	assert_non_null(strstr(frame_text(100, 30), "by FIRST EXEC"));
	assert_non_null(strstr(first_row(), "cat.service"));
	press("r");
	assert_non_null(strstr(first_row(), "session-2.scope"));
	/* The filter is a substring of the unit or its cgroup. */
	press("/user-1000");
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Services: 1 of 2, by FIRST EXEC, reversed  filter: user-1000\n"));
	assert_null(strstr(s, "cat.service"));
	top_key(&t, TOP_KEY_ESC);
	/* o: only what waited or read; Enter opens the service; Tab: the files view. */
	t.win->processes[0].wait_ns = t.win->processes[0].bytes_read = 0;
	press("o");
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Services: 1 of 2"));
	assert_null(strstr(s, "session-2.scope"));
	top_key(&t, TOP_KEY_ENTER);
	assert_non_null(strstr(frame_text(100, 30), "Processes of cat.service: 1 of 1"));
	top_key(&t, TOP_KEY_TAB);
	assert_non_null(strstr(frame_text(100, 30), "Files: "));
}

/*
 * The rows of the current level are exactly the processes @unit's row
 * counts: computed here from the model's cgroups and PID 1, apart from
 * views/services.c.
 */
static void assert_lists_service(const char *unit)
{
	size_t i, j, want = 0;

	for (i = 0; i < t.win->nprocesses; i++) {
		const struct bp_process *p = &t.win->processes[i];
		int in = !strcmp(unit, "[PID 1]") ? p->pid == 1 :
			 p->pid != 1 && p->service && strstr(p->service->path, unit);
		int listed = 0;

		for (j = 0; j < t.nrows; j++)
			listed |= t.rows[j].kind == ROW_PROC && t.rows[j].obj == p;
		assert_int_equal(listed, in);
		want += (size_t)in;
	}
	assert_int_equal(t.nrows, want);
}

/* Enter on a service: its processes, with its cgroup and its first exec's program. */
static void test_services_drill_down(void **state)
{
	const char *s;

	(void)state;
	press("u");
	/* The selected row's program, which the row has no room for. */
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "\ncat.service: first exec 101.500 /bin/cat\n"));
	assert_non_null(strstr(frame_text(80, 0), "\ncat.service: first exec 101.500 /bin/cat\n"));
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Processes of cat.service: 1 of 1, by WAIT\n"));
	assert_non_null(strstr(s, "cgroup /system.slice/cat.service  first exec 101.500 /bin/cat\n"));
	assert_non_null(strstr(first_row(), "101 cat "));
	assert_lists_service("cat.service");
	/* Its processes open as in the processes view; Backspace comes back. */
	top_key(&t, TOP_KEY_ENTER);
	assert_non_null(strstr(frame_text(100, 30), "Process cat[101] /bin/cat"));
	top_key(&t, TOP_KEY_BACKSPACE);
	top_key(&t, TOP_KEY_BACKSPACE);
	assert_non_null(strstr(frame_text(100, 30), "Services: 2 of 2, by WAIT"));
	top_key(&t, TOP_KEY_DOWN);
	assert_non_null(strstr(frame_text(100, 30), "\nsession-2.scope: no exec\n"));
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Processes of session-2.scope: 1 of 1"));
	assert_lists_service("session-2.scope");
	top_key(&t, TOP_KEY_ESC);
	/* sh joins cat.service: both listed, and nothing else. */
	t.win->processes[0].service = &t.win->services[0];
	assert_non_null(strstr(frame_text(100, 30), "Services: 1 of 1"));
	top_key(&t, TOP_KEY_ENTER);
	assert_non_null(strstr(frame_text(100, 30), "Processes of cat.service: 2 of 2"));
	assert_lists_service("cat.service");
	/* As a tree: sh with cat under it. */
	press("t");
	assert_non_null(strstr(frame_text(100, 30), "2 of 2, by WAIT, as a tree"));
	assert_lists_service("cat.service");
	top_key(&t, TOP_KEY_ESC);
	/* sh as PID 1: the [PID 1] row holds it, whatever its cgroup. */
	t.win->processes[0].pid = 1;
	frame_text(100, 30);
	press("G");
	top_key(&t, TOP_KEY_ENTER);
	assert_non_null(strstr(frame_text(100, 30), "Processes of [PID 1]: 1 of 1"));
	assert_lists_service("[PID 1]");
	top_key(&t, TOP_KEY_ESC);
	/* The recorder's tasks are no process of the recording: nothing opens. */
	t.win->totals.recorder_tasks = 1;
	t.rows_dirty = 1;
	frame_text(100, 30);
	press("G");
	assert_non_null(strstr(frame_text(100, 30), "\n[recorder]: no exec\n"));
	top_key(&t, TOP_KEY_ENTER);
	s = frame_text(100, 30);
	assert_non_null(strstr(s, "Services: 3 of 3"));
	assert_non_null(strstr(s, "[recorder]: no process of the recording to list"));
}

/* A record -- CMD recording: the services of the command's tree only, as the report lists. */
static void test_services_focus(void **state)
{
	const char *s;

	(void)state;
	t.focus = (struct bp_filter){ NULL, 101, 1, NULL };
	press("u");
	s = frame_text(100, 0);
	assert_non_null(strstr(s, "Services: 1 of 1, by WAIT\n"));
	assert_non_null(strstr(s, "cat.service"));
	assert_null(strstr(s, "session-2.scope"));
}

static int lost = 1;

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_first_screen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drill_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_and_batch, setup, teardown),
		cmocka_unit_test_prestate_setup_teardown(test_lost_events, setup, teardown, &lost),
		cmocka_unit_test_setup_teardown(test_no_lost_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_is_the_key_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reverse_and_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_services, setup, teardown),
		cmocka_unit_test_setup_teardown(test_services_drill_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_services_focus, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
