/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BP_UTIL_XML_H
#define BP_UTIL_XML_H

#include <stdio.h>

/*
 * The one XML escaper (the chart's SVG, check's JUnit report). Text from a
 * recording is untrusted, and XML 1.0 has no form for most control
 * characters.
 */

/**
 * bp_xml_put() - write @s as XML character data or an attribute value
 * @out: stream
 * @s: bytes, NUL-terminated; NULL writes nothing
 *
 * & < > " are escaped, tab and newline become character references (kept
 * in attributes too), other control characters and bytes that are not
 * UTF-8 become '?'.
 */
void bp_xml_put(FILE *out, const char *s);

#endif
