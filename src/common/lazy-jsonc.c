/* json-c, loaded on first use (see lazylib.h): the json_* functions the
 * tools call, under json-c's names and prototypes.  Only --json and the
 * reports that are JSON by nature load the library. */
#include "config.h"

#include <json-c/json.h>

#include "lazylib.h"

static struct lazy_lib jsonc = { .soname = JSONC_SONAME };

void lazy_jsonc_preload(void)
{
	(void)lazy_symbol(&jsonc, "json_object_new_object");
}

LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_object, (void), ())
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_array, (void), ())
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_boolean, (json_bool b), (b))
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_double, (double d), (d))
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_double_s, (double d, const char *ds), (d, ds))
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_int64, (int64_t i), (i))
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_uint64, (uint64_t i), (i))
LAZY_FUNCTION(jsonc, struct json_object *, json_object_new_string, (const char *s), (s))
LAZY_FUNCTION(jsonc, int, json_object_object_add,
	      (struct json_object *obj, const char *key, struct json_object *val), (obj, key, val))
LAZY_FUNCTION(jsonc, int, json_object_array_add, (struct json_object *obj, struct json_object *val),
	      (obj, val))
LAZY_FUNCTION(jsonc, struct lh_table *, json_object_get_object, (const struct json_object *obj), (obj))
LAZY_FUNCTION(jsonc, struct json_object *, json_object_get, (struct json_object *obj), (obj))
LAZY_FUNCTION(jsonc, int, json_object_put, (struct json_object *obj), (obj))
LAZY_FUNCTION(jsonc, const char *, json_object_to_json_string_ext, (struct json_object *obj, int flags),
	      (obj, flags))
