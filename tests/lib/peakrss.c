/*
 * peakrss: `peakrss OUT CMD ARG...` runs CMD and writes to the file OUT its
 * peak RSS in KiB (wait4's ru_maxrss: the largest of CMD and of the
 * processes it waited for, its workers); exits with CMD's status.
 *
 * Why a program of its own: a process's peak counts the memory of the one
 * it was forked from until it calls exec, so a peak measured by a Python
 * script (subprocess, even posix_spawn) is never below the ~14 MiB of the
 * interpreter, which hid anything a site build used under it. Forked from
 * this small process, the figure is the command's own.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: peakrss OUT CMD [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("peakrss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("peakrss: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("peakrss: wait4");
		return 2;
	}
	out = fopen(argv[1], "w");
	if (!out || fprintf(out, "%ld\n", ru.ru_maxrss) < 0 || fclose(out) != 0) {
		perror("peakrss: OUT");
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
