/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_COMPARE_H
#define BP_UTIL_COMPARE_H

/* -1, 0 or 1 for qsort comparators: larger first, or smaller first. */
#define CMP_DESC(a, b) ((a) > (b) ? -1 : (a) < (b) ? 1 : 0)
#define CMP_ASC(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

#endif
