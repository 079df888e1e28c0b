/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_SESSION_H
#define BP_ANALYSIS_SESSION_H

#include <stddef.h>

#include "analysis/focus.h"
#include "analysis/model.h"

/*
 * How every command loads a recording (perf's util/session.c):
 *
 *   s = bp_session_open(path);               the reader
 *   bp_session_window(s, &window_arg);       --since/--until into s->window
 *   m = bp_session_build(s, &s->window, hooks, n);
 *                                            the model, with any number of
 *                                            consumers of the same pass
 *   ... bp_warnings_print(&s->warnings) (src/builtin.h), the views ...
 *   bp_model_free(m); bp_session_free(s);
 *
 * A pass (a build, or bp_session_read() for a command that wants the raw
 * events) makes the checks every reader makes, once, here: a corrupt
 * recording (damaged pages, events that do not match their formats) is an
 * error, never a partial answer with a warning; a truncated one is read to
 * its last complete page and said so; lost events make totals lower
 * bounds. Nothing here prints: warnings are kept as lines for the
 * command to print.
 */

struct bp_reader;
struct bp_event;

/**
 * struct bp_warnings - one-line warnings about a recording
 * @lines: oldest first, without "warning: "; each owned
 * @n: entries
 */
struct bp_warnings {
	char **lines;
	size_t n;
};

/* Free the lines and empty the list. */
void bp_warnings_release(struct bp_warnings *w);

/**
 * struct bp_session - one recording being read
 * @path: the recording (borrowed)
 * @name: how warnings name it: @path, unless the command shows another
 *        name (report --redact); borrowed
 * @reader: the open recording (owned)
 * @window: the window the command asked for (bp_session_window()); zero:
 *          the whole recording
 * @warnings: what the passes so far found, not yet printed
 */
struct bp_session {
	const char *path;
	const char *name;
	struct bp_reader *reader;
	struct bp_window window;
	struct bp_warnings warnings;
	/* private: what was said already */
	size_t reader_said;  /* bytes of the reader's warnings taken */
	int lost_said;
	int window_said;     /* the window was checked */
};

/**
 * bp_session_open() - open a recording
 * @path: the recording (borrowed: it must outlive the session)
 *
 * A truncated recording opens (it is read to its last complete page).
 *
 * Return: a new session (bp_session_free()), or NULL with bp_set_error()
 * naming @path when it cannot be read at all.
 */
struct bp_session *bp_session_open(const char *path);

/* Close the recording and free the warnings not taken. NULL is a no-op. */
void bp_session_free(struct bp_session *s);

/**
 * bp_session_window() - set @s->window from --since and --until
 * @s: a session
 * @a: the window as given (util/parse-options.h: OPT_SINCE, OPT_UNTIL):
 *     times on the recording clock, or "+T" after its first event
 *
 * The passes then check it once for every command: a window that holds
 * none of the recording is the error of the first pass over a window, one
 * that reaches past the first or last event a line in @s->warnings.
 *
 * Return: 0, or -1 with bp_set_error() naming the recording.
 */
int bp_session_window(struct bp_session *s, const struct bp_window_arg *a);

/**
 * bp_session_build() - one pass: the model, and the checks
 * @s: a session
 * @w: the window (&s->window, or another), or NULL for the whole recording
 * @hooks: consumers of the pass, each called in order on every event and
 *         span (their NULL callbacks are skipped); NULL when @nhooks is 0
 * @nhooks: entries in @hooks
 *
 * Adds to @s->warnings what the reader said (truncation ...) and, once,
 * that the recording lost events; once, for the window bp_session_window()
 * set, that it reaches past the recording. A window that misses the
 * recording is the error of the first pass over a window (@w not NULL).
 *
 * Return: a new model (bp_model_free()), or NULL with bp_set_error()
 * naming the recording: unreadable ("cannot read 'FILE': ...") or
 * corrupt ("'FILE' is corrupt: ..."), or saying where the recording is
 * when the window misses it ("window 0.200-0.300 s is outside the
 * recording (866.700-871.731 s)", analysis/focus.h).
 */
struct bp_model *bp_session_build(struct bp_session *s, const struct bp_window *w,
				  const struct bp_build_hooks *hooks, size_t nhooks);

/**
 * bp_session_read() - one pass over the raw events, without a model
 * @s: a session
 * @hooks: as in bp_session_build(); only their @event callbacks are run
 * @nhooks: entries in @hooks
 *
 * The checks of bp_session_build(), but for lost events: without a model
 * the command says what was lost itself.
 *
 * Return: 0, or -1 with bp_set_error() as bp_session_build().
 */
int bp_session_read(struct bp_session *s, const struct bp_build_hooks *hooks, size_t nhooks);

#endif
