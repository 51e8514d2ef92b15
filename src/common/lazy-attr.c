/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libattr, loaded on first use (see lazylib.h): the functions spmove calls
 * to keep extended attributes, under libattr's names and prototypes.  A
 * copy that keeps no extended attributes does not load it. */
#include "config.h"

#include <attr/error_context.h>
#include <attr/libattr.h>

#include "lazylib.h"

static struct lazy_lib attr = { .soname = ATTR_SONAME };

LAZY_FUNCTION(attr, int, attr_copy_file,
	      (const char *src, const char *dst, int (*check)(const char *, struct error_context *),
	       struct error_context *ctx),
	      (src, dst, check, ctx), -1)
LAZY_FUNCTION(attr, int, attr_copy_fd,
	      (const char *src, int src_fd, const char *dst, int dst_fd,
	       int (*check)(const char *, struct error_context *), struct error_context *ctx),
	      (src, src_fd, dst, dst_fd, check, ctx), -1)
LAZY_FUNCTION(attr, int, attr_copy_action, (const char *name, struct error_context *ctx), (name, ctx), -1)
