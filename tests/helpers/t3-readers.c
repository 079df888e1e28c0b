// SPDX-License-Identifier: GPL-2.0
/*
 * Ground truth for I/O wait: N processes doing random 4 KiB preads over
 * their own cold file, whose block I/O delay is then read from the kernel's
 * delay accounting while they still exist.
 *
 *   t3-readers create DIR N SIZE_MB    make DIR/rN (N files of SIZE_MB)
 *   t3-readers run DIR N SECONDS       read them concurrently; print, per
 *                                      reader: "pid TASKSTATS_NS STAT_TICKS"
 *
 * Each reader stops itself (SIGSTOP) when done, so its delay counters can
 * be read before it is reaped: taskstats' blkio_delay_total (ns, netlink)
 * and field 42 of /proc/PID/stat (delayacct_blkio_ticks). Needs
 * kernel.task_delayacct=1. With T3_FIFO set, the readers run SCHED_FIFO.
 * Built by the test that uses it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXN 16

static int create(const char *dir, int n, long mb)
{
	static char buf[1 << 20];
	char path[4096];
	int i, fd;
	long j;

	for (j = 0; j < (long)sizeof(buf); j++)
		buf[j] = (char)(j * 7 + 3);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/r%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		for (j = 0; j < mb; j++) {
			buf[0] = (char)j;
			buf[1] = (char)i;
			if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
				perror(path);
				return 1;
			}
		}
		fsync(fd);
		close(fd);
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void reader(const char *path, double seconds, unsigned seed)
{
	char buf[4096];
	struct stat st;
	double end = now() + seconds;
	int fd = open(path, O_RDONLY);
	off_t pages;

	if (fd < 0 || fstat(fd, &st) < 0)
		_exit(1);
	/*
	 * Real-time, so the kernel's own numbers are right: with EEVDF's
	 * delayed dequeue (6.12+), a fair task that sleeps while owed CPU
	 * time has its blkio delay start stamped on whichever task runs when
	 * the dequeue completes, which inflates (or garbles) its blkio delay.
	 */
	if (getenv("T3_FIFO")) {
		struct sched_param sp = { .sched_priority = 1 };

		sched_setscheduler(0, SCHED_FIFO, &sp);
	}
	pages = st.st_size / 4096;
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	while (now() < end) {
		off_t p = (off_t)(rand_r(&seed) % pages);

		if (pread(fd, buf, sizeof(buf), p * 4096) < 0)
			_exit(1);
	}
	close(fd);
	raise(SIGSTOP);
	_exit(0);
}

/* ---- taskstats over generic netlink ---- */

struct msg {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char buf[2048];
};

static int nl_send(int fd, uint16_t type, uint8_t cmd, uint16_t attr, const void *data, int len)
{
	struct msg m;
	struct nlattr *na;
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };

	memset(&m, 0, sizeof(m));
	m.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m.n.nlmsg_type = type;
	m.n.nlmsg_flags = NLM_F_REQUEST;
	m.n.nlmsg_pid = (uint32_t)getpid();
	m.g.cmd = cmd;
	m.g.version = 1;
	na = (struct nlattr *)((char *)&m + m.n.nlmsg_len);
	na->nla_type = attr;
	na->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)na + NLA_HDRLEN, data, (size_t)len);
	m.n.nlmsg_len += NLMSG_ALIGN(na->nla_len);
	return sendto(fd, &m, m.n.nlmsg_len, 0, (struct sockaddr *)&addr, sizeof(addr)) < 0 ? -1 : 0;
}

static int family_id(int fd)
{
	struct msg m;
	struct nlattr *na;
	ssize_t len;
	int rem;

	if (nl_send(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		    TASKSTATS_GENL_NAME, (int)strlen(TASKSTATS_GENL_NAME) + 1) < 0)
		return -1;
	len = recv(fd, &m, sizeof(m), 0);
	if (len < 0 || m.n.nlmsg_type == NLMSG_ERROR)
		return -1;
	rem = (int)m.n.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	for (na = (struct nlattr *)m.buf; rem >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN;
	     rem -= NLA_ALIGN(na->nla_len), na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len))) {
		if (na->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)na + NLA_HDRLEN);
	}
	return -1;
}

static long long taskstats_blkio(int fd, int fam, pid_t pid)
{
	struct msg m;
	struct nlattr *na, *in;
	uint32_t p = (uint32_t)pid;
	int rem, rem2;

	if (nl_send(fd, (uint16_t)fam, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID, &p, sizeof(p)) < 0)
		return -1;
	if (recv(fd, &m, sizeof(m), 0) < 0 || m.n.nlmsg_type == NLMSG_ERROR)
		return -1;
	rem = (int)m.n.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	for (na = (struct nlattr *)m.buf; rem >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN;
	     rem -= NLA_ALIGN(na->nla_len), na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len))) {
		if (na->nla_type != TASKSTATS_TYPE_AGGR_PID)
			continue;
		rem2 = na->nla_len - NLA_HDRLEN;
		for (in = (struct nlattr *)((char *)na + NLA_HDRLEN); rem2 >= NLA_HDRLEN;
		     rem2 -= NLA_ALIGN(in->nla_len),
		     in = (struct nlattr *)((char *)in + NLA_ALIGN(in->nla_len))) {
			if (in->nla_type == TASKSTATS_TYPE_STATS) {
				struct taskstats ts;

				memcpy(&ts, (char *)in + NLA_HDRLEN, sizeof(ts));
				return (long long)ts.blkio_delay_total;
			}
			if (in->nla_len < NLA_HDRLEN)
				break;
		}
	}
	return -1;
}

static long long stat_ticks(pid_t pid)
{
	char path[64], buf[4096], *p;
	long long v = -1;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');   /* comm may hold spaces */
	if (!p)
		return -1;
	/* field 3 starts after ") " */
	for (field = 2, p++; *p && field < 42; p++) {
		if (*p == ' ')
			field++;
	}
	if (field == 42)
		v = strtoll(p, NULL, 10);
	return v;
}

static int run(const char *dir, int n, double seconds)
{
	pid_t pids[MAXN];
	char path[4096];
	int i, status, fd, fam;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/r%d", dir, i);
		pids[i] = fork();
		if (pids[i] < 0)
			return 1;
		if (!pids[i])
			reader(path, seconds, (unsigned)(i * 7919 + 1));
	}
	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &status, WUNTRACED) < 0 || !WIFSTOPPED(status)) {
			fprintf(stderr, "reader %d did not stop\n", pids[i]);
			return 1;
		}
	}
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	fam = fd >= 0 ? family_id(fd) : -1;
	for (i = 0; i < n; i++)
		printf("%d %lld %lld\n", pids[i], fam >= 0 ? taskstats_blkio(fd, fam, pids[i]) : -1LL,
		       stat_ticks(pids[i]));
	fflush(stdout);
	if (fd >= 0)
		close(fd);
	for (i = 0; i < n; i++) {
		kill(pids[i], SIGCONT);
		waitpid(pids[i], &status, 0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n;

	if (argc != 5) {
		fprintf(stderr, "usage: t3-readers create DIR N SIZE_MB | run DIR N SECONDS\n");
		return 2;
	}
	n = atoi(argv[3]);
	if (n < 1 || n > MAXN)
		return 2;
	if (!strcmp(argv[1], "create"))
		return create(argv[2], n, atol(argv[4]));
	if (!strcmp(argv[1], "run"))
		return run(argv[2], n, atof(argv[4]));
	return 2;
}
