/* Standard fds closed when a tool starts: held (see stdfds.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>

#include "stdfds.h"

unsigned cli_hold_standard_fds(void)
{
	unsigned closed = 0;
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		closed |= 1u << fd;
		/* The lowest free fd: this one, as the lower ones are taken
		 * (or held).  Not close-on-exec: a program the tool runs
		 * holds them too.  Should it fail, nothing better is left. */
		(void)open("/", O_PATH);
	}
	return closed;
}
