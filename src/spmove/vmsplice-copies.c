/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove --stats: whether the running kernel's vmsplice(2) copies the
 * user pages it is given (upstream turned vmsplice into a plain copy in
 * the 7.2 cycle and dropped SPLICE_F_GIFT's page gifting) or puts
 * references to them in the pipe, as every kernel before it does.  Asked
 * of the kernel, never assumed from its version: one page is vmspliced
 * into a pipe, changed, and read back from the pipe -- the change shows
 * only when the pipe holds the page itself (the write-after test of make
 * kernel-truth). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "spmove.h"

int vmsplice_copies(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	int fds[2], rc;
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		rc = -errno;
		munmap(p, page);
		return rc;
	}
	memset(p, 'A', page);
	struct iovec iov = { .iov_base = p, .iov_len = page };
	char seen = 0;
	ssize_t n = vmsplice(fds[1], &iov, 1, 0);
	if (n == (ssize_t)page) {
		p[0] = 'B';
		n = read(fds[0], &seen, 1);
	}
	rc = n < 0 ? -errno : n == 0 ? -EIO : seen == 'A' ? 1 : seen == 'B' ? 0 : -EIO;
	close(fds[0]);
	close(fds[1]);
	munmap(p, page);
	return rc;
}
