/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The names of the paths (sp_path_name(), sp_path_parse()). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "libsplice.h"

static const char *const names[] = {
	[SP_PATH_NONE] = "none",
	[SP_PATH_SPLICE] = "splice",
	[SP_PATH_RW] = "rw",
	[SP_PATH_VMSPLICE] = "vmsplice",
	[SP_PATH_GIFT] = "gift",
	[SP_PATH_COPY_FILE_RANGE] = "copy_file_range",
	[SP_PATH_SENDFILE] = "sendfile",
	[SP_PATH_CLONE] = "clone",
};

const char *sp_path_name(enum sp_path path)
{
	return (unsigned)path < sizeof(names) / sizeof(names[0]) ? names[path] : NULL;
}

int sp_path_parse(const char *name, enum sp_path *path)
{
	/* The paths a mover can be asked for: not none, not a clone (sp_copy()'s
	 * SP_COPY_CLONE flags). */
	for (unsigned i = SP_PATH_NONE + 1; name && i <= SP_PATH_SENDFILE; i++) {
		if (!strcmp(name, names[i])) {
			*path = (enum sp_path)i;
			return 0;
		}
	}
	return -EINVAL;
}
