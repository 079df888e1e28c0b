// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's CPU time beside the system's, for the recording's
 * metadata (see cpu-use.h).
 */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "capture/cpu-use.h"
#include "tracefile/meta.h"

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

/* The first line of /proc/stat: "cpu user nice system idle iowait irq softirq steal ...". */
static uint64_t busy_ns(void)
{
	unsigned long long v[8] = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t busy;
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4 || hz <= 0)
		return 0;
	/* Idle (v[3]) and iowait (v[4]) are time no task ran. */
	busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	return busy * (1000000000ull / (uint64_t)hz);
}

void bp_cpu_use_now(struct bp_cpu_use *u)
{
	struct rusage ru;

	u->self_ns = 0;
	if (!getrusage(RUSAGE_SELF, &ru))
		u->self_ns = timeval_ns(&ru.ru_utime) + timeval_ns(&ru.ru_stime);
	u->busy_ns = busy_ns();
}

void bp_cpu_use_to_meta(struct bp_meta *meta, const struct bp_cpu_use *start)
{
	struct bp_cpu_use now;

	bp_cpu_use_now(&now);
	meta->recorder_cpu_ns = now.self_ns > start->self_ns ? now.self_ns - start->self_ns : 0;
	meta->system_cpu_ns = now.busy_ns > start->busy_ns ? now.busy_ns - start->busy_ns : 0;
}
