// SPDX-License-Identifier: GPL-2.0
/*
 * views/svg, views/chrome, views/timeline: spans fed by hand into the
 * chart and the trace of a fixture's model land where they should.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/units.h"
#include "views/chrome.h"
#include "views/svg.h"
#include "views/timeline.h"

#define BASIC "tests/fixtures/basic.dat"
/*
 * The processes of basic.dat are found by name, not by pid, so that a new
 * recording of the fixture keeps the tests: t3-mmap has one thread and waits
 * in page faults; dd waits less than 1 ms.
 */
#define MAPPER "t3-mmap"
#define SHORT "dd"
#define MIN_WAIT 1000000 /* ns: test_chart_fold's --min-wait */

struct fixture {
	struct bp_timeline t;
	struct bp_model *m;
	const struct bp_process *p;	/* MAPPER */
	const struct bp_process *other; /* SHORT */
	uint64_t mid;
};

/* The one process of m named comm, or NULL (none, or several). */
static const struct bp_process *process_named(const struct bp_model *m, const char *comm)
{
	const struct bp_process *found = NULL;
	size_t i;

	for (i = 0; i < m->nprocesses; i++) {
		if (strcmp(m->processes[i].comm, comm))
			continue;
		if (found)
			return NULL;
		found = &m->processes[i];
	}
	return found;
}

/* "comm [pid]", the label of p's lane. */
static const char *label_of(char *buf, size_t size, const struct bp_process *p)
{
	snprintf(buf, size, "%s [%d]", p->comm, p->pid);
	return buf;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct bp_window_arg all = { 0 };

	if (!f)
		return -1;
	if (bp_timeline_open(&f->t, BASIC, &all) || bp_timeline_resolve(&f->t) ||
	    !(f->m = bp_timeline_pass(&f->t, 0, NULL, NULL))) {
		bp_timeline_release(&f->t);
		free(f);
		return -1;
	}
	f->p = process_named(f->m, MAPPER);
	f->other = process_named(f->m, SHORT);
	/* What the tests take from the recording: refuse a fixture without it. */
	if (!f->p || !f->p->exit_ns || !f->p->worst_file || f->p->nthreads != 1 ||
	    f->p->wait_ns < MIN_WAIT || !f->other || f->other->wait_ns >= MIN_WAIT) {
		bp_model_free(f->m);
		bp_timeline_release(&f->t);
		free(f);
		return -1;
	}
	f->mid = f->p->start_ns + (f->p->exit_ns - f->p->start_ns) / 2;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	bp_model_free(f->m);
	bp_timeline_release(&f->t);
	free(f);
	return 0;
}

/* The process runs on CPU 1 for its first half, then waits on its worst file. */
static void feed(const struct fixture *f, void (*hook)(void *, const struct bp_span *), void *arg)
{
	struct bp_span run = { .tid = f->p->pid, .cpu = 1, .state = BP_SPAN_RUN,
			       .cause = BP_CAUSE_OTHER, .start_ns = f->p->start_ns,
			       .end_ns = f->mid };
	struct bp_span io = { .tid = f->p->pid, .cpu = -1, .state = BP_SPAN_IO_WAIT,
			      .cause = BP_CAUSE_FAULT, .dev = f->p->worst_file->dev,
			      .ino = f->p->worst_file->ino, .start_ns = f->mid,
			      .end_ns = f->p->exit_ns };
	struct bp_span stray = { .tid = 999999, .cpu = 0, .state = BP_SPAN_RUN,
				 .start_ns = f->p->start_ns, .end_ns = f->mid };
	struct bp_span idle = stray;

	idle.tid = 0;
	hook(arg, &run);
	hook(arg, &io);
	hook(arg, &stray); /* a task the model does not know: its CPU time only */
	hook(arg, &idle);  /* the idle task: nothing */
}

/* The text of the lane <g> holding label, or NULL. */
static char *lane_of(const char *svg, const char *label)
{
	const char *l = strstr(svg, label), *g, *end;

	if (!l)
		return NULL;
	for (g = l; g > svg && strncmp(g, "<g class=\"lane\">", 16); g--)
		;
	end = strstr(l, "</g>");
	return end ? strndup(g, (size_t)(end - g)) : NULL;
}

static void test_chart_spans(void **state)
{
	struct fixture *f = *state;
	struct bp_chart_opts o = { .file = "basic.dat", .origin_ns = f->t.origin_ns,
				   .marks = &f->t.marks };
	struct bp_chart *c = bp_chart_new(&f->t.window, 2, &o);
	char *svg = NULL, *lane, want[64], label[64], wait[BP_FMT_LEN];
	size_t len = 0;
	FILE *out = open_memstream(&svg, &len);
	double xmid = 240 + (double)(f->mid - f->m->window.since_ns) * BP_CHART_COLUMNS /
				    (double)(f->m->window.until_ns - f->m->window.since_ns);
	int x;

	assert_non_null(out);
	feed(f, bp_chart_span, c);
	bp_chart_attach(c, f->m);
	assert_int_equal(bp_chart_write(c, out), 0);
	fclose(out);
	lane = lane_of(svg, label_of(label, sizeof(label), f->p));
	assert_non_null(lane);
	/* The I/O-wait run starts in the column of the middle of its life. */
	assert_non_null(strstr(lane, "<path class=\"io\" d=\"M"));
	assert_int_equal(sscanf(strstr(lane, "<path class=\"io\" d=\"M") + 21, "%d", &x), 1);
	assert_true(x >= (int)xmid - 1 && x <= (int)xmid + 1);
	assert_non_null(strstr(lane, "<path class=\"run\" d=\"M"));
	/* The lane's tooltip has the model's I/O wait of the process, not the spans fed. */
	snprintf(want, sizeof(want), "I/O wait %s", bp_fmt_ns(wait, f->p->wait_ns));
	assert_non_null(strstr(lane, want));
	/* Other lanes got no span: no run, no wait drawn. */
	free(lane);
	lane = lane_of(svg, label_of(label, sizeof(label), f->other));
	assert_non_null(lane);
	assert_null(strstr(lane, "class=\"io\""));
	assert_null(strstr(lane, "class=\"run\""));
	free(lane);
	assert_non_null(strstr(svg, "<path class=\"busy\""));
	bp_chart_free(c);
	free(svg);
}

static void test_chart_fold(void **state)
{
	struct fixture *f = *state;
	struct bp_chart_opts o = { .file = "basic.dat", .origin_ns = f->t.origin_ns,
				   .min_wait_ns = MIN_WAIT };
	struct bp_chart *c = bp_chart_new(&f->t.window, 2, &o);
	char *svg = NULL, label[64];
	size_t len = 0, lanes = 0, own = 0, i;
	FILE *out = open_memstream(&svg, &len);
	const char *s;

	assert_non_null(out);
	feed(f, bp_chart_span, c);
	bp_chart_attach(c, f->m);
	assert_int_equal(bp_chart_write(c, out), 0);
	fclose(out);
	for (s = svg; (s = strstr(s, "<g class=\"lane")); s++)
		lanes++;
	/* A lane for each process that waited MIN_WAIT or more, one for the rest. */
	for (i = 0; i < f->m->nprocesses; i++)
		own += f->m->processes[i].wait_ns >= MIN_WAIT;
	assert_true(own >= 2 && own < f->m->nprocesses);
	assert_int_equal(lanes, own + 1);
	assert_non_null(strstr(svg, "others ("));
	assert_non_null(strstr(svg, label_of(label, sizeof(label), f->p)));
	assert_null(strstr(svg, label_of(label, sizeof(label), f->other)));
	bp_chart_free(c);
	free(svg);
}

static void test_chrome_spans(void **state)
{
	struct fixture *f = *state;
	struct bp_chrome_opts o = { .file = "basic.dat", .origin_ns = f->t.origin_ns,
				    .marks = &f->t.marks };
	char *json = NULL, want[512];
	size_t len = 0;
	FILE *out = open_memstream(&json, &len);
	struct bp_chrome *x;
	uint64_t d = f->mid - f->t.origin_ns;
	int pid = f->p->pid;

	assert_non_null(out);
	x = bp_chrome_begin(out, f->m, &o);
	feed(f, bp_chrome_span, x);
	assert_int_equal(bp_chrome_end(x, f->m), 0);
	fclose(out);
	snprintf(want, sizeof(want),
		 "{\"ph\":\"X\",\"name\":\"I/O wait\",\"pid\":%d,\"tid\":%d,\"ts\":%llu.%03llu,",
		 pid, pid, (unsigned long long)(d / 1000), (unsigned long long)(d % 1000));
	assert_non_null(strstr(json, want));
	snprintf(want, sizeof(want), "\"args\":{\"cause\":\"fault\",\"file\":\"%s\",\"bytes\":",
		 f->p->worst_file->path);
	assert_non_null(strstr(json, want));
	snprintf(want, sizeof(want), "{\"ph\":\"X\",\"name\":\"running\",\"pid\":%d,", pid);
	assert_non_null(strstr(json, want));
	snprintf(want, sizeof(want), "\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d", pid, pid);
	assert_non_null(strstr(json, want));
	assert_non_null(strstr(json, "\"pid\":999999,\"tid\":999999"));
	assert_null(strstr(json, "\"ph\":\"X\",\"name\":\"running\",\"pid\":0,"));
	assert_non_null(strstr(json, "\"ph\":\"C\",\"name\":\"disk read\""));
	assert_non_null(strstr(json, "\"ph\":\"i\",\"name\":\"first read\""));
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_chart_spans, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chart_fold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chrome_spans, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
