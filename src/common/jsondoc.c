/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reports as JSON, through json-c, with one rule for text that is not
 * valid UTF-8 (see jsondoc.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "message.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when the byte at
 * s does not start one: a stray continuation byte, an overlong form, a
 * surrogate, a code point past U+10FFFF or a sequence cut short. */
static size_t utf8_sequence(const unsigned char *s)
{
	size_t n;
	unsigned min;
	unsigned cp;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2, min = 0x80, cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, min = 0x800, cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, min = 0x10000, cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* text with every byte outside a valid UTF-8 sequence replaced by U+FFFD,
 * in a new string; *changed tells whether any was.  NULL when memory runs
 * out. */
static char *utf8_repaired(const char *text, bool *changed)
{
	static const char replacement[] = "\xef\xbf\xbd";
	size_t len = strlen(text);
	char *out = malloc(3 * len + 1), *p = out;
	if (!out)
		return NULL;
	*changed = false;
	for (const unsigned char *s = (const unsigned char *)text; *s;) {
		size_t n = utf8_sequence(s);
		if (n) {
			memcpy(p, s, n);
			p += n;
			s += n;
		} else {
			memcpy(p, replacement, 3);
			p += 3;
			s++;
			*changed = true;
		}
	}
	*p = '\0';
	return out;
}

/* text's bytes as lowercase hexadecimal, in a new string (NULL when memory
 * runs out). */
static char *hex_bytes(const char *text)
{
	static const char digits[] = "0123456789abcdef";
	size_t len = strlen(text);
	char *out = malloc(2 * len + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		out[2 * i] = digits[c >> 4];
		out[2 * i + 1] = digits[c & 15];
	}
	out[2 * len] = '\0';
	return out;
}

int cli_json_add(struct json_object *obj, const char *key, struct json_object *member)
{
	if (!obj || json_object_object_add(obj, key, member) != 0) {
		json_object_put(member);
		return -ENOMEM;
	}
	return 0;
}

/* Add a new string member; returns 0 or -ENOMEM. */
static int add_string(struct json_object *obj, const char *key, const char *s)
{
	struct json_object *v = s ? json_object_new_string(s) : NULL;
	return v ? cli_json_add(obj, key, v) : -ENOMEM;
}

int cli_json_add_text(struct json_object *obj, const char *key, const char *text)
{
	bool changed;
	char *repaired = utf8_repaired(text, &changed);
	int rc = add_string(obj, key, repaired);
	free(repaired);
	if (rc || !changed)
		return rc;
	size_t len = strlen(key);
	char *hex_key = malloc(len + sizeof("_hex"));
	char *hex = hex_bytes(text);
	if (hex_key)
		memcpy(hex_key, key, len), memcpy(hex_key + len, "_hex", sizeof("_hex"));
	rc = hex_key ? add_string(obj, hex_key, hex) : -ENOMEM;
	free(hex_key);
	free(hex);
	return rc;
}

int cli_json_add_u64(struct json_object *obj, const char *key, uint64_t value)
{
	struct json_object *v = json_object_new_uint64(value);
	return v ? cli_json_add(obj, key, v) : -ENOMEM;
}

int cli_json_add_double(struct json_object *obj, const char *key, double value, int decimals)
{
	char text[64];
	if (!isfinite(value))
		return cli_json_add(obj, key, NULL); /* JSON has no NaN or infinity */
	snprintf(text, sizeof(text), "%.*f", decimals, value);
	struct json_object *v = json_object_new_double_s(value, text);
	return v ? cli_json_add(obj, key, v) : -ENOMEM;
}

int cli_json_add_bool(struct json_object *obj, const char *key, int value)
{
	struct json_object *v = json_object_new_boolean(value);
	return v ? cli_json_add(obj, key, v) : -ENOMEM;
}

int cli_json_print(struct json_object *doc, FILE *f)
{
	/* json-c that could not be loaded says so by errno (lazylib.h). */
	if (!doc)
		return errno == ELIBACC ? -ELIBACC : -ENOMEM;
	const char *s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
							JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = !s ? -ENOMEM : fprintf(f, "%s\n", s) < 0 ? -EIO : 0;
	json_object_put(doc);
	return rc;
}

int cli_json_emit(struct json_object *doc, int build, FILE *f, const char *what)
{
	if (build && doc) {
		json_object_put(doc);
		doc = NULL;
	}
	int rc = cli_json_print(doc, f);
	if (rc)
		cli_error(-rc, "cannot print %s", what);
	return rc ? 1 : 0;
}
