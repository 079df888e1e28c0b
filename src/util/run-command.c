// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/run-command.h"

int bp_command_prepare(struct bp_command *cmd)
{
	int go[2], err[2];
	char byte;

	cmd->pid = -1;
	cmd->go_fd = cmd->err_fd = -1;
	cmd->reaped = 0;
	cmd->status = -1;
	cmd->exec_errno = 0;
	if (pipe2(go, O_CLOEXEC) < 0) {
		bp_set_error_errno("pipe");
		return -1;
	}
	if (pipe2(err, O_CLOEXEC) < 0) {
		bp_set_error_errno("pipe");
		close(go[0]);
		close(go[1]);
		return -1;
	}
	cmd->pid = fork();
	if (cmd->pid < 0) {
		bp_set_error_errno("cannot fork");
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -1;
	}
	if (cmd->pid == 0) {
		int e;

		close(go[1]);
		close(err[0]);
		if (cmd->signals)
			bp_stop_signals_restore(cmd->signals);
		if (read(go[0], &byte, 1) != 1)
			_exit(127); /* cancelled: never started */
		execvp(cmd->argv[0], cmd->argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0) {
			/* The parent then sees status 127. */
		}
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	cmd->go_fd = go[1];
	cmd->err_fd = err[0];
	return 0;
}

int bp_command_start(struct bp_command *cmd)
{
	ssize_t n;
	int err = 0;

	if (write(cmd->go_fd, "g", 1) != 1) {
		bp_set_error_errno("cannot start '%s'", cmd->argv[0]);
		return -1;
	}
	close(cmd->go_fd);
	cmd->go_fd = -1;
	do {
		n = read(cmd->err_fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(cmd->err_fd);
	cmd->err_fd = -1;
	if (n == sizeof(err)) {
		cmd->exec_errno = err;
		errno = err;
		bp_set_error_errno("cannot run '%s'", cmd->argv[0]);
		return -1;
	}
	return 0;
}

void bp_command_reaped(struct bp_command *cmd, int status)
{
	cmd->status = status;
	cmd->reaped = 1;
	cmd->pid = -1;
}

#define TICK_MS 10

void bp_command_finish(struct bp_command *cmd, int grace_ms)
{
	struct timespec tick = { 0, TICK_MS * 1000000L };
	int waited = 0, status;
	pid_t got;

	if (cmd->go_fd >= 0)
		close(cmd->go_fd);
	if (cmd->err_fd >= 0)
		close(cmd->err_fd);
	cmd->go_fd = cmd->err_fd = -1;
	if (cmd->pid <= 0)
		return;
	kill(cmd->pid, SIGTERM);
	for (;;) {
		got = waitpid(cmd->pid, &status, WNOHANG);
		if (got == cmd->pid) {
			bp_command_reaped(cmd, status);
			return;
		}
		if (got < 0 && errno != EINTR)
			break;
		if (waited == grace_ms)
			kill(cmd->pid, SIGKILL);
		nanosleep(&tick, NULL);
		waited += TICK_MS;
	}
	cmd->pid = -1;
}

int bp_command_exit_code(const struct bp_command *cmd)
{
	if (!cmd->reaped)
		return -1;
	if (WIFEXITED(cmd->status))
		return WEXITSTATUS(cmd->status);
	if (WIFSIGNALED(cmd->status))
		return 128 + WTERMSIG(cmd->status);
	return -1;
}

int bp_command_run(const char *const *argv, char *out, size_t size)
{
	/* execvp() takes char *const []; nothing is written through it. */
	struct bp_command cmd = { .argv = (char **)(uintptr_t)argv };
	int pipefd[2] = { -1, -1 }, saved = -1, null, status;
	size_t len = 0;
	ssize_t n;

	/* The child gets these as fds 0 and 1 from the fork; ours are put back after it. */
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || (out && pipe2(pipefd, O_CLOEXEC) < 0)) {
		bp_set_error_errno("cannot run '%s'", argv[0]);
		goto out_close;
	}
	saved = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	dup2(null, STDIN_FILENO);
	if (out) {
		int saved_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);

		fflush(stdout);
		dup2(pipefd[1], STDOUT_FILENO);
		status = bp_command_prepare(&cmd);
		dup2(saved_out, STDOUT_FILENO);
		close(saved_out);
	} else {
		status = bp_command_prepare(&cmd);
	}
	dup2(saved, STDIN_FILENO);
	if (status < 0 || bp_command_start(&cmd) < 0) {
		bp_command_finish(&cmd, 0);
		goto out_close;
	}
	if (out) {
		close(pipefd[1]);
		pipefd[1] = -1;
		while ((n = read(pipefd[0], out + len, size - 1 - len)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			len += (size_t)n;
			if (len == size - 1) {
				char sink[512];

				while (read(pipefd[0], sink, sizeof(sink)) > 0)
					; /* the rest, so the command never blocks on a full pipe */
				break;
			}
		}
		while (len && out[len - 1] == '\n')
			len--;
		out[len] = '\0';
	}
	while (waitpid(cmd.pid, &status, 0) < 0 && errno == EINTR)
		;
	bp_command_reaped(&cmd, status);
	status = bp_command_exit_code(&cmd);
	goto out_done;
out_close:
	status = -1;
out_done:
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	return status;
}
