/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_ANALYSIS_CRITICAL_COMPARE_H
#define BP_ANALYSIS_CRITICAL_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/critical.h"

/*
 * Two critical paths side by side (bootprof diff --critical): what moved
 * onto the path, off it, or changed, by task and by file. Tasks are
 * matched by comm (their tids differ from boot to boot), files by path.
 */

/**
 * struct bp_crit_change - one task or file on either path
 * @key: the comm, or the file's path (owned)
 * @before_ns: its time on the first path (a task: all its segments; a
 *             file: the I/O charged to it), 0 when not on it
 * @after_ns: the same on the second path
 */
struct bp_crit_change {
	char *key;
	uint64_t before_ns;
	uint64_t after_ns;
};

/**
 * struct bp_crit_compare - the comparison
 * @tasks: by the size of the change, then key
 * @ntasks: entries
 * @files: the same for files (I/O of no known file left out)
 * @nfiles: entries
 */
struct bp_crit_compare {
	struct bp_crit_change *tasks;
	size_t ntasks;
	struct bp_crit_change *files;
	size_t nfiles;
};

/* bp_crit_compare() - compare path @before with @after into @out (release it with bp_crit_compare_release()). */
void bp_crit_compare(const struct bp_critical_path *before, const struct bp_critical_path *after,
		     struct bp_crit_compare *out);
void bp_crit_compare_release(struct bp_crit_compare *c);

#endif
