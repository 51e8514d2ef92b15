/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-c, loaded on first use (see lazylib.h): the json_* functions the
 * tools call, under json-c's names and prototypes.  Only --json and the
 * reports that are JSON by nature load the library. */
#include "config.h"

#include <json-c/json.h>

#include "lazylib.h"

static struct lazy_lib jsonc = { .soname = JSONC_SONAME };

void lazy_jsonc_preload(void)
{
	lazy_preload(&jsonc, "json_object_new_object");
}

LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_object, (void), (), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_array, (void), (), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_boolean, (json_bool b), (b), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_double, (double d), (d), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_double_s, (double d, const char *ds), (d, ds), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_int64, (int64_t i), (i), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_uint64, (uint64_t i), (i), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_string, (const char *s), (s), NULL)
LAZY_FUNCTION(jsonc, int, json_object_object_add,
	      (struct json_object *obj, const char *key, struct json_object *val), (obj, key, val), -1)
LAZY_FUNCTION(jsonc, int, json_object_array_add, (struct json_object *obj, struct json_object *val),
	      (obj, val), -1)
LAZY_FUNCTION(jsonc, struct lh_table *, json_object_get_object, (const struct json_object *obj), (obj), NULL)
LAZY_FUNCTION(jsonc, struct json_object *, json_object_get, (struct json_object *obj), (obj), NULL)
LAZY_FUNCTION(jsonc, int, json_object_put, (struct json_object *obj), (obj), 0)
LAZY_FUNCTION(jsonc, const char *, json_object_to_json_string_ext, (struct json_object *obj, int flags),
	      (obj, flags), NULL)
