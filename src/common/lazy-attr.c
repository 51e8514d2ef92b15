/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libattr, loaded on first use (see lazylib.h): the functions spmove calls
 * to keep extended attributes, under libattr's names and prototypes.  A
 * copy that keeps no extended attributes does not load it. */
#include "config.h"

#include <stddef.h>

#include <attr/error_context.h>
#include <attr/libattr.h>

#include "lazylib.h"

static struct lazy_lib attr = { .soname = ATTR_SONAME };

void lazy_attr_load_early(void)
{
	lazy_load_early(&attr);
	/* libattr reads its configuration (/etc/xattr.conf) once, on the
	 * first question of which attributes to copy: asked now, that file
	 * too is read while descriptors are free. */
	if (__atomic_load_n(&attr.handle, __ATOMIC_ACQUIRE))
		(void)attr_copy_action("user.", NULL);
}

LAZY_FUNCTION(attr, int, attr_copy_file,
	      (const char *src, const char *dst, int (*check)(const char *, struct error_context *),
	       struct error_context *ctx),
	      (src, dst, check, ctx), -1)
LAZY_FUNCTION(attr, int, attr_copy_fd,
	      (const char *src, int src_fd, const char *dst, int dst_fd,
	       int (*check)(const char *, struct error_context *), struct error_context *ctx),
	      (src, src_fd, dst, dst_fd, check, ctx), -1)
LAZY_FUNCTION(attr, int, attr_copy_action, (const char *name, struct error_context *ctx), (name, ctx), -1)
