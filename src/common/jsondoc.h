/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reports as JSON, through json-c, with one rule for text that is not
 * valid UTF-8. */
#ifndef SPLICE_UTILS_JSONDOC_H
#define SPLICE_UTILS_JSONDOC_H

#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/*
 * Add text (a file name, a process name, a message) to obj as the string
 * member key.  JSON strings are Unicode, names are bytes, so:
 *  - text that is valid UTF-8 is the string itself (json-c escapes '"',
 *    '\' and control characters as \n, \t ... or \u00XX);
 *  - text that is not has each byte that does not belong to a valid UTF-8
 *    sequence replaced by U+FFFD in key, and its exact bytes in a second
 *    member, key + "_hex": two lowercase hexadecimal digits a byte
 *    ("bad\377" gives "bad\ufffd" and "bad_hex": "626164ff").
 * So every document is valid JSON and valid UTF-8, and no byte is lost.
 * Returns 0, or -ENOMEM.
 */
int cli_json_add_text(struct json_object *obj, const char *key, const char *text);

/* Add value to obj as the number member key.  Returns 0, or -ENOMEM. */
int cli_json_add_u64(struct json_object *obj, const char *key, uint64_t value);

/* Add value to obj as the number member key, written with that many
 * decimals; null when value is not finite.  Returns 0, or -ENOMEM. */
int cli_json_add_double(struct json_object *obj, const char *key, double value, int decimals);

/* Add value to obj as the member key (true or false).  Returns 0, or
 * -ENOMEM. */
int cli_json_add_bool(struct json_object *obj, const char *key, int value);

/* Add member (any json-c value, NULL for null) to obj as key; obj then owns
 * it.  Returns 0, or -ENOMEM (member is then freed). */
int cli_json_add(struct json_object *obj, const char *key, struct json_object *member);

/* Write doc on f as one line of compact JSON and free it.  Returns 0, or
 * -ENOMEM when doc is NULL (a failed allocation while building it), or
 * -EIO when writing failed. */
int cli_json_print(struct json_object *doc, FILE *f);

/* Finish a document: when build (the helpers' results OR-ed together) is
 * 0, write doc as cli_json_print() does; else only free it.  On a failure
 * report "cannot print WHAT".  Returns 0, or 1 after such a report. */
int cli_json_emit(struct json_object *doc, int build, FILE *f, const char *what);

#endif
