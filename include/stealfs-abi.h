/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stealfs-abi.h - what stealfs shows user space: its statfs magic, where its
 * counters live in sysfs and their names.  Included by the module and by the
 * tools (spmove --stats and --probe, the VM tests), so that each constant is
 * written once.  Plain C, no kernel or libc headers needed.  It lives in the
 * top-level include/, as a kernel uapi header would: libsplice and spmove add
 * include/ to their include path, and the module's Kbuild finds it there (or
 * in include/ beside the module's sources, where the DKMS package puts it).
 */
#ifndef STEALFS_ABI_H
#define STEALFS_ABI_H

/* statfs(2)'s f_type on a stealfs mount ("STEL"). */
#define STEALFS_MAGIC 0x5354454c

/* The module's sysfs directory and its counters' directory. */
#define STEALFS_SYSFS_DIR "/sys/fs/stealfs"
#define STEALFS_STATS_DIR STEALFS_SYSFS_DIR "/stats"

/*
 * The counters, one read-only file each under STEALFS_STATS_DIR, each a
 * count since the module was loaded: X(ENUM_SUFFIX, file_name).
 *   stolen_anon       anonymous pipe pages (write(2)) taken into the page cache
 *   stolen_pagecache  page-cache pages of another file taken over
 *   copied            pages copied instead: the bytes each splice call copied,
 *                     divided by the page size, rounded up
 *   refused_*         why a pipe buffer offered with SPLICE_F_MOVE was copied
 *                     (each counts buffers, a page at most each)
 */
#define STEALFS_COUNTERS(X)                         \
	X(STOLEN_ANON, stolen_anon)                 \
	X(STOLEN_PAGECACHE, stolen_pagecache)       \
	X(COPIED, copied)                           \
	X(REFUSED_PARTIAL, refused_partial)         \
	X(REFUSED_LARGE, refused_large)             \
	X(REFUSED_ANON, refused_anon)               \
	X(REFUSED_MAPPED, refused_mapped)           \
	X(REFUSED_FLAGS, refused_flags)             \
	X(REFUSED_BUSY, refused_busy)               \
	X(REFUSED_GIFT, refused_gift)               \
	X(REFUSED_MEMCG, refused_memcg)             \
	X(REFUSED_CHARGE, refused_charge)           \
	X(REFUSED_PINNED, refused_pinned)

#endif
