#!/usr/bin/python3
"""A FUSE file system whose create() is slow: t3-slowfs.py MOUNTPOINT SECONDS.

One directory, /d, empty at first. create() answers after SECONDS. The
kernel holds the parent directory's inode lock (i_rwsem) across the
create request, so a second create in /d sleeps uninterruptibly (D) on
that lock until the first one is answered: a D-sleep inside open() with
no I/O behind it. The task inside the request itself sleeps
interruptibly (S) while the request is pending. Runs in the foreground
until unmounted. Debian's python3-fusepy (module fusepy, libfuse2).
"""
import errno
import stat
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations


class SlowCreate(Operations):
    def __init__(self, delay):
        self.delay = delay
        self.mu = threading.Lock()
        self.now = time.time()
        self.nodes = {"/": stat.S_IFDIR | 0o755, "/d": stat.S_IFDIR | 0o755}

    def getattr(self, path, fh=None):
        with self.mu:
            mode = self.nodes.get(path)
        if mode is None:
            raise FuseOSError(errno.ENOENT)
        return dict(st_mode=mode, st_nlink=2 if stat.S_ISDIR(mode) else 1, st_size=0,
                    st_uid=0, st_gid=0, st_atime=self.now, st_mtime=self.now,
                    st_ctime=self.now)

    def readdir(self, path, fh):
        prefix = path.rstrip("/") + "/"
        with self.mu:
            names = [p[len(prefix):] for p in self.nodes
                     if p.startswith(prefix) and "/" not in p[len(prefix):] and p != prefix]
        return [".", ".."] + names

    def create(self, path, mode, fi=None):
        time.sleep(self.delay)
        with self.mu:
            self.nodes[path] = stat.S_IFREG | 0o644
        return 0

    def open(self, path, flags):
        return 0

    def truncate(self, path, length, fh=None):
        return 0

    def write(self, path, data, offset, fh):
        return len(data)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        return 0

    def utimens(self, path, times=None):
        return 0


if __name__ == "__main__":
    FUSE(SlowCreate(float(sys.argv[2])), sys.argv[1], foreground=True, nothreads=False)
