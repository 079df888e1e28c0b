// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

static __thread char last_error[512];

/*
 * Through a copy: an argument may be bp_last_error() itself (a cause being
 * wrapped), and vsnprintf() must not write the buffer it reads.
 */
static void set_error_v(const char *fmt, va_list ap)
{
	char msg[sizeof(last_error)];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	memcpy(last_error, msg, sizeof(msg));
}

void bp_set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error_v(fmt, ap);
	va_end(ap);
}

void bp_set_error_errno(const char *fmt, ...)
{
	int saved = errno;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	set_error_v(fmt, ap);
	va_end(ap);
	len = strlen(last_error);
	snprintf(last_error + len, sizeof(last_error) - len, ": %s", strerror(saved));
	errno = saved;
}

const char *bp_last_error(void)
{
	return last_error[0] ? last_error : "unknown error";
}

int bp_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bootprof: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return BP_EXIT_FAILURE;
}

int bp_error_last(void)
{
	return bp_error("%s", bp_last_error());
}

void bp_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("bootprof: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int bp_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("bootprof: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'bootprof %s -h' for more information.\n", cmd);
	return BP_EXIT_USAGE;
}

int bp_finish_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		bp_error("cannot write to standard output: %s", strerror(errno));
		return status ? status : BP_EXIT_FAILURE;
	}
	return status;
}
