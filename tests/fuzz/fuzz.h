/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_TESTS_FUZZ_H
#define BP_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/*
 * Fuzz targets: each runs one part of bootprof on an untrusted input and
 * returns 0 (libFuzzer's convention). They are linked into a libFuzzer
 * binary each (make fuzz) and all into tests/fuzz-replay, which runs them
 * on saved inputs under the ASan build (make check).
 */
int bp_fuzz_reader(const uint8_t *data, size_t size);
int bp_fuzz_meta(const uint8_t *data, size_t size);
int bp_fuzz_model(const uint8_t *data, size_t size);
int bp_fuzz_spool(const uint8_t *data, size_t size);

/*
 * The input as a file the reader can open: a memfd, named in path
 * ("/proc/self/fd/N"). Returns the descriptor (close it after use) or -1.
 */
int bp_fuzz_file(const uint8_t *data, size_t size, char *path, size_t path_size);

/* libFuzzer's entry point, in the libFuzzer build (-DBP_FUZZ_LIBFUZZER) only. */
#ifdef BP_FUZZ_LIBFUZZER
#define BP_FUZZ_TARGET(fn)                                                   \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);        \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)         \
	{                                                                    \
		return fn(data, size);                                       \
	}
#else
#define BP_FUZZ_TARGET(fn)
#endif

#endif
