// SPDX-License-Identifier: GPL-2.0
/*
 * The default recording of the commands that read one; see default-file.h.
 */
#include <unistd.h>

#include "util/default-file.h"
#include "util/error.h"

const char *bp_default_recording(void)
{
	static const char *const tried[] = { BP_LATEST_RECORDING, BP_LOCAL_RECORDING };
	size_t i;

	for (i = 0; i < sizeof(tried) / sizeof(tried[0]); i++) {
		if (access(tried[i], F_OK) == 0)
			return tried[i];
	}
	bp_set_error("no recording named, and neither '%s' nor './%s' exists; "
		     "make one with 'sudo bootprof record' (or name a FILE)",
		     BP_LATEST_RECORDING, BP_LOCAL_RECORDING);
	return NULL;
}
