/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: marker processes, children with a known name and a known way
 * of ending, whose accounting records the scenarios look for. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/acct.h>

#include "acctpin.h"

uint32_t ap_marker_exitcode(const struct ap_marker *m)
{
	return m->code >= 0 ? (uint32_t)m->code << 8 : (uint32_t)-m->code;
}

unsigned ap_marker_flags(const struct ap_marker *m)
{
	return AFORK | (m->code < 0 ? AXSIG : 0);
}

/* The marker child: take the name, wait for the gate, end as planned.
 * It was forked from a process that may run other threads, so it makes raw
 * system calls only, never a libc function that a sanitizer intercepts: a
 * lock another thread held at the fork stays locked for good in the child.
 * (AddressSanitizer's prctl takes its thread registry's lock to rename
 * the thread; when a marker thread forked while another one held it, the
 * child blocked forever and the race run hung waiting for it.) */
static __attribute__((noreturn)) void marker_child(const char *name, int code, const int *gate)
{
	uint64_t none = 0;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, sizeof none);
	syscall(SYS_prctl, PR_SET_NAME, name, 0L, 0L, 0L);
	if (gate) {
		char c;
		syscall(SYS_close, gate[1]);
		while (syscall(SYS_read, gate[0], &c, 1L) != 0 && (errno == EINTR || errno == EAGAIN))
			;
	}
	if (code < 0) {
#if defined(__mips__) || defined(__alpha__) || defined(__sparc__)
		signal(-code, SIG_DFL);   /* other rt_sigaction conventions */
#else
		/* SIG_DFL is 0: a zeroed kernel struct sigaction (handler,
		 * flags, restorer, 64-bit mask) is the default action. */
		unsigned long dfl[4] = { 0 };
		syscall(SYS_rt_sigaction, -code, dfl, NULL, sizeof(uint64_t));
#endif
		syscall(SYS_kill, syscall(SYS_getpid), -code);
	}
	for (;;)
		syscall(SYS_exit_group, code & 0xff);
}

int ap_marker_start(struct ap_marker *m, const char *name, int code, const int *gate)
{
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "%s", name);
	m->code = code;
	m->pid = fork();
	if (m->pid == 0)
		marker_child(m->name, code, gate);
	return m->pid < 0 ? -errno : 0;
}

int ap_marker_reap(struct ap_marker *m)
{
	int status;
	pid_t w;
	while ((w = waitpid(m->pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w < 0)
		return -errno;
	bool as_planned = m->code >= 0 ? WIFEXITED(status) && WEXITSTATUS(status) == m->code
				       : WIFSIGNALED(status) && WTERMSIG(status) == -m->code;
	return as_planned ? 0 : -EPROTO;
}

bool ap_marker_matches(const struct ap_marker *m, const struct ap_record *rec, pid_t parent)
{
	return rec->pid == (uint32_t)m->pid && rec->ppid == (uint32_t)parent &&
	       !strcmp(rec->comm, m->name) && rec->exitcode == ap_marker_exitcode(m) &&
	       rec->flags == ap_marker_flags(m) && rec->uid == getuid() && rec->gid == getgid();
}
