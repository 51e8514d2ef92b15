/* SPDX-License-Identifier: GPL-2.0-or-later */
/* peakrss FILE COMMAND [ARG]...: run COMMAND with this process's standard
 * input and output and write to FILE its peak resident set size in KiB and
 * the nanoseconds from just before its fork to its reaping: the command's
 * own wall time, as a shell's `time` or perf stat counts it, without the
 * time the benchmark takes to start this helper.
 * The benchmark starts the tools through it: a child of the benchmark
 * itself would report the benchmark's own size (the kernel keeps the
 * largest size the process had, also before its exec), a child of this
 * small program reports the tool's.  Exits with COMMAND's status (128 + the
 * signal that killed it), or 127 when it cannot be run. */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: peakrss FILE COMMAND [ARG]...\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("peakrss: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	int status;
	struct rusage usage;
	if (wait4(pid, &status, 0, &usage) < 0) {
		perror("peakrss: wait4");
		return 127;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long long ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
	FILE *f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%ld %lld\n", usage.ru_maxrss, ns) < 0 || fclose(f) != 0) {
		perror(argv[1]);
		return 127;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
