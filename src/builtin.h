/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_BUILTIN_H
#define BP_BUILTIN_H

/*
 * Adding a command:
 *  1. src/cmd-NAME.c defining cmd_NAME(), which parses its arguments with
 *     an option table first thing (below);
 *  2. a CMD() row in the command table in src/bootprof.c;
 *  3. nothing in the Makefile (it builds every src file);
 *  4. man/bootprof-NAME.1 (its SYNOPSIS options must match `-h`);
 *  5. nothing in completions/: they read `bootprof NAME --completion-helper`;
 *  6. tests/shell/tNNNN-NAME.sh.
 *
 * A command returns its exit status (0 ok, 1 failure, 2 usage) and never
 * calls exit(), so tests can run it in-process. `bootprof CMD -h` and
 * `bootprof help CMD` run cmd_NAME(2, { "NAME", "-h" }): the option table
 * prints the usage to stdout and the command returns 0 before doing
 * anything else.
 *
 * The option table (src/util/parse-options.h):
 *
 *	static const char *const synopsis[] = {
 *		"bootprof NAME [-o FILE] [FILE]",	// the usage line(s), no "usage: "
 *		NULL,
 *	};
 *	static const struct bp_usage usage = {
 *		"NAME", synopsis,
 *		"What the command does.\n",
 *		NULL,			// text after the options, or NULL
 *		"@recording",		// completion of the arguments (FILE)
 *	};
 *
 *	int cmd_NAME(int argc, char **argv)
 *	{
 *		const char *output = NULL;
 *		int force = 0, status;
 *		const struct bp_option options[] = {
 *			OPT_STRING_C('o', "output", &output, "FILE", "the output", "@file"),
 *			OPT_FLAG('f', "force", &force, "replace an existing FILE"),
 *			// a value to check: a callback that returns
 *			// bp_option_fail("invalid --top '%s'", arg)
 *			OPT_CALLBACK(0, "top", &top, "N", "rows per list", opt_top),
 *			OPT_END(),
 *		};
 *
 *		argc = bp_parse_options(argc, argv, options, &usage, 0, &status);
 *		if (argc < 0)
 *			return status;
 *		// argv[0..argc-1]: the arguments that are not options
 *		...
 *	}
 */

/*
 * A recording's warnings (struct bp_warnings: a session's or a summary's),
 * one "bootprof: warning: " line each on stderr, then forgotten: every
 * command that reads a recording says what its load found this one way.
 */
struct bp_warnings;
void bp_warnings_print(struct bp_warnings *w);

/*
 * bp_timeline_plugins() - give an opened timeline (views/timeline.h) the
 * marks of the plugins the report runs (t->source): the initcall plugin's
 * spans, any plugin's phases. Their report output and load warnings are
 * the report's to show, not a timeline's.
 */
struct bp_timeline;
void bp_timeline_plugins(struct bp_timeline *t);

/*
 * --to SPEC, the end point of a critical path (struct bp_crit_end *value,
 * analysis/critical.h), in every command that walks one.
 */
struct bp_option;
int bp_opt_crit_end(const struct bp_option *opt, const char *arg);
#define OPT_CRIT_TO(v) \
	OPT_CALLBACK(0, "to", (v), "SPEC", \
		     "the end point: pid:N (process N's exit), or a phase's end:\n" \
		     "exec:PROG (its first exec), file:PATH (the first event on\n" \
		     "it), service:UNIT (its main process's exit, else its exec)", \
		     bp_opt_crit_end)

#define BP_DECLARE_CMD(name) int cmd_##name(int argc, char **argv)

BP_DECLARE_CMD(record);
BP_DECLARE_CMD(init);
BP_DECLARE_CMD(cmdline);
BP_DECLARE_CMD(collect);
BP_DECLARE_CMD(boot);
BP_DECLARE_CMD(report);
BP_DECLARE_CMD(critical);
BP_DECLARE_CMD(top);
BP_DECLARE_CMD(dump);
BP_DECLARE_CMD(readahead);
BP_DECLARE_CMD(replay);
BP_DECLARE_CMD(chart);
BP_DECLARE_CMD(export);
BP_DECLARE_CMD(diff);
BP_DECLARE_CMD(check);
BP_DECLARE_CMD(db);

#endif
