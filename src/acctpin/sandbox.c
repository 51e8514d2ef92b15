/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: the sandbox.  The outer process makes a temporary directory,
 * then runs the work as init of a new PID namespace (so acct(2) switches
 * only that namespace's accounting, and the kernel turns it off when the
 * namespace dies, whatever happens), watches it for hangs, forwards
 * SIGINT/SIGTERM/SIGHUP, and afterwards restores /proc/sys/kernel/acct
 * and removes the temporary directory if the sandbox could not. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include "acctpin.h"
#include "message.h"
#include "quote.h"

volatile sig_atomic_t ap_interrupted;
bool ap_cleanup_failed;
struct ap_shared *ap_shared;
int ap_sysctl_fd = -1;

/* The signals that stop a run cleanly. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

void ap_progress(const char *fmt, ...)
{
	if (!ap_shared)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ap_shared->stage, sizeof ap_shared->stage, fmt, ap);
	va_end(ap);
	ap_shared->progress++;
}

bool ap_have_privileges(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	if (syscall(SYS_capget, &hdr, data) < 0)
		return false;
	uint32_t need = 1u << CAP_SYS_ADMIN | 1u << CAP_SYS_PACCT;
	return (data[0].effective & need) == need;
}

bool ap_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (!ap_interrupted && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	return !ap_interrupted;
}

/* Signal handler: remember the first stop signal. */
static void on_stop_signal(int sig)
{
	if (!ap_interrupted)
		ap_interrupted = sig;
}

/* Install the stop-signal handler (no SA_RESTART, so sleeps end early). */
static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stop_signals / sizeof *stop_signals; i++)
		sigaction(stop_signals[i], &sa, NULL);
}

/* The sandbox process: become a clean child, run the body, exit. */
static __attribute__((noreturn)) void sandbox_child(int (*body)(void *), void *arg,
						    const sigset_t *old_mask)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	catch_stop_signals();
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	if (getppid() == 1 && getpid() != 1)
		_exit(1);   /* the outer process is already gone */
	int status = body(arg);
	if (ap_interrupted)
		status = 1;
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

/* Wait for the sandbox, forwarding stop signals and reporting a hang
 * after hang_seconds without progress.  Returns the wait status, or a
 * negative errno: waitpid's, or -ETIMEDOUT after a hang that the kernel
 * would not let us end (reported). */
static int watch(pid_t child, unsigned hang_seconds, const sigset_t *wanted, bool *hung)
{
	unsigned long seen = ap_shared->progress;
	unsigned idle = 0;
	for (;;) {
		int wstatus;
		pid_t w = waitpid(child, &wstatus, WNOHANG);
		if (w == child)
			return wstatus;
		if (w < 0 && errno != EINTR)
			return -errno;
		struct timespec second = { 1, 0 };
		int sig = sigtimedwait(wanted, NULL, &second);
		if (sig > 0 && sig != SIGCHLD) {
			if (!ap_interrupted)
				ap_interrupted = sig;
			kill(child, sig);
		}
		if (sig != -1 || errno != EAGAIN)
			continue;
		if (ap_shared->progress != seen) {
			seen = ap_shared->progress;
			idle = 0;
		} else if (++idle == hang_seconds && !*hung) {
			cli_error(0, "hang: no progress for %u s while %s; killing it", idle,
				  ap_shared->stage);
			*hung = true;
			kill(child, SIGKILL);
		} else if (*hung && idle >= hang_seconds + 10) {
			cli_error(0, "hang: the sandbox does not die (stuck in the kernel)");
			return -ETIMEDOUT;
		}
	}
}

/* After the sandbox ended, undo what it may have left: the accounting
 * sysctl, files in our directory inside --dir, the temporary directory. */
static void outer_cleanup(void)
{
	if (ap_sysctl_fd >= 0) {
		size_t len = strlen(ap_shared->sysctl_saved);
		if (ap_shared->sysctl_changed &&
		    pwrite(ap_sysctl_fd, ap_shared->sysctl_saved, len, 0) != (ssize_t)len)
			cli_error(errno, "cannot restore %s to %s", AP_SYSCTL, ap_shared->sysctl_saved);
		close(ap_sysctl_fd);   /* releases the sandbox's lock, if it died holding it */
		ap_sysctl_fd = -1;
	}
	if (ap_shared->subdir[0])
		ap_remove_our_dir(ap_shared->subdir);
	char owner[PATH_MAX];
	if (ap_path(owner, ap_shared->tempdir, AP_OWNER_FILE) == 0)
		unlink(owner);
	else
		ap_report_failure();
	if (rmdir(ap_shared->tempdir) < 0 && errno == EBUSY) {
		umount2(ap_shared->tempdir, MNT_DETACH);
		rmdir(ap_shared->tempdir);
	}
}

int ap_sandbox_run(int (*body)(void *), void *arg, unsigned hang_seconds,
		   const char *also_sweep)
{
	const char *tmp = getenv("TMPDIR");
	bool from_env = tmp && *tmp;
	if (!from_env)
		tmp = "/tmp";
	/* The temporary directory is reached by name, and what killed runs
	 * left there is removed: as --dir, a directory no other user can
	 * swap entries of. */
	if (ap_check_dir(from_env ? "TMPDIR=" : NULL, tmp) < 0) {
		ap_report_failure();
		return 1;
	}
	ap_shared = mmap(NULL, sizeof *ap_shared, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ap_shared == MAP_FAILED) {
		cli_error(errno, "cannot map shared memory");
		return 1;
	}
	int rc = ap_owner_text(ap_shared->owner, sizeof ap_shared->owner);
	if (rc < 0)
		fprintf(stderr, "%s: note: cannot tell this process's start time, boot and PID "
			"namespace (%s): if it is killed, the next run cannot clean up after it\n",
			cli_program, strerror(-rc));
	ap_sweep_stale(tmp, ap_shared->owner);
	if (also_sweep)
		ap_sweep_stale(also_sweep, ap_shared->owner);
	snprintf(ap_shared->tempdir, sizeof ap_shared->tempdir, "%s/acctpin.XXXXXX", tmp);
	if (!mkdtemp(ap_shared->tempdir)) {
		cli_error(errno, "cannot make a temporary directory in %s", cli_quote(tmp));
		return 1;
	}
	if (ap_owner_write(ap_shared->tempdir, ap_shared->owner) < 0) {
		ap_report_failure();
		rmdir(ap_shared->tempdir);
		return 1;
	}
	/* A handler (not an ignored disposition, which would discard the
	 * signal) so that sigtimedwait sees the stop signals. */
	catch_stop_signals();
	sigset_t wanted, old_mask;
	sigemptyset(&wanted);
	sigaddset(&wanted, SIGCHLD);
	for (size_t i = 0; i < sizeof stop_signals / sizeof *stop_signals; i++)
		sigaddset(&wanted, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &wanted, &old_mask);

	ap_sysctl_fd = open(AP_SYSCTL, O_RDWR | O_CLOEXEC);
	fflush(stdout);
	fflush(stderr);
	/* clone() rather than unshare(): this process stays able to fork
	 * after the namespace's init has gone. */
	pid_t child = (pid_t)syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, NULL);
	if (child < 0 && (errno == EINVAL || errno == EPERM || errno == ENOSPC)) {
		fprintf(stderr, "%s: note: no PID namespace (%s): accounting is switched for the "
			"whole system\n", cli_program, strerror(errno));
		child = fork();
	}
	if (child == 0)
		sandbox_child(body, arg, &old_mask);
	int status = 1;
	bool hung = false;
	if (child < 0) {
		cli_error(errno, "cannot fork");
	} else {
		int wstatus = watch(child, hang_seconds, &wanted, &hung);
		if (wstatus >= 0 && WIFEXITED(wstatus))
			status = WEXITSTATUS(wstatus);
		else if (wstatus >= 0 && !ap_interrupted && !hung)
			cli_error(0, "the sandbox was killed by signal %d", WTERMSIG(wstatus));
		if (hung)
			status = 1;
	}
	outer_cleanup();
	if (ap_interrupted) {
		int sig = ap_interrupted;
		fflush(stdout);
		signal(sig, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		raise(sig);
	}
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	return status;
}
