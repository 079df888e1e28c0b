// SPDX-License-Identifier: GPL-2.0
/*
 * Replays saved fuzz inputs without libFuzzer: fuzz-replay TARGET FILE...
 * runs the target (reader, meta, model, spool) on each file. Under the ASan build
 * any crash, leak or undefined behaviour ends the run with a report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const struct {
	const char *name;
	int (*run)(const uint8_t *data, size_t size);
} targets[] = {
	{ "reader", bp_fuzz_reader },
	{ "meta", bp_fuzz_meta },
	{ "model", bp_fuzz_model },
	{ "spool", bp_fuzz_spool },
};

static int replay(int (*run)(const uint8_t *, size_t), const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "fuzz-replay: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	run(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	size_t t;
	int i, failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: fuzz-replay reader|meta|model|spool FILE...\n");
		return 2;
	}
	for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		if (!strcmp(argv[1], targets[t].name))
			break;
	}
	if (t == sizeof(targets) / sizeof(targets[0])) {
		fprintf(stderr, "fuzz-replay: unknown target '%s'\n", argv[1]);
		return 2;
	}
	for (i = 2; i < argc; i++)
		failed |= replay(targets[t].run, argv[i]) != 0;
	return failed;
}
