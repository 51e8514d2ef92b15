/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libacl, loaded on first use (see lazylib.h): the functions spmove calls
 * to keep permissions with their ACLs, under libacl's names and
 * prototypes.  A copy that keeps no permissions loads it only to give a
 * file it replaces the old one's permissions. */
#include "config.h"

#include <acl/libacl.h>

#include "lazylib.h"

static struct lazy_lib acl = { .soname = ACL_SONAME };

void lazy_acl_load_early(void)
{
	lazy_load_early(&acl);
}

LAZY_FUNCTION(acl, int, perm_copy_file, (const char *src, const char *dst, struct error_context *ctx),
	      (src, dst, ctx), -1)
LAZY_FUNCTION(acl, int, perm_copy_fd,
	      (const char *src, int src_fd, const char *dst, int dst_fd, struct error_context *ctx),
	      (src, src_fd, dst, dst_fd, ctx), -1)
