/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lsp_page_frames(): the physical frame numbers behind a range of this process's
 * memory, read from /proc/self/pagemap -- the probe's independent measure of
 * whether two mappings show the same page. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "internal.h"

/* A pagemap entry: bit 63 "present", bits 0-54 the frame number. */
#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_PFN_MASK ((1ull << 55) - 1)

int lsp_page_frames(const void *addr, size_t pages, size_t page_size, uint64_t *pfn)
{
	int saved_errno = errno;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;
		errno = saved_errno;
		return rc;
	}
	off_t at = (off_t)((uintptr_t)addr / page_size * sizeof(uint64_t));
	ssize_t got = pread(fd, pfn, pages * sizeof(uint64_t), at);
	int rc = got < 0 ? -errno : (size_t)got != pages * sizeof(uint64_t) ? -EIO : 0;
	close(fd);
	for (size_t i = 0; rc == 0 && i < pages; i++) {
		if (!(pfn[i] & PAGEMAP_PRESENT))
			rc = -EFAULT;
		else if (!(pfn[i] &= PAGEMAP_PFN_MASK))
			rc = -EPERM;
	}
	errno = saved_errno;
	return rc;
}
