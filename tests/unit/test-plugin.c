// SPDX-License-Identifier: GPL-2.0
/*
 * Plugins without dlopen: the registry of built-in descriptors, trust and
 * ABI checks, options, the renderers, and the built-in plugins fed by hand:
 * initcall with real initcall event formats and a kallsyms table (the
 * fixture of an early-boot recording), android and polling with a model
 * filled by hand.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "analysis/model.h"
#include "doc/doc.h"
#include "plugin/plugins.h"
#include "tracefile/tracefile.h"
#include "util/error.h"
#include "util/json.h"
#include "util/xalloc.h"
#include "views/report.h"

#include "../../plugins/tidmap.h"

/* ---- helpers ---- */

static struct bp_plugin_set *load_only(const char *select, const char **opts, size_t nopts)
{
	struct bp_plugin_opts o = { 0 };

	o.select = select;
	o.opts = opts;
	o.nopts = nopts;
	return bp_plugins_load(&o);
}

/* JSON without its line breaks and indentation, for one-line needles. */
static void compact(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '\n') {
			while (s[1] == ' ')
				s++;
			continue;
		}
		*w++ = *s;
	}
	*w = 0;
}

/* What a finished set renders, as one string (caller frees); JSON compacted. */
static char *render(const struct bp_plugin_set *set, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json) {
		struct bp_json jw;

		bp_json_init(&jw, f, 0);
		bp_json_object_begin(&jw, NULL);
		bp_node_json(&jw, "plugins", bp_plugins_doc(set)->json);
		bp_json_end(&jw);
	} else {
		/* The text report of an empty model: plugin sections come last. */
		struct bp_report_opts o = { .plugins = bp_plugins_doc(set) };
		struct bp_model *m = bp_model_new();

		bp_view_text(f, m, &o);
		bp_model_free(m);
	}
	fclose(f);
	if (json)
		compact(buf);
	return buf;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("expected '%s' in:\n%s", needle, hay);
}

/* ---- registry, trust, ABI, options ---- */

static void test_builtins(void **state)
{
	size_t i, j, n = 0;

	(void)state;
	for (i = 0; bp_builtin_plugins[i]; i++, n++) {
		const struct bootprof_plugin *p = bp_builtin_plugins[i];

		assert_int_equal(p->abi, BOOTPROF_PLUGIN_ABI);
		assert_non_null(p->name);
		assert_non_null(p->summary);
		assert_non_null(p->json_keys);
		assert_non_null(p->model);
		for (j = 0; j < i; j++)
			assert_string_not_equal(p->name, bp_builtin_plugins[j]->name);
	}
	assert_int_equal(n, 4);
	/*
	 * android reads the model's waits only: its events are the boot marks'
	 * (an exec, a trace_marker line), none a wait could be decided from.
	 */
	for (i = 0; strcmp(bp_builtin_plugins[i]->name, "android"); i++)
		;
	assert_non_null(bp_builtin_plugins[i]->events);
	for (j = 0; bp_builtin_plugins[i]->events[j]; j++)
		assert_true(!strcmp(bp_builtin_plugins[i]->events[j], "sched:sched_process_exec") ||
			    !strcmp(bp_builtin_plugins[i]->events[j], "ftrace:print"));
	assert_int_equal(j, 2);
}

static void test_untrusted(void **state)
{
	struct stat st = { 0 };

	(void)state;
	st.st_uid = 1000;
	st.st_gid = 1000;
	st.st_mode = S_IFREG | 0755;
	assert_null(bp_plugin_untrusted(&st, 1000, 1000));
	st.st_uid = 0;
	assert_null(bp_plugin_untrusted(&st, 1000, 1000));
	st.st_uid = 1001;
	assert_string_equal(bp_plugin_untrusted(&st, 1000, 1000), "owned by another user");
	st.st_uid = 1000;
	st.st_mode = S_IFDIR | 0777;
	assert_string_equal(bp_plugin_untrusted(&st, 1000, 1000), "writable by others");
	st.st_mode = S_IFDIR | 0775;
	assert_null(bp_plugin_untrusted(&st, 1000, 1000));
	st.st_gid = 50;
	assert_string_equal(bp_plugin_untrusted(&st, 1000, 1000), "writable by another group");
	st.st_gid = 0;
	assert_null(bp_plugin_untrusted(&st, 1000, 1000));
}

static int other_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	(void)m;
	ctx->host->value_u64(ctx, "answer", 42);
	return 0;
}

static const struct bootprof_plugin other_abi = {
	.abi = BOOTPROF_PLUGIN_ABI + 1, .name = "future", .model = other_model,
};

static const struct bootprof_plugin dup_name = {
	.abi = BOOTPROF_PLUGIN_ABI, .name = "polling", .model = other_model,
};

static void test_abi_and_duplicates(void **state)
{
	struct bp_plugin_set *set = load_only(NULL, NULL, 0);
	char want[128];

	(void)state;
	assert_non_null(set);
	assert_int_equal(bp_plugins_count(set), 4);
	assert_int_equal(bp_plugins_add(set, &other_abi, "x.so"), -1);
	snprintf(want, sizeof(want), "plugin ABI version %u, this bootprof uses %u",
		 BOOTPROF_PLUGIN_ABI + 1, BOOTPROF_PLUGIN_ABI);
	assert_non_null(strstr(bp_last_error(), want));
	assert_int_equal(bp_plugins_add(set, &dup_name, "y.so"), -1);
	assert_non_null(strstr(bp_last_error(), "already loaded"));
	assert_int_equal(bp_plugins_count(set), 4);
	bp_plugins_free(set);
}

static void test_select_and_options(void **state)
{
	const char *good[] = { "android.process=zygote", "android.bogus=1" };
	const char *bad[] = { "android" };
	const char *unknown[] = { "nosuch.key=1" };
	const char *origin;
	struct bp_plugin_set *set;
	struct bp_plugin_opts o = { 0 };

	(void)state;
	set = load_only("polling,android", good, 2);
	assert_non_null(set);
	assert_int_equal(bp_plugins_count(set), 2);
	assert_string_equal(bp_plugins_get(set, 0, &origin)->name, "android");
	assert_string_equal(origin, "built-in");
	assert_int_equal(bp_plugins_nwarnings(set), 1);
	assert_non_null(strstr(bp_plugins_warning(set, 0), "no option 'bogus'"));
	bp_plugins_free(set);

	assert_null(load_only("polling,nosuch", NULL, 0));
	assert_non_null(strstr(bp_last_error(), "no plugin named 'nosuch'"));
	assert_null(load_only(NULL, bad, 1));
	assert_non_null(strstr(bp_last_error(), "malformed plugin option"));
	assert_null(load_only(NULL, unknown, 1));
	assert_non_null(strstr(bp_last_error(), "no plugin named 'nosuch'"));

	o.disabled = 1;
	set = bp_plugins_load(&o);
	assert_int_equal(bp_plugins_count(set), 0);
	bp_plugins_free(set);
}

/* ---- the initcall plugin on real event formats ---- */

/* The common fields every event format starts with (6.18's, x86_64). */
#define COMMON_FIELDS                                                                  \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"           \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"           \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"   \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                       \
	"\n"

static const char initcall_start_fmt[] =
	"name: initcall_start\n"
	"ID: 22\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:initcall_t func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"func=%pS\", REC->func\n";

static const char initcall_finish_fmt[] =
	"name: initcall_finish\n"
	"ID: 21\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:initcall_t func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int ret;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"func=%pS ret=%d\", REC->func, REC->ret\n";

static const char initcall_level_fmt[] =
	"name: initcall_level\n"
	"ID: 23\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:__data_loc char[] level;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"level=%s\", __get_str(level)\n";

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff82a01230 t pci_subsys_init\n"
	"ffffffff82a02000 t virtio_blk_init\n"
	"ffffffff82a03000 t ext4_init_fs\n"
	"ffffffff82a04000 t zz_after\n";

/* include/trace/events/module.h, as 6.12 formats it (flags shortened). */
static const char module_load_fmt[] =
	"name: module_load\n"
	"ID: 24\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:unsigned int taints;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"%s %s\", __get_str(name), __print_flags(REC->taints, \"\", "
	"{ (1UL << 0), \"P\" }, { (1UL << 12), \"O\" })\n";

struct raw {
	unsigned char b[96];
	int size;
};

static struct raw rec(int id, int pid, uint64_t func, int ret, const char *level)
{
	struct raw r = { { 0 }, 0 };
	uint16_t type = (uint16_t)id;

	memcpy(r.b, &type, 2);
	memcpy(r.b + 4, &pid, 4);
	if (level) {
		uint32_t loc = (uint32_t)(strlen(level) + 1) << 16 | 12;

		memcpy(r.b + 8, &loc, 4);
		memcpy(r.b + 12, level, strlen(level) + 1);
		r.size = 12 + (int)strlen(level) + 1;
		return r;
	}
	memcpy(r.b + 8, &func, 8);
	memcpy(r.b + 16, &ret, 4);
	r.size = id == 21 ? 20 : 16;
	return r;
}

static void feed(struct bp_build_hooks *h, struct tep_handle *tep, uint64_t ts, struct raw r)
{
	struct bp_event ev = { 0 };
	uint16_t id;

	memcpy(&id, r.b, 2);
	ev.ts = ts;
	ev.id = id;
	ev.format = tep_find_event(tep, id);
	ev.data = r.b;
	ev.size = r.size;
	h->event(h->arg, &ev);
}

/* A tep with the initcall and module formats. */
static struct tep_handle *initcall_tep(void)
{
	struct tep_handle *tep = tep_alloc();

	assert_non_null(tep);
	tep_set_long_size(tep, 8);
	tep_set_cpus(tep, 1);
	assert_int_equal(tep_parse_event(tep, initcall_start_fmt, strlen(initcall_start_fmt),
					 "initcall"), 0);
	assert_int_equal(tep_parse_event(tep, initcall_finish_fmt, strlen(initcall_finish_fmt),
					 "initcall"), 0);
	assert_int_equal(tep_parse_event(tep, initcall_level_fmt, strlen(initcall_level_fmt),
					 "initcall"), 0);
	assert_int_equal(tep_parse_event(tep, module_load_fmt, strlen(module_load_fmt), "module"),
			 0);
	return tep;
}

/* The initcall plugin started on tep, the recording's kallsyms and an option. */
static struct bp_plugin_set *initcall_set(struct tep_handle *tep, const char *kallsyms_text,
					  const char *opt, struct bp_build_hooks *h)
{
	struct bp_plugin_set *set = load_only("initcall", &opt, opt ? 1 : 0);

	assert_non_null(set);
	bp_plugins_start(set, tep, NULL);
	bp_plugins_kallsyms(set, kallsyms_text);
	bp_plugins_hooks(set, h);
	return set;
}

/* Finish the set on an empty model; its text and JSON as one string (caller frees). */
static char *initcall_output(struct bp_plugin_set *set, struct tep_handle *tep)
{
	struct bp_model *m = bp_model_new();
	char *json, *text, *both;

	bp_plugins_finish(set, m, NULL);
	json = render(set, 1);
	text = render(set, 0);
	both = xasprintf("%s\n%s", text, json);
	free(json);
	free(text);
	bp_plugins_free(set);
	bp_model_free(m);
	tep_free(tep);
	return both;
}

static char *run_initcall(int with_kallsyms, const char *opt)
{
	const uint64_t ms = 1000000;
	struct tep_handle *tep = initcall_tep();
	struct bp_build_hooks h;
	struct bp_plugin_set *set = initcall_set(tep, with_kallsyms ? kallsyms : NULL, opt, &h);

	feed(&h, tep, 100 * ms, rec(23, 1, 0, 0, "subsys"));
	feed(&h, tep, 101 * ms, rec(22, 1, 0xffffffff82a01230ull, 0, NULL));
	feed(&h, tep, 104 * ms, rec(21, 1, 0xffffffff82a01230ull, 0, NULL));
	feed(&h, tep, 110 * ms, rec(23, 1, 0, 0, "device"));
	feed(&h, tep, 111 * ms, rec(22, 1, 0xffffffff82a02000ull, 0, NULL));
	feed(&h, tep, 161 * ms, rec(21, 1, 0xffffffff82a02000ull, -19, NULL));
	feed(&h, tep, 170 * ms, rec(22, 1, 0xffffffff82a03010ull, 0, NULL));
	feed(&h, tep, 190 * ms, rec(21, 1, 0xffffffff82a03010ull, 0, NULL));
	return initcall_output(set, tep);
}

static void test_initcall(void **state)
{
	char *out = run_initcall(1, NULL);
	const char *slow, *mid;

	(void)state;
	assert_contains(out, "== initcall: kernel initcalls");
	assert_contains(out, "3 initcalls, 73.0 ms in total");
	/* Slowest first, named from kallsyms, an offset inside a symbol shown. */
	slow = strstr(out, "virtio_blk_init");
	mid = strstr(out, "ext4_init_fs+0x10");
	assert_non_null(slow);
	assert_non_null(mid);
	assert_true(slow < mid);
	assert_true(mid < strstr(out, "pci_subsys_init"));
	assert_contains(out, "\"symbol\": \"virtio_blk_init\"");
	assert_contains(out, "\"duration_ns\": 50000000");
	assert_contains(out, "\"ret\": -19");
	assert_contains(out, "\"level\": \"device\"");
	assert_contains(out, "\"total_ns\": 73000000");
	free(out);

	/* Without kallsyms the address is all there is. */
	out = run_initcall(0, NULL);
	assert_contains(out, "0xffffffff82a02000");
	assert_contains(out, "\"symbol\": null");
	free(out);

	/* Or a kallsyms file of that boot, given as an option. */
	{
		char path[] = "/tmp/bootprof-kallsyms-XXXXXX";
		int fd = mkstemp(path);
		char *opt = xasprintf("initcall.kallsyms=%s", path);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, kallsyms, strlen(kallsyms)), (ssize_t)strlen(kallsyms));
		close(fd);
		out = run_initcall(0, opt);
		unlink(path);
		free(opt);
		assert_contains(out, "\"symbol\": \"virtio_blk_init\"");
		assert_contains(out, "\"symbol\": \"ext4_init_fs+0x10\"");
		free(out);
	}
}

/* ---- initcall names: a module's init, bounded symbols, unresolved ---- */

static struct raw module_load(int pid, const char *name)
{
	struct raw r = { { 0 }, 0 };
	uint16_t type = 24;
	uint32_t loc = (uint32_t)(strlen(name) + 1) << 16 | 16;

	memcpy(r.b, &type, 2);
	memcpy(r.b + 4, &pid, 4);
	memcpy(r.b + 12, &loc, 4);
	memcpy(r.b + 16, name, strlen(name) + 1);
	r.size = 16 + (int)strlen(name) + 1;
	return r;
}

/*
 * A boot as a Debian kernel records it: built-in initcalls on PID 1, then
 * insmod (pid 300) loads crc16 (no init function), jbd2 and ext4, whose
 * inits run at addresses of their freed init sections; another task (301)
 * runs an initcall no module_load precedes. kallsyms_text: the recording's
 * kallsyms, read at the end of the boot, or NULL.
 */
static char *run_modules(const char *kallsyms_text, const char *opt)
{
	const uint64_t ms = 1000000;
	struct tep_handle *tep = initcall_tep();
	struct bp_build_hooks h;
	struct bp_plugin_set *set = initcall_set(tep, kallsyms_text, opt, &h);

	feed(&h, tep, 100 * ms, rec(23, 1, 0, 0, "late"));
	feed(&h, tep, 101 * ms, rec(22, 1, 0xffffffff82a02000ull, 0, NULL));
	feed(&h, tep, 102 * ms, rec(21, 1, 0xffffffff82a02000ull, 0, NULL));
	feed(&h, tep, 200 * ms, module_load(300, "crc16"));
	feed(&h, tep, 210 * ms, module_load(300, "jbd2"));
	feed(&h, tep, 211 * ms, rec(22, 300, 0xffffffffc0ab5240ull, 0, NULL));
	feed(&h, tep, 215 * ms, rec(21, 300, 0xffffffffc0ab5240ull, 0, NULL));
	feed(&h, tep, 220 * ms, module_load(300, "ext4"));
	feed(&h, tep, 221 * ms, rec(22, 300, 0xffffffffc0ab5240ull, 0, NULL));
	feed(&h, tep, 301 * ms, rec(21, 300, 0xffffffffc0ab5240ull, 0, NULL));
	/* The same address again: ext4's init section was freed and reused. */
	feed(&h, tep, 400 * ms, rec(22, 301, 0xffffffffc0ab5240ull, 0, NULL));
	feed(&h, tep, 407 * ms, rec(21, 301, 0xffffffffc0ab5240ull, 0, NULL));
	return initcall_output(set, tep);
}

/* What the buggy boot's kallsyms named those addresses after. */
static const char module_kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff82a02000 t virtio_blk_init\n"
	"ffffffff82a04000 t zz_after\n"
	"ffffffffc0a80000 t wait_transaction_locked\t[jbd2]\n"
	"ffffffffc0c00000 t ich_pata_cable_detect\t[ata_piix]\n";

/* run_modules() with a kallsyms table in the recording, or in a file given as an option. */
static char *run_table(const char *table, int as_file)
{
	char path[] = "/tmp/bootprof-kallsyms-XXXXXX";
	char *opt, *out;
	int fd;

	if (!as_file)
		return run_modules(table, NULL);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, table, strlen(table)), (ssize_t)strlen(table));
	close(fd);
	opt = xasprintf("initcall.kallsyms=%s", path);
	out = run_modules(NULL, opt);
	unlink(path);
	free(opt);
	return out;
}

static void test_initcall_modules(void **state)
{
	static const char inside[] = "ffffffff82a01000 t virtio_blk_init_pre\n"
				     "ffffffffc0ab0000 t jbd2_journal_start\t[jbd2]\n"
				     "ffffffffc0ab6000 d jbd2_slab\t[jbd2]\n";
	/* A table, in the recording or a file; two names it gives; one it must not. */
	static const struct {
		const char *table;
		int as_file;
		const char *want[2];
		const char *never;
	} cases[] = {
		/* No kallsyms: the built-in call says it is unresolved. */
		{ NULL, 0, { "0xffffffff82a02000 (unresolved)", "0xffffffffc0ab5240 (unresolved)" },
		  NULL },
		/* Past the last symbol of the table: no name. */
		{ "ffffffff82a01000 t virtio_blk_init_pre\n", 0,
		  { "0xffffffff82a02000 (unresolved)", "ext4:init" }, "virtio_blk_init_pre" },
		/*
		 * Inside a symbol, below the next one of the same module (a data
		 * symbol bounds it too), an offset; past the kernel image's last
		 * symbol (the next is a module's), none.
		 */
		{ inside, 0, { "\"symbol\": \"jbd2_journal_start+0x5240\"",
			       "0xffffffff82a02000 (unresolved)" }, NULL },
		/* A kallsyms file given as an option follows the same rule. */
		{ module_kallsyms, 1, { "\"symbol\": \"virtio_blk_init\"",
					"0xffffffffc0ab5240 (unresolved)" }, "wait_transaction_locked" },
		{ inside, 1, { "\"symbol\": \"jbd2_journal_start+0x5240\"",
			       "0xffffffff82a02000 (unresolved)" }, NULL },
	};
	const char *ext4, *jbd2;
	size_t i, j;
	char *out;

	(void)state;
	/* Named by module, whatever kallsyms says sits at the address now. */
	out = run_modules(module_kallsyms, NULL);
	assert_contains(out, "4 initcalls, 92.0 ms in total");
	ext4 = strstr(out, "ext4:init");
	jbd2 = strstr(out, "jbd2:init");
	assert_non_null(ext4);
	assert_non_null(jbd2);
	assert_true(ext4 < jbd2); /* slowest first */
	assert_null(strstr(out, "crc16"));
	assert_contains(out, "\"duration_ns\": 80000000,\"start_ns\": 221000000,\"level\": \"module\","
			"\"ret\": 0,\"func\": \"0xffffffffc0ab5240\",\"symbol\": null,"
			"\"module\": \"ext4\",\"pid\": 300}");
	assert_contains(out, "\"symbol\": \"virtio_blk_init\",\"module\": null,\"pid\": 1}");
	/* A module init is in no level: "late" holds PID 1's call only. */
	assert_contains(out, "{\"level\": \"late\",\"count\": 1,\"total_ns\": 1000000}");
	/* Past the last symbol of jbd2 (the next is ata_piix's): no name. */
	assert_contains(out, "\"func\": \"0xffffffffc0ab5240\",\"symbol\": null,\"module\": null,"
			"\"pid\": 301}");
	assert_contains(out, "0xffffffffc0ab5240 (unresolved)");
	assert_null(strstr(out, "wait_transaction_locked"));
	free(out);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out = run_table(cases[i].table, cases[i].as_file);
		assert_contains(out, "ext4:init");
		for (j = 0; j < 2; j++)
			assert_contains(out, cases[i].want[j]);
		if (cases[i].never && strstr(out, cases[i].never))
			fail_msg("case %zu: '%s' in:\n%s", i, cases[i].never, out);
		free(out);
	}
}

/* ---- android and polling on a model filled by hand ---- */

static void add_process(struct bp_model *m, int pid, const char *comm, const char *exec,
			int parent, uint64_t wait, uint64_t run)
{
	struct bp_process *p = &m->processes[m->nprocesses++];

	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	if (exec) {
		p->exec = xcalloc(1, sizeof(*p->exec));
		p->exec[0] = xstrdup(exec);
		p->exec_part = xcalloc(1, sizeof(*p->exec_part));
		p->nexec = 1;
	}
	p->parent = parent >= 0 ? &m->processes[parent] : NULL;
	p->ppid = parent >= 0 ? m->processes[parent].pid : 0;
	p->wait_ns = wait;
	p->run_ns = run;
}

static void add_file(struct bp_model *m, const char *path, uint64_t read, uint64_t used,
		     size_t nreaders)
{
	struct bp_file *f = &m->files[m->nfiles++];

	f->path = xstrdup(path);
	f->ino = m->nfiles;
	f->bytes_read = read;
	f->used_bytes = used;
	f->never_used_bytes = read - used;
	/* add_access() fills the readers in, as the model has them. */
	f->readers = xcalloc(nreaders, sizeof(*f->readers));
	f->first_ns = 1000000000;
	f->last_ns = 1000000000 + (uint64_t)(nreaders - 1) * 10000000;
}

static void add_access(struct bp_model *m, size_t proc, size_t file, uint64_t wait,
		       uint64_t bytes)
{
	struct bp_access *a = &m->accesses[m->naccesses++];

	a->process = &m->processes[proc];
	a->file = &m->files[file];
	a->wait_ns = wait;
	a->bytes_read = bytes;
	m->processes[proc].bytes_read += bytes;
	m->files[file].readers[m->files[file].nreaders++] = a;
}

static struct bp_model *android_model(void)
{
	const uint64_t ms = 1000000;
	struct bp_model *m = bp_model_new();

	m->processes = xcalloc(4, sizeof(*m->processes));
	m->files = xcalloc(6, sizeof(*m->files));
	m->accesses = xcalloc(8, sizeof(*m->accesses));
	add_process(m, 1, "init", "/sbin/init", -1, 5 * ms, 0);
	add_process(m, 100, "zygote", "/system/bin/app_process", 0, 700 * ms, 50 * ms);
	add_process(m, 101, "system_server", NULL, 1, 100 * ms, 10 * ms);
	add_process(m, 200, "pm", "/system/bin/pm", 0, 0, 0);
	add_file(m, "/system/framework/framework.jar", 8 << 20, 8 << 20, 1);
	add_file(m, "/system/app/Foo.apk", 4 << 20, 64 << 10, 2);
	add_file(m, "/system/framework/boot.oat", 2 << 20, 2 << 20, 1);
	add_file(m, "/system/lib/libandroid_runtime.so", 1 << 20, 1 << 20, 1);
	add_file(m, "/system/etc/preloaded-classes", 1 << 16, 1 << 16, 1);
	add_file(m, "/data/app/Bar.apk", 1 << 20, 4096, 1);
	add_access(m, 1, 0, 400 * ms, 8 << 20);
	add_access(m, 1, 1, 100 * ms, 1 << 20);
	add_access(m, 2, 2, 50 * ms, 2 << 20);
	add_access(m, 1, 3, 30 * ms, 1 << 20);
	add_access(m, 1, 4, 20 * ms, 1 << 16);
	add_access(m, 3, 1, 10 * ms, 3 << 20);
	add_access(m, 3, 5, 10 * ms, 1 << 20);
	return m;
}

static void test_android(void **state)
{
	const char *opts[] = { "android.process=zygote", "android.archives=*.apk" };
	struct bp_model *m = android_model();
	struct bp_plugin_set *set = load_only("android", opts, 2);
	char *json, *text;

	(void)state;
	bp_plugins_start(set, NULL, NULL);
	bp_plugins_finish(set, m, NULL);
	json = render(set, 1);
	text = render(set, 0);
	/* Zygote and system_server: 800 ms of wait, 600 ms of it charged to files. */
	assert_contains(json, "\"processes\": 2");
	assert_contains(json, "\"wait_ns\": 800000000");
	assert_contains(json, "\"jar\": {\"wait_ns\": 400000000");
	assert_contains(json, "\"apk\": {\"wait_ns\": 100000000");
	assert_contains(json, "\"oat\": {\"wait_ns\": 50000000");
	assert_contains(json, "\"so\": {\"wait_ns\": 30000000");
	assert_contains(json, "\"other\": {\"wait_ns\": 20000000");
	assert_contains(json, "\"unattributed\": {\"wait_ns\": 200000000");
	/* The package scan: two APKs, most of what was read never used. */
	assert_contains(json, "\"count\": 2");
	assert_contains(json, "\"bytes_read\": 5242880");
	assert_contains(json, "\"used_bytes\": 69632");
	assert_contains(text, "== android: zygote preload");
	assert_contains(text, "== android: package scan");
	assert_contains(text, "jar           400.0 ms  50.0%   8.0 MiB");
	assert_true(strstr(text, "/system/app/Foo.apk") < strstr(text, "/data/app/Bar.apk"));
	/* system_server: its process row's numbers; no pass, so no merged waits. */
	assert_contains(json, "\"system_server\": {\"processes\": 1,\"wait_ns\": 100000000,"
			      "\"run_ns\": 10000000,\"bytes_read\": 2097152,"
			      "\"waiting_wall_ns\": null,\"cpu_idle_while_waiting_ns\": null}");
	assert_contains(text, "system_server (pid 101): I/O wait 100.0 ms, CPU 10.0 ms, read 2.0 MiB");
	assert_null(strstr(text, "waiting (wall)"));
	free(json);
	free(text);
	bp_plugins_free(set);

	/* A process pattern that matches nothing: no zygote, zero counts; system_server still shown. */
	opts[0] = "android.process=nothing";
	set = load_only("android", opts, 1);
	bp_plugins_start(set, NULL, NULL);
	bp_plugins_finish(set, m, NULL);
	json = render(set, 1);
	assert_contains(json, "\"matched\": 0");
	free(json);
	text = render(set, 0);
	assert_null(strstr(text, "Zygote"));
	assert_contains(text, "system_server (pid 101)");
	assert_contains(text, "== android: package scan");
	free(text);
	bp_plugins_free(set);

	/* Neither a zygote nor a system_server: not Android, though an .apk was read. */
	snprintf(m->processes[2].comm, sizeof(m->processes[2].comm), "installer");
	set = load_only("android", opts, 1);
	bp_plugins_start(set, NULL, NULL);
	bp_plugins_finish(set, m, NULL);
	text = render(set, 0);
	assert_null(strstr(text, "== android"));
	free(text);
	json = render(set, 1);
	assert_contains(json, "\"system_server\": {\"processes\": 0,");
	assert_contains(json, "\"count\": 3");
	free(json);
	bp_plugins_free(set);
	bp_model_free(m);
}

static void test_polling_files(void **state)
{
	const char *opts[] = { "polling.min=2" };
	struct bp_model *m = android_model();
	struct bp_plugin_set *set = load_only("polling", opts, 1);
	char *json;

	(void)state;
	bp_plugins_start(set, NULL, NULL);
	bp_plugins_finish(set, m, NULL);
	json = render(set, 1);
	/* Foo.apk: 2 readers 10 ms apart: 100 per second. */
	assert_contains(json, "\"path\": \"/system/app/Foo.apk\",\"readers\": 2");
	assert_contains(json, "\"per_second\": 100.000");
	assert_null(strstr(json, "framework.jar"));
	free(json);
	bp_plugins_free(set);
	bp_model_free(m);
}

/* ---- android: the zygote tree's waits merged in time, from the model's spans ---- */

static void add_thread(struct bp_model *m, int tid, size_t proc)
{
	struct bp_thread *t = &m->threads[m->nthreads++];

	t->tid = tid;
	t->process = &m->processes[proc];
	snprintf(t->comm, sizeof(t->comm), "%s", m->processes[proc].comm);
}

/* A span of the pass, fed to the plugins' span hook: an I/O wait, or (tid 0) every CPU idle. */
static void span(struct bp_build_hooks *h, int tid, uint64_t from_ms, uint64_t to_ms)
{
	struct bp_span sp = { 0 };

	sp.tid = tid;
	sp.cpu = -1;
	sp.state = tid ? BP_SPAN_IO_WAIT : BP_SPAN_IDLE_WAIT;
	sp.cause = BP_CAUSE_FAULT;
	sp.start_ns = from_ms * 1000000;
	sp.end_ns = to_ms * 1000000;
	h->span(h->arg, &sp);
}

static void test_android_idle(void **state)
{
	const char *opts[] = { "android.process=zygote" };
	struct bp_plugin_set *set = load_only("android", opts, 1);
	struct bp_model *m = bp_model_new();
	struct bp_build_hooks h;
	char *json, *text;

	(void)state;
	m->processes = xcalloc(4, sizeof(*m->processes));
	m->threads = xcalloc(5, sizeof(*m->threads));
	add_process(m, 1, "init", "/sbin/init", -1, 0, 0);
	add_process(m, 7, "other", NULL, 0, 9000000, 0);
	add_process(m, 100, "zygote", NULL, 0, 26000000, 0);
	add_process(m, 101, "system_server", NULL, 2, 4000000, 0);
	/* By tid, as the model keeps them; 102 is a second thread of zygote. */
	add_thread(m, 1, 0);
	add_thread(m, 7, 1);
	add_thread(m, 100, 2);
	add_thread(m, 101, 3);
	add_thread(m, 102, 2);
	bp_plugins_start(set, NULL, NULL);
	bp_plugins_hooks(set, &h);
	assert_non_null(h.span);
	/* Spans end in any order; two threads of zygote overlap 12..18. */
	span(&h, 102, 12, 18);
	span(&h, 0, 10, 15);
	span(&h, 0, 20, 30);
	span(&h, 100, 10, 30);
	span(&h, 0, 32, 36);
	span(&h, 101, 32, 36);
	span(&h, 0, 41, 50);
	span(&h, 7, 41, 50);
	bp_plugins_finish(set, m, NULL);
	json = render(set, 1);
	/* Its tree waited 10..30 and 32..36; every CPU idle in 10..15, 20..30, 32..36. */
	assert_contains(json, "\"processes\": 2,\"wait_ns\": 30000000,\"run_ns\": 0,"
			      "\"bytes_read\": 0,\"waiting_wall_ns\": 24000000,"
			      "\"cpu_idle_while_waiting_ns\": 19000000,");
	/* system_server: its own wait, 32..36, all idle. */
	assert_contains(json, "\"system_server\": {\"processes\": 1,\"wait_ns\": 4000000,"
			      "\"run_ns\": 0,\"bytes_read\": 0,\"waiting_wall_ns\": 4000000,"
			      "\"cpu_idle_while_waiting_ns\": 4000000}");
	text = render(set, 0);
	assert_contains(text, "Zygote ('zygote', 2 processes): I/O wait 30.0 ms");
	assert_contains(text, "system_server (pid 101): I/O wait 4.0 ms");
	assert_contains(text, "waiting (wall) 24.0 ms, all CPUs idle meanwhile 19.0 ms");
	free(json);
	free(text);
	bp_plugins_free(set);
	bp_model_free(m);
}

static const char fork_fmt[] =
	"name: sched_process_fork\n"
	"ID: 366\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:__data_loc char[] parent_comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t parent_pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] child_comm;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t child_pid;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"pid=%d child_pid=%d\", REC->parent_pid, REC->child_pid\n";

static struct raw fork_of(int parent, int child)
{
	struct raw r = { { 0 }, 25 };
	uint16_t type = 366;
	uint32_t empty = 1u << 16 | 24;

	memcpy(r.b, &type, 2);
	memcpy(r.b + 4, &parent, 4);
	memcpy(r.b + 8, &empty, 4);
	memcpy(r.b + 12, &parent, 4);
	memcpy(r.b + 16, &empty, 4);
	memcpy(r.b + 20, &child, 4);
	return r;
}

static void feed_cpu(struct bp_build_hooks *h, struct tep_handle *tep, uint64_t ms, int cpu,
		     struct raw r)
{
	struct bp_event ev = { 0 };

	ev.ts = ms * 1000000;
	ev.cpu = cpu;
	ev.id = r.b[0] | r.b[1] << 8;
	ev.format = tep_find_event(tep, ev.id);
	ev.data = r.b;
	ev.size = r.size;
	h->event(h->arg, &ev);
}

/* ---- systemd: units from cgroup paths, inherited at fork ---- */

static const char attach_fmt[] =
	"name: cgroup_attach_task\n"
	"ID: 538\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:int dst_root;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dst_level;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 dst_id;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] dst_path;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] comm;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"dst_path=%s pid=%d\", __get_str(dst_path), REC->pid\n";

static struct raw attach(int root, int pid, const char *path)
{
	struct raw r = { { 0 }, 0 };
	uint16_t type = 538;
	size_t n = strlen(path) + 1;
	uint32_t loc = (uint32_t)n << 16 | 36, comm = 1u << 16 | (uint32_t)(36 + n);

	assert_true(36 + n + 1 <= sizeof(r.b));
	memcpy(r.b, &type, 2);
	memcpy(r.b + 4, &pid, 4);
	memcpy(r.b + 8, &root, 4);
	memcpy(r.b + 24, &pid, 4);
	memcpy(r.b + 28, &loc, 4);
	memcpy(r.b + 32, &comm, 4);
	memcpy(r.b + 36, path, n);
	r.size = (int)(36 + n + 1);
	return r;
}

static void test_systemd_units(void **state)
{
	struct tep_handle *tep = tep_alloc();
	struct bp_plugin_set *set = load_only("systemd", NULL, 0);
	struct bp_model *m = bp_model_new();
	struct bp_build_hooks h;
	char *json;

	(void)state;
	tep_set_long_size(tep, 8);
	assert_int_equal(tep_parse_event(tep, attach_fmt, strlen(attach_fmt), "cgroup"), 0);
	assert_int_equal(tep_parse_event(tep, fork_fmt, strlen(fork_fmt), "sched"), 0);
	bp_plugins_start(set, tep, NULL);
	bp_plugins_hooks(set, &h);
	feed_cpu(&h, tep, 1, 0, attach(0, 10, "/system.slice/udev.service"));
	feed_cpu(&h, tep, 2, 0, fork_of(10, 11));
	/* A v1 controller keeping everything at its root changes nothing. */
	feed_cpu(&h, tep, 3, 0, attach(4, 11, "/"));
	feed_cpu(&h, tep, 4, 0, attach(0, 20, "/system.slice/foo.service/control"));
	feed_cpu(&h, tep, 5, 0, attach(0, 30, "/user.slice/user-1000.slice/session-2.scope"));
	feed_cpu(&h, tep, 6, 0, attach(0, 40, "/user.slice"));
	feed_cpu(&h, tep, 7, 0, attach(0, 50, "/system.slice/bar.service"));
	/* Moved back to the root of the same hierarchy: no unit any more. */
	feed_cpu(&h, tep, 8, 0, attach(0, 50, "/"));
	m->processes = xcalloc(6, sizeof(*m->processes));
	add_process(m, 10, "systemd-udevd", NULL, -1, 1000, 10);
	add_process(m, 11, "blkid", "/sbin/blkid", 0, 200, 20);
	add_process(m, 20, "foo", NULL, -1, 30, 0);
	add_process(m, 30, "bash", NULL, -1, 0, 0);
	add_process(m, 40, "x", NULL, -1, 0, 0);
	add_process(m, 50, "bar", NULL, -1, 5, 0);
	bp_plugins_finish(set, m, NULL);
	json = render(set, 1);
	assert_contains(json, "\"attach_events\": 7");
	assert_contains(json, "{\"unit\": \"udev.service\",\"processes\": 2,\"wait_ns\": 1200,"
			      "\"run_ns\": 30,");
	assert_contains(json, "{\"unit\": \"foo.service\",\"processes\": 1,\"wait_ns\": 30,");
	assert_contains(json, "{\"unit\": \"session-2.scope\",\"processes\": 1,");
	assert_contains(json, "{\"unit\": \"user.slice\",\"processes\": 1,");
	/* bar.service has no process of the model left: a unit of no selected process is not listed. */
	assert_null(strstr(json, "bar.service"));
	free(json);
	bp_plugins_free(set);
	bp_model_free(m);
	tep_free(tep);
}

/* ---- the plugins' per-task table ---- */

struct tid_entry {
	int tid;
	int value;
};

static void test_tidmap(void **state)
{
	struct tidmap m = { NULL, sizeof(struct tid_entry), 0, 0 };
	struct tid_entry *e;
	int tid, added;

	(void)state;
	assert_null(tidmap_get(&m, 5, NULL));
	assert_null(tidmap_get(&m, 0, &added));
	/* Enough tasks to grow the table several times, entries moving each time. */
	for (tid = 1; tid <= 20000; tid++) {
		e = tidmap_get(&m, tid * 7, &added);
		assert_non_null(e);
		assert_int_equal(added, 1);
		assert_int_equal(e->value, 0);
		e->value = tid;
	}
	assert_int_equal(m.used, 20000);
	assert_true(m.cap >= 40000);
	for (tid = 1; tid <= 20000; tid++) {
		e = tidmap_get(&m, tid * 7, NULL);
		assert_non_null(e);
		assert_int_equal(e->value, tid);
		e = tidmap_get(&m, tid * 7, &added);
		assert_int_equal(added, 0);
		assert_int_equal(e->value, tid);
	}
	assert_null(tidmap_get(&m, 3, NULL));
	tidmap_release(&m);
}

/* ---- rendering ---- */

static int quoting_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	static const struct bootprof_column cols[] = {
		{ "n", "n", BOOTPROF_U64 },
		{ "what", "what", BOOTPROF_TEXT },
		{ "wait", "wait_ns", BOOTPROF_NS },
	};
	static const struct bootprof_column list_cols[] = { { NULL, NULL, BOOTPROF_I64 } };
	const struct bootprof_table_spec spec = { "rows", cols, 3, 1 };
	const struct bootprof_table_spec list = { "list", list_cols, 1, 0 };
	union bootprof_value row[3];

	(void)m;
	ctx->host->section(ctx, "quoting");
	ctx->host->table(ctx, &spec);
	row[0].u = 1;
	row[1].s = "a|b \x1b]0;pwned\x07";
	row[2].u = 1500000;
	/* One row, given once, in text and JSON; the second one is over top=1. */
	ctx->host->row(ctx, row);
	row[0].u = 2;
	ctx->host->row(ctx, row);
	ctx->host->table_end(ctx);
	ctx->host->value_str(ctx, "s", "quote\" back\\ nl\n ctl\x01");
	/* Not UTF-8 (a unit name is bytes): replaced, so the JSON stays valid. */
	ctx->host->value_str(ctx, "unit", "svc-\xff\xfe.service");
	ctx->host->object_begin(ctx, "obj");
	ctx->host->value_i64(ctx, "neg", -5);
	ctx->host->object_end(ctx);
	/* One end too many is ignored, not a crash. */
	ctx->host->object_end(ctx);
	ctx->host->table_end(ctx);
	/* A section with nothing in it is not shown. */
	ctx->host->section(ctx, "empty");
	ctx->host->table(ctx, &list);
	return 0;
}

static const struct bootprof_plugin quoting = {
	.abi = BOOTPROF_PLUGIN_ABI, .name = "quoting", .model = quoting_model,
};

static int failing_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	(void)m;
	ctx->host->line(ctx, "half a section");
	return -1;
}

static const struct bootprof_plugin failing = {
	.abi = BOOTPROF_PLUGIN_ABI, .name = "failing", .model = failing_model,
};

static void test_render(void **state)
{
	struct bp_plugin_opts o = { .disabled = 1 };
	struct bp_plugin_set *set = bp_plugins_load(&o);
	struct bp_model *m = bp_model_new();
	char *json, *text;
	const char *tail;

	(void)state;
	assert_int_equal(bp_plugins_add(set, &quoting, "built-in"), 0);
	assert_int_equal(bp_plugins_add(set, &failing, "built-in"), 0);
	bp_plugins_start(set, NULL, NULL);
	bp_plugins_finish(set, m, NULL);
	json = render(set, 1);
	assert_string_equal(json, "{\"plugins\": {\"quoting\": {\"rows\": ["
				  "{\"n\": 1,\"what\": \"a|b \\u001b]0;pwned\\u0007\",\"wait_ns\": 1500000},"
				  "{\"n\": 2,\"what\": \"a|b \\u001b]0;pwned\\u0007\",\"wait_ns\": 1500000}],"
				  "\"s\": \"quote\\\" back\\\\ nl\\n ctl\\u0001\","
				  "\"unit\": \"svc-\\ufffd\\ufffd.service\","
				  "\"obj\": {\"neg\": -5},\"list\": []}}}");
	text = render(set, 0);
	/* After the report's own sections, before the legend; escapes shown as text. */
	tail = "\n\n== quoting\nn  what                    wait\n"
	       "1  a|b \\x1b]0;pwned\\x07  1.5 ms\n"
	       "... 1 more (use --plugin-opt quoting.top=0)\n\n== Legend\n";
	assert_contains(text, tail);
	/* The empty section is left out. */
	assert_null(strstr(text, "== empty"));
	assert_int_equal(bp_plugins_nwarnings(set), 1);
	assert_non_null(strstr(bp_plugins_warning(set, 0), "plugin 'failing' failed"));
	free(json);
	free(text);
	bp_plugins_free(set);
	bp_model_free(m);
}

/* Marks as plugins built for ABI 4 and 5 give them: an END and its task only from 5. */
static int marking_model(struct bootprof_ctx *ctx, const struct bootprof_model *m)
{
	(void)m;
	ctx->host->mark(ctx, &(struct bootprof_mark){ .kind = BOOTPROF_MARK_PHASE, .ns = 10,
						      .name = "phase", .pid = 7 });
	ctx->host->mark(ctx, &(struct bootprof_mark){ .kind = BOOTPROF_MARK_END, .ns = 20,
						      .name = "done", .pid = 8 });
	return 0;
}

static const struct bootprof_plugin marking4 = {
	.abi = 4, .name = "marking4", .model = marking_model,
};

static const struct bootprof_plugin marking5 = {
	.abi = BOOTPROF_PLUGIN_ABI, .name = "marking5", .model = marking_model,
};

static void test_end_marks(void **state)
{
	struct bp_plugin_opts o = { .disabled = 1 };
	struct bp_plugin_set *set = bp_plugins_load(&o);
	struct bp_model *m = bp_model_new();
	const struct bootprof_mark *k;
	size_t n;

	(void)state;
	assert_int_equal(BOOTPROF_PLUGIN_ABI, 5);
	assert_int_equal(bp_plugins_add(set, &marking4, "x.so"), 0);
	assert_int_equal(bp_plugins_add(set, &marking5, "built-in"), 0);
	bp_plugins_start(set, NULL, NULL);
	bp_plugins_finish(set, m, NULL);
	n = bp_plugins_marks(set, &k);
	/* ABI 4: its phase without a task, no END; ABI 5: both, with their tasks. */
	assert_int_equal(n, 3);
	assert_int_equal(k[0].kind, BOOTPROF_MARK_PHASE);
	assert_int_equal(k[0].pid, 0);
	assert_string_equal(bp_plugins_mark_by(set, 0), "marking4");
	assert_int_equal(k[1].kind, BOOTPROF_MARK_PHASE);
	assert_int_equal(k[1].pid, 7);
	assert_int_equal(k[2].kind, BOOTPROF_MARK_END);
	assert_int_equal(k[2].ns, 20);
	assert_int_equal(k[2].pid, 8);
	assert_string_equal(k[2].name, "done");
	assert_string_equal(bp_plugins_mark_by(set, 2), "marking5");
	assert_null(bp_plugins_mark_by(set, 3));
	bp_plugins_free(set);
	bp_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_end_marks),
		cmocka_unit_test(test_untrusted),
		cmocka_unit_test(test_abi_and_duplicates),
		cmocka_unit_test(test_select_and_options),
		cmocka_unit_test(test_initcall),
		cmocka_unit_test(test_initcall_modules),
		cmocka_unit_test(test_android),
		cmocka_unit_test(test_android_idle),
		cmocka_unit_test(test_systemd_units),
		cmocka_unit_test(test_tidmap),
		cmocka_unit_test(test_polling_files),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
