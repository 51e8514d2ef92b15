/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a test's mover chooses its path: a policy and a path, by name. */
#ifndef TESTS_LIB_WAYS_H
#define TESTS_LIB_WAYS_H

#include "libsplice.h"

struct way {
	enum sp_policy policy;
	enum sp_path path;
};

/* Splice, read/write where the kernel refuses (spcat's and sptee's default). */
#define WAY_SPLICE_OR_RW ((struct way){ SP_POLICY_PREFER, SP_PATH_SPLICE })
/* Splice and nothing else: a refusal is an error. */
#define WAY_SPLICE_ONLY ((struct way){ SP_POLICY_ONLY, SP_PATH_SPLICE })
/* read(2)/write(2) only. */
#define WAY_RW_ONLY ((struct way){ SP_POLICY_ONLY, SP_PATH_RW })
/* The library's choice. */
#define WAY_AUTO ((struct way){ SP_POLICY_AUTO, SP_PATH_NONE })
/* Path preferred, falling back where it does not apply or is refused. */
#define WAY_PREFER(p) ((struct way){ SP_POLICY_PREFER, (p) })

#endif
