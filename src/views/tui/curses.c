// SPDX-License-Identifier: GPL-2.0
/*
 * The full-screen view: draws the frames screen.c builds and feeds it
 * keys. The only file that includes <curses.h>. Colours are used when the
 * terminal has them and NO_COLOR is unset; otherwise bold, underline and
 * reverse video carry the same distinctions (TERM=vt100 works).
 *
 * The terminal is restored on every return: signals only set *o->stop,
 * getch() wakes at least every TICK_MS to look at it, and the one exit
 * path below calls endwin().
 */
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "views/tui/screen.h"

#define TICK_MS 200

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

	next_update = now_ms() + src->delay_ns / 1000000;
	while (!quit && !(o->stop && *o->stop)) {
		int ch, wait_ms = TICK_MS;

		top_render(&t, &f, COLS, LINES);
		draw(&f, LINES);
		if (src->update) {
			uint64_t now = now_ms();

			if (now >= next_update) {
				top_update(&t);
				next_update = now + src->delay_ns / 1000000;
				continue;
			}
			if (next_update - now < (uint64_t)wait_ms)
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
		top_apply(&t);
	}
	endwin();
	delscreen(screen);
	top_frame_release(&f);
	top_release(&t);
	return 0;
}
