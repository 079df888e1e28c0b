// SPDX-License-Identifier: GPL-2.0
/* Orders of processes and accesses that the model's selections lack. */
#include <stdlib.h>
#include <string.h>

#include "analysis/sort.h"
#include "util/compare.h"

/* Last resort for processes: pid, then start time (pids are reused). */
static int cmp_process_identity(const struct bp_process *a, const struct bp_process *b)
{
	int c = CMP_ASC(a->pid, b->pid);

	return c ? c : CMP_ASC(a->start_ns, b->start_ns);
}

static int cmp_proc_comm(const void *pa, const void *pb)
{
	const struct bp_process *a = *(struct bp_process *const *)pa;
	const struct bp_process *b = *(struct bp_process *const *)pb;
	int c = strcmp(a->comm, b->comm);

	return c ? c : cmp_process_identity(a, b);
}

static int cmp_proc_files(const void *pa, const void *pb)
{
	const struct bp_process *a = *(struct bp_process *const *)pa;
	const struct bp_process *b = *(struct bp_process *const *)pb;
	int c = CMP_DESC(a->nfiles, b->nfiles);

	if (!c)
		c = CMP_DESC(a->bytes_read, b->bytes_read);
	return c ? c : cmp_process_identity(a, b);
}

static int cmp_proc_worst(const void *pa, const void *pb)
{
	const struct bp_process *a = *(struct bp_process *const *)pa;
	const struct bp_process *b = *(struct bp_process *const *)pb;
	int c;

	if (!a->worst_file != !b->worst_file)
		return a->worst_file ? -1 : 1;
	c = a->worst_file ? strcmp(a->worst_file->path, b->worst_file->path) : 0;
	return c ? c : cmp_process_identity(a, b);
}

void bp_sort_processes(struct bp_process **v, size_t n, enum bp_process_order order)
{
	static int (*const cmp[])(const void *, const void *) = {
		[BP_ORDER_PROC_COMM] = cmp_proc_comm,
		[BP_ORDER_PROC_FILES] = cmp_proc_files,
		[BP_ORDER_PROC_WORST] = cmp_proc_worst,
	};

	if (n < 2 || (unsigned)order >= sizeof(cmp) / sizeof(cmp[0]))
		return;
	qsort(v, n, sizeof(*v), cmp[order]);
}

/* Last resort for accesses: pid, start, then path and inode. */
static int cmp_access_identity(const struct bp_access *a, const struct bp_access *b)
{
	int c = cmp_process_identity(a->process, b->process);

	if (!c)
		c = strcmp(a->file->path, b->file->path);
	if (!c)
		c = CMP_ASC(a->file->dev, b->file->dev);
	return c ? c : CMP_ASC(a->file->ino, b->file->ino);
}

static int cmp_access_key(const struct bp_access *a, const struct bp_access *b,
			  enum bp_access_order order)
{
	int c = 0;

	switch (order) {
	case BP_ORDER_ACCESS_WAIT:
		c = CMP_DESC(a->wait_ns, b->wait_ns);
		return c ? c : CMP_DESC(a->bytes_read, b->bytes_read);
	case BP_ORDER_ACCESS_BYTES:
		c = CMP_DESC(a->bytes_read, b->bytes_read);
		return c ? c : CMP_DESC(a->wait_ns, b->wait_ns);
	case BP_ORDER_ACCESS_FIRST:
		return CMP_ASC(a->first_ns, b->first_ns);
	case BP_ORDER_ACCESS_LAST:
		return CMP_DESC(a->last_ns, b->last_ns);
	case BP_ORDER_ACCESS_PID:
		return 0;
	case BP_ORDER_ACCESS_COMM:
		return strcmp(a->process->comm, b->process->comm);
	case BP_ORDER_ACCESS_PATH:
		return strcmp(a->file->path, b->file->path);
	}
	return c;
}

/* qsort has no context argument; sorting happens on one thread. */
static enum bp_access_order access_order;

static int cmp_access(const void *pa, const void *pb)
{
	const struct bp_access *a = *(struct bp_access *const *)pa;
	const struct bp_access *b = *(struct bp_access *const *)pb;
	int c = cmp_access_key(a, b, access_order);

	return c ? c : cmp_access_identity(a, b);
}

void bp_sort_accesses(struct bp_access **v, size_t n, enum bp_access_order order)
{
	if (n < 2)
		return;
	access_order = order;
	qsort(v, n, sizeof(*v), cmp_access);
}
