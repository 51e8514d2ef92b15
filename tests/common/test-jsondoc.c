/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the JSON helpers of src/common (jsondoc.h): the rule for
 * text that is not valid UTF-8, and numbers as written. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "harness.h"

/* The document {key: text} as cli_json_print() writes it, without the
 * newline, in buf. */
static const char *text_doc(const char *text, char *buf, size_t size)
{
	struct json_object *o = json_object_new_object();
	ck_assert_int_eq(cli_json_add_text(o, "name", text), 0);
	FILE *f = fmemopen(buf, size, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cli_json_print(o, f), 0);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

START_TEST(valid_utf8_is_kept)
{
	char buf[256];
	ck_assert_str_eq(text_doc("caf\303\251 \360\237\230\200", buf, sizeof(buf)),
			 "{\"name\":\"caf\303\251 \360\237\230\200\"}");
}
END_TEST

START_TEST(control_characters_are_escaped)
{
	char buf[256];
	ck_assert_str_eq(text_doc("a\nb\033c\"/\\", buf, sizeof(buf)),
			 "{\"name\":\"a\\nb\\u001bc\\\"/\\\\\"}");
}
END_TEST

START_TEST(invalid_bytes_become_replacement_and_hex)
{
	char buf[256];
	ck_assert_str_eq(text_doc("bad\377", buf, sizeof(buf)),
			 "{\"name\":\"bad\357\277\275\",\"name_hex\":\"626164ff\"}");
}
END_TEST

START_TEST(overlong_and_surrogate_forms_are_invalid)
{
	char buf[256];
	/* "/" in two bytes, and U+D800 in three. */
	ck_assert_str_eq(text_doc("\300\257\355\240\200", buf, sizeof(buf)),
			 "{\"name\":\"\357\277\275\357\277\275\357\277\275\357\277\275\357\277\275\","
			 "\"name_hex\":\"c0afeda080\"}");
}
END_TEST

START_TEST(output_parses_back)
{
	char buf[256];
	struct json_object *back = json_tokener_parse(text_doc("x\001\377", buf, sizeof(buf)));
	ck_assert_ptr_nonnull(back);
	struct json_object *hex;
	ck_assert(json_object_object_get_ex(back, "name_hex", &hex));
	ck_assert_str_eq(json_object_get_string(hex), "7801ff");
	json_object_put(back);
}
END_TEST

START_TEST(doubles_keep_their_decimals)
{
	char buf[256];
	struct json_object *o = json_object_new_object();
	ck_assert_int_eq(cli_json_add_double(o, "etime", 200.0, 2), 0);
	ck_assert_int_eq(cli_json_add_double(o, "nan", 0.0 / 0.0, 2), 0);
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	ck_assert_int_eq(cli_json_print(o, f), 0);
	fclose(f);
	ck_assert_str_eq(buf, "{\"etime\":200.00,\"nan\":null}\n");
}
END_TEST

static Suite *jsondoc_suite(void)
{
	Suite *s = suite_create("common-jsondoc");
	TCase *tc = tcase_create("jsondoc");
	tcase_add_test(tc, valid_utf8_is_kept);
	tcase_add_test(tc, control_characters_are_escaped);
	tcase_add_test(tc, invalid_bytes_become_replacement_and_hex);
	tcase_add_test(tc, overlong_and_surrogate_forms_are_invalid);
	tcase_add_test(tc, output_parses_back);
	tcase_add_test(tc, doubles_keep_their_decimals);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { jsondoc_suite, NULL };
