// SPDX-License-Identifier: GPL-2.0
/*
 * The full-screen view: draws the frames draw.c builds and feeds it
 * keys. The only file that includes <curses.h>. Colours are used when the
 * terminal has them and NO_COLOR is unset; otherwise bold, underline and
 * reverse video carry the same distinctions (TERM=vt100 works).
 *
 * The terminal is restored on every return: signals only set *o->stop,
 * getch() wakes at least every TICK_MS to look at it, and the one exit
 * path below calls endwin().
 *
 * For a recording, window models are built in a second thread, so keys
 * keep working while a big recording is read again: the screen shows the
 * window asked for as [----] until its numbers arrive, and a build
 * outdated by newer keys is thrown away. (Live mode builds in the loop:
 * its updates replace the reader the builder reads.)
 */
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "views/tui/screen.h"

#define TICK_MS 200
#define BUSY_TICK_MS 20

/* The window builder: one request slot, one result slot, newest wins. */
struct builder {
	const struct bp_top_source *src;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int running;
	int quit;
	unsigned asked;          /* sequence of the newest request */
	unsigned taken;          /* the request the thread is on (or did last) */
	struct bp_window window; /* the newest request */
	struct bp_model *result; /* built for request done, or NULL */
	unsigned done;
	double ms;
	char error[200];         /* the build for done failed: why */
};

static double elapsed_ms(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

static void *builder_main(void *arg)
{
	struct builder *b = arg;

	pthread_mutex_lock(&b->lock);
	for (;;) {
		struct bp_window w;
		struct bp_model *m;
		struct timespec start;
		unsigned seq;

		while (!b->quit && b->taken == b->asked)
			pthread_cond_wait(&b->wake, &b->lock);
		if (b->quit)
			break;
		seq = b->taken = b->asked;
		w = b->window;
		pthread_mutex_unlock(&b->lock);
		clock_gettime(CLOCK_MONOTONIC, &start);
		m = b->src->build(b->src->arg, &w);
		pthread_mutex_lock(&b->lock);
		bp_model_free(b->result);
		b->result = m;
		b->done = seq;
		b->ms = elapsed_ms(&start);
		snprintf(b->error, sizeof(b->error), "%s", m ? "" : bp_last_error());
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

static int builder_start(struct builder *b, const struct bp_top_source *src)
{
	memset(b, 0, sizeof(*b));
	b->src = src;
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->wake, NULL);
	b->running = !pthread_create(&b->thread, NULL, builder_main, b);
	return b->running ? 0 : -1;
}

static void builder_ask(struct builder *b, const struct bp_window *w)
{
	pthread_mutex_lock(&b->lock);
	b->window = *w;
	b->asked++;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->lock);
}

/* Install the newest request's model when it is there; older ones are dropped. */
static void builder_collect(struct builder *b, struct top *t)
{
	struct bp_model *m = NULL;
	char error[sizeof(b->error)] = "";
	double ms = 0;
	int ready = 0;

	pthread_mutex_lock(&b->lock);
	if (b->done == b->asked && b->done) {
		m = b->result;
		b->result = NULL;
		ms = b->ms;
		snprintf(error, sizeof(error), "%s", b->error);
		ready = t->rebuilding;
	}
	pthread_mutex_unlock(&b->lock);
	if (!ready) {
		bp_model_free(m);
		return;
	}
	if (m) {
		top_window_built(t, m, ms);
	} else {
		t->rebuilding = 0;
		snprintf(t->message, sizeof(t->message), "cannot rebuild the window: %.120s", error);
	}
}

static void builder_stop(struct builder *b)
{
	if (!b->running)
		return;
	pthread_mutex_lock(&b->lock);
	b->quit = 1;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->lock);
	pthread_join(b->thread, NULL);
	bp_model_free(b->result);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->wake);
	b->running = 0;
}

static attr_t attr_of[TA_NATTRS];

enum { PAIR_TITLE = 1, PAIR_WARN, PAIR_HEAD, PAIR_SORT, PAIR_SEL, PAIR_STRIP, PAIR_WINDOW,
       PAIR_FOOTER };

static void setup_attrs(void)
{
	const char *no_color = getenv("NO_COLOR");
	int color = has_colors() && !(no_color && *no_color);

	attr_of[TA_NORMAL] = A_NORMAL;
	if (!color) {
		attr_of[TA_TITLE] = A_BOLD;
		attr_of[TA_WARN] = A_BOLD | A_UNDERLINE;
		attr_of[TA_HEAD] = A_REVERSE | A_BOLD;
		attr_of[TA_SORT] = A_REVERSE | A_BOLD | A_UNDERLINE;
		attr_of[TA_SEL] = A_REVERSE;
		attr_of[TA_STRIP] = A_NORMAL;
		attr_of[TA_WINDOW] = A_REVERSE;
		attr_of[TA_KEY] = A_BOLD;
		attr_of[TA_FOOTER] = A_REVERSE;
		return;
	}
	start_color();
	use_default_colors();
	init_pair(PAIR_TITLE, COLOR_CYAN, -1);
	init_pair(PAIR_WARN, COLOR_RED, -1);
	init_pair(PAIR_HEAD, COLOR_BLACK, COLOR_GREEN);
	init_pair(PAIR_SORT, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_SEL, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_STRIP, COLOR_YELLOW, -1);
	init_pair(PAIR_WINDOW, COLOR_BLACK, COLOR_YELLOW);
	init_pair(PAIR_FOOTER, COLOR_BLACK, COLOR_CYAN);
	attr_of[TA_TITLE] = COLOR_PAIR(PAIR_TITLE) | A_BOLD;
	attr_of[TA_WARN] = COLOR_PAIR(PAIR_WARN) | A_BOLD;
	attr_of[TA_HEAD] = COLOR_PAIR(PAIR_HEAD);
	attr_of[TA_SORT] = COLOR_PAIR(PAIR_SORT) | A_BOLD;
	attr_of[TA_SEL] = COLOR_PAIR(PAIR_SEL);
	attr_of[TA_STRIP] = COLOR_PAIR(PAIR_STRIP) | A_BOLD;
	attr_of[TA_WINDOW] = COLOR_PAIR(PAIR_WINDOW);
	attr_of[TA_KEY] = A_BOLD;
	attr_of[TA_FOOTER] = COLOR_PAIR(PAIR_FOOTER);
}

static void draw(const struct top_frame *f, int height)
{
	unsigned char at[TOP_MAX_WIDTH];
	size_t i;
	int s, c, run;

	erase();
	for (i = 0; i < f->nlines && (int)i < height; i++) {
		const struct top_line *l = &f->lines[i];

		memset(at, l->attr, (size_t)f->width);
		for (s = 0; s < l->nspans; s++)
			memset(at + l->spans[s].start, l->spans[s].attr, (size_t)l->spans[s].len);
		/* The bottom-right cell scrolls some terminals: leave it empty. */
		int width = (int)i == height - 1 ? f->width - 1 : f->width;

		for (c = 0; c < width; c += run) {
			for (run = 1; c + run < width && at[c + run] == at[c]; run++)
				;
			attrset(attr_of[at[c]]);
			mvaddnstr((int)i, c, l->text + c, run);
		}
	}
	attrset(A_NORMAL);
	refresh();
}

static int map_key(int ch)
{
	switch (ch) {
	case KEY_UP:
		return TOP_KEY_UP;
	case KEY_DOWN:
		return TOP_KEY_DOWN;
	case KEY_PPAGE:
		return TOP_KEY_PGUP;
	case KEY_NPAGE:
		return TOP_KEY_PGDN;
	case KEY_HOME:
		return TOP_KEY_HOME;
	case KEY_END:
		return TOP_KEY_END;
	case KEY_LEFT:
		return TOP_KEY_LEFT;
	case KEY_RIGHT:
		return TOP_KEY_RIGHT;
	case KEY_SLEFT:
		return TOP_KEY_SLEFT;
	case KEY_SRIGHT:
		return TOP_KEY_SRIGHT;
	case KEY_ENTER:
	case '\n':
	case '\r':
		return TOP_KEY_ENTER;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		return TOP_KEY_BACKSPACE;
	case 27:
		return TOP_KEY_ESC;
	case '\t':
		return TOP_KEY_TAB;
	case KEY_F(1):
		return TOP_KEY_F1;
	case KEY_F(3):
		return TOP_KEY_F3;
	case KEY_F(4):
		return TOP_KEY_F4;
	case KEY_F(5):
		return TOP_KEY_F5;
	case KEY_F(6):
		return TOP_KEY_F6;
	case KEY_F(10):
		return TOP_KEY_F10;
	}
	return ch >= 0 && ch < 0x100 ? ch : 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* One key (or mouse event, or resize); returns 1 to quit. */
static int handle(struct top *t, int ch)
{
	MEVENT ev;

	if (ch == KEY_RESIZE)
		return 0;
	if (ch == KEY_MOUSE) {
		if (getmouse(&ev) == OK) {
			if (ev.bstate & BUTTON1_CLICKED)
				top_click(t, ev.y, ev.x);
			else if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
				top_key(t, TOP_KEY_ENTER);
#ifdef BUTTON5_PRESSED
			else if (ev.bstate & BUTTON5_PRESSED)
				top_key(t, TOP_KEY_DOWN);
#endif
			else if (ev.bstate & BUTTON4_PRESSED)
				top_key(t, TOP_KEY_UP);
		}
		return 0;
	}
	return top_key(t, map_key(ch));
}

int bp_top_interactive(const struct bp_top_source *src, const struct bp_top_opts *o)
{
	struct top_frame f = { 0 };
	struct builder b = { 0 };
	struct bp_window w;
	uint64_t next_update;
	SCREEN *screen;
	struct top t;
	int quit = 0;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		bp_set_error("top needs a terminal (use --batch for text)");
		return -1;
	}
	/* Everything that can fail before the screen changes. */
	if (top_init(&t, src, o, 0) < 0)
		return -1;

	setlocale(LC_ALL, "");
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		bp_set_error("cannot use the terminal '%s'", getenv("TERM") ? getenv("TERM") : "");
		top_release(&t);
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	setup_attrs();
	if (!src->update && builder_start(&b, src) < 0)
		b.running = 0; /* then build in the loop */

	next_update = now_ms() + src->delay_ns / 1000000;
	while (!quit && !(o->stop && *o->stop)) {
		int ch, wait_ms = TICK_MS;

		if (b.running)
			builder_collect(&b, &t);
		if (src->update && (now_ms() >= next_update || t.update_now)) {
			top_update(&t);
			/* From the end of the update: a slow one never starves the keys. */
			next_update = now_ms() + src->delay_ns / 1000000;
		}
		top_render(&t, &f, COLS, LINES);
		draw(&f, LINES);
		if (t.rebuilding)
			wait_ms = BUSY_TICK_MS;
		if (src->update) {
			uint64_t now = now_ms();

			if (next_update <= now)
				wait_ms = 0;
			else if (next_update - now < (uint64_t)wait_ms)
				wait_ms = (int)(next_update - now);
		}
		timeout(wait_ms);
		ch = getch();
		if (ch == ERR)
			continue;
		quit = handle(&t, ch);
		/* Take a burst of keys (a held arrow) before rebuilding once. */
		timeout(0);
		while (!quit && (ch = getch()) != ERR)
			quit = handle(&t, ch);
		if (!b.running) {
			top_apply(&t);
		} else if (t.window_dirty && top_window_wanted(&t, &w)) {
			builder_ask(&b, &w);
			t.rebuilding = 1;
		}
	}
	builder_stop(&b);
	endwin();
	delscreen(screen);
	top_frame_release(&f);
	top_release(&t);
	return 0;
}
