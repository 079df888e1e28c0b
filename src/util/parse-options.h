/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_PARSE_OPTIONS_H
#define BP_UTIL_PARSE_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

/*
 * One option table per command (git's parse-options): the table parses
 * argv, prints the usage text (-h, --help, `bootprof help CMD`) and the
 * completion data (--completion-helper), so an option is written once.
 *
 *	const char *out = NULL;
 *	uint64_t duration = 0;
 *	int force = 0;
 *	const struct bp_option options[] = {
 *		OPT_STRING('o', "output", &out, "FILE", "the recording"),
 *		OPT_FLAG('f', "force", &force, "replace an existing FILE"),
 *		OPT_TIME('d', "duration", &duration, "T", "stop after T"),
 *		OPT_END(),
 *	};
 *	const struct bp_usage usage = { "record", usage_lines, description, NULL };
 *
 *	argc = bp_parse_options(argc, argv, options, &usage, 0, &status);
 *	if (argc < 0)
 *		return status;     // -h printed the usage (0), or a usage error (2)
 *	// argv[0..argc-1] are the arguments that are not options
 *
 * Values are checked by callbacks: the shared types below (a time, a
 * size, a number, a choice, a window) or a command's own, which return 0,
 * or bp_option_fail("invalid --%s '%s'", opt->long_name, arg): that
 * message is printed as a usage error (exit status 2).
 */

enum bp_opt_type {
	BP_OPT_END,
	BP_OPT_FLAG,     /* int *value = 1 */
	BP_OPT_STRING,   /* const char **value = the argument */
	BP_OPT_CALLBACK, /* cb(opt, arg); arg is NULL when argh is NULL */
	BP_OPT_STRING_LIST, /* struct bp_string_list *value: each use appends */
};

/* The values of a repeatable option, borrowed from argv. */
struct bp_string_list {
	const char **items; /* caller's array of @max entries */
	size_t n;
	size_t max;
};

/* Flags of one option. */
#define BP_OPT_HIDDEN 1 /* accepted, not in the usage nor in completions */

struct bp_option;
typedef int (*bp_option_cb)(const struct bp_option *opt, const char *arg);

struct bp_option {
	enum bp_opt_type type;
	int short_name;        /* 0 when none */
	const char *long_name; /* NULL when none */
	void *value;           /* see the types; callbacks may use it freely */
	const char *argh;      /* the value's name in the usage ("FILE"); NULL: no value */
	const char *help;      /* lines separated by '\n' */
	/*
	 * How a shell completes the value: words separated by spaces
	 * ("text json csv markdown"); groups of words chosen by a word of
	 * the command line ("files: wait read; procs: pid comm": the group
	 * of --view procs, else the first); or one class: "@file", "@recording"
	 * (*.dat), "@command", "@plugin", "@kernel", "@instance", "@plugin-opt" (NAME.),
	 * "@events" (of the recording on the command line), "@live-events".
	 * NULL: nothing to offer.
	 */
	const char *complete;
	bp_option_cb cb;
	int flags;
	uint64_t min, max;     /* OPT_INT, OPT_TIME_RANGE: the values accepted */
};

#define OPT_END() { BP_OPT_END, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0 }
#define OPT_FLAG(s, l, v, h) { BP_OPT_FLAG, (s), (l), (v), NULL, (h), NULL, NULL, 0, 0, 0 }
#define OPT_STRING(s, l, v, a, h) { BP_OPT_STRING, (s), (l), (v), (a), (h), NULL, NULL, 0, 0, 0 }
#define OPT_STRING_C(s, l, v, a, h, c) \
	{ BP_OPT_STRING, (s), (l), (v), (a), (h), (c), NULL, 0, 0, 0 }
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ BP_OPT_CALLBACK, (s), (l), (v), (a), (h), NULL, (cb), 0, 0, 0 }
#define OPT_CALLBACK_C(s, l, v, a, h, c, cb) \
	{ BP_OPT_CALLBACK, (s), (l), (v), (a), (h), (c), (cb), 0, 0, 0 }
#define OPT_STRING_LIST(s, l, v, a, h, c) \
	{ BP_OPT_STRING_LIST, (s), (l), (v), (a), (h), (c), NULL, 0, 0, 0 }
#define OPT_HIDDEN_FLAG(s, l, v) \
	{ BP_OPT_FLAG, (s), (l), (v), NULL, NULL, NULL, NULL, BP_OPT_HIDDEN, 0, 0 }

/*
 * Shared option types (parse-options-cb.c): a time, a size, a number or a
 * window is read by one callback, so it means the same in every command.
 * A bad value is a usage error "invalid --NAME 'VALUE'" (with the range
 * when it is out of it).
 *
 *   OPT_TIME        uint64_t *value, ns: bp_parse_time() ("1.5", "300ms", "2min", "1h")
 *   OPT_TIME_RANGE  the same, from @lo to @hi ns
 *   OPT_SIZE        uint64_t *value, bytes: bp_parse_size() ("4096", "64k", "1M")
 *   OPT_INT         int *value, a whole number from @lo to @hi (>= 0)
 *   OPT_CHOICE      const char **value, one of the words of @words (which
 *                   are also its completions); OPT_FORMAT is -f, --format FMT
 *   OPT_SINCE, OPT_UNTIL
 *                   struct bp_window_arg *value (both options, one value):
 *                   T on the recording clock or +T after its first event
 *   OPT_FOCUS_ALL   int *value: --all, the focus rule's one wording
 */
int bp_opt_time(const struct bp_option *opt, const char *arg);
int bp_opt_size(const struct bp_option *opt, const char *arg);
int bp_opt_int(const struct bp_option *opt, const char *arg);
int bp_opt_choice(const struct bp_option *opt, const char *arg);
int bp_opt_instant(const struct bp_option *opt, const char *arg);

#define OPT_TIME(s, l, v, a, h) OPT_TIME_RANGE(s, l, v, a, h, 0, UINT64_MAX)
#define OPT_TIME_RANGE(s, l, v, a, h, lo, hi) \
	{ BP_OPT_CALLBACK, (s), (l), (v), (a), (h), NULL, bp_opt_time, 0, (lo), (hi) }
#define OPT_SIZE(s, l, v, a, h) OPT_CALLBACK(s, l, v, a, h, bp_opt_size)
#define OPT_INT(s, l, v, a, h, lo, hi) \
	{ BP_OPT_CALLBACK, (s), (l), (v), (a), (h), NULL, bp_opt_int, 0, (lo), (hi) }
#define OPT_CHOICE(s, l, v, a, h, words) OPT_CALLBACK_C(s, l, v, a, h, words, bp_opt_choice)
#define OPT_FORMAT(v, words, h) OPT_CHOICE('f', "format", v, "FMT", h, words)

/**
 * struct bp_instant - a --since or --until value
 * @ns: the time in ns
 * @relative: after the recording's first event ("+T"), else on the
 *            recording clock
 * @set: given
 */
struct bp_instant {
	uint64_t ns;
	int relative;
	int set;
};

/*
 * The window --since and --until ask for, as given; analysis/focus.h puts
 * it on a recording.
 */
struct bp_window_arg {
	struct bp_instant since;
	struct bp_instant until;
};

#define OPT_SINCE(v) \
	OPT_CALLBACK(0, "since", (v), "T", \
		     "start of the window: T on the recording clock (seconds\n" \
		     "since boot, as reports and dmesg print them), or +T after\n" \
		     "the recording's first event; T: 12.5, 300ms, 2min, 1h", bp_opt_instant)
#define OPT_UNTIL(v) \
	OPT_CALLBACK(0, "until", (v), "T", "end of the window (T or +T, as --since)", \
		     bp_opt_instant)

/**
 * bp_window_arg_check() - whether --until comes after --since
 * @w: the window as given
 *
 * Only bounds of the same kind (both on the recording clock, or both
 * after the first event) can be compared before a recording is read.
 *
 * Return: 0, or -1 with bp_set_error() ("--until is not after --since").
 */
int bp_window_arg_check(const struct bp_window_arg *w);

#define OPT_FOCUS_ALL(v) \
	OPT_FLAG(0, "all", (v), "every process of a `record -- CMD` recording, not only\n" \
		 "CMD's process tree (the default)")

/* What the usage text says around the option table. */
struct bp_usage {
	const char *cmd;            /* "report": messages say "bootprof report: ..." */
	const char *const *synopsis; /* lines after "usage: ", NULL-terminated */
	const char *description;    /* paragraph(s) after the synopsis, or NULL */
	const char *footer;         /* text after the options, or NULL */
	/* Completion of the arguments that are not options (see complete). */
	const char *args_complete;
};

/* Parse flags. */
#define BP_PARSE_STOP_AT_NON_OPTION 1 /* the first argument ends the options (record -- CMD) */

/**
 * bp_parse_options() - parse argv[1..argc-1] (argv[0] is the command name)
 * @status: the command's exit status when the result is -1
 *
 * Options and arguments may be mixed unless BP_PARSE_STOP_AT_NON_OPTION;
 * "--" ends the options. -h/--help prints the usage to stdout (status 0);
 * --completion-helper prints the completion data (status 0): one line
 * "opt<TAB>-s<TAB>--long<TAB>ARGH<TAB>COMPLETE" per option (empty fields
 * when absent) and "arg<TAB>COMPLETE" for the other arguments; --list-opts
 * prints the long options one per line (status 0); an unknown option, a
 * missing value or a failed callback prints one line to stderr (status 2).
 *
 * Return: the number of arguments left, moved to argv[0..], or -1.
 */
int bp_parse_options(int argc, char **argv, const struct bp_option *options,
		     const struct bp_usage *usage, int flags, int *status);

/* A callback's failure: bp_set_error(@fmt, ...), then return -1. */
int bp_option_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * What a command's own parse_options() returns to go on; any other value
 * is the exit status to return at once (0 after -h, 2 on a usage error).
 */
#define BP_OPTIONS_GO_ON (-1)

/* Print the usage text of a table to @out. */
void bp_print_usage(FILE *out, const struct bp_option *options, const struct bp_usage *usage);

#endif
