/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libsmartcols, loaded on first use (see lazylib.h): the scols_* functions
 * the tools call, under the library's names and prototypes.  Only the
 * tables of reports load it. */
#include "config.h"

#include <libsmartcols.h>

#include "lazylib.h"

static struct lazy_lib smartcols = { .soname = SMARTCOLS_SONAME };

void lazy_smartcols_preload(void)
{
	lazy_preload(&smartcols, "scols_new_table");
}

LAZY_FUNCTION(smartcols, struct libscols_table *, scols_new_table, (void), (), NULL)
LAZY_VOID_FUNCTION(smartcols, scols_unref_table, (struct libscols_table *tb), (tb))
LAZY_FUNCTION(smartcols, struct libscols_column *, scols_table_new_column,
	      (struct libscols_table *tb, const char *name, double whint, int flags),
	      (tb, name, whint, flags), NULL)
LAZY_FUNCTION(smartcols, struct libscols_line *, scols_table_new_line,
	      (struct libscols_table *tb, struct libscols_line *parent), (tb, parent), NULL)
LAZY_FUNCTION(smartcols, struct libscols_line *, scols_table_get_line, (struct libscols_table *tb, size_t n),
	      (tb, n), NULL)
LAZY_FUNCTION(smartcols, int, scols_line_set_data, (struct libscols_line *ln, size_t n, const char *data),
	      (ln, n, data), -1)
LAZY_FUNCTION(smartcols, int, scols_table_set_stream, (struct libscols_table *tb, FILE *stream), (tb, stream), -1)
LAZY_FUNCTION(smartcols, int, scols_print_table, (struct libscols_table *tb), (tb), -1)
