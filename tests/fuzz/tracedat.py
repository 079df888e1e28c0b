#!/usr/bin/env python3
# A small reader and rewriter of little-endian trace.dat v6 recordings, for
# tests that patch recordings at known offsets and for making small seeds.
#
#   tracedat.py layout FILE        "name offset" lines: where each field is
#   tracedat.py shrink IN OUT [N]  IN with at most N pages per CPU (default 4),
#                                  no printk formats, saved_cmdlines and
#                                  metadata cut to what those pages name
#   tracedat.py spoolseed IN OUT [WHY]
#                                  the killed recording of IN as one input of
#                                  the spool fuzz target (tests/fuzz/fuzz-spool.c)
#   tracedat.py repeat IN OUT N    IN with each CPU's pages N times over (a large
#                                  recording; time goes back at each repeat)
#   tracedat.py killed IN OUT SUFFIX [WHY]
#                                  OUT as a killed recorder leaves it: the
#                                  provisional file (no CPU data, metadata
#                                  naming its spool) and the spool directory
#                                  .OUT.spool-SUFFIX/cpuN holding IN's pages;
#                                  with WHY (disk-full, quota) as a recorder
#                                  leaves it when the disk fills at the end
import struct
import sys


class Layout:
    """Offsets of the fields of a v6 recording (see man 5 trace-cmd.dat.v6)."""

    def __init__(self, d):
        self.d = d
        self.off = {}
        p = 10
        self.off['version'] = p
        p = d.index(b'\0', p) + 1
        self.off['endian'] = p
        self.off['long_size'] = p + 1
        self.off['page_size'] = p + 2
        self.page_size = self.u32(p + 2)
        p += 6
        for name in ('header_page', 'header_event'):
            p = d.index(b'\0', p) + 1
            self.off[name + '_len'] = p
            p += 8 + self.u64(p)
        self.off['ftrace_count'] = p
        self.formats = []  # (system, offset of the u64 length, length)
        n, p = self.u32(p), p + 4
        for _ in range(n):
            self.formats.append(('ftrace', p, self.u64(p)))
            p += 8 + self.u64(p)
        self.off['systems'] = p
        nsys, p = self.u32(p), p + 4
        for _ in range(nsys):
            e = d.index(b'\0', p)
            system, p = d[p:e].decode(), e + 1
            n, p = self.u32(p), p + 4
            for _ in range(n):
                self.formats.append((system, p, self.u64(p)))
                p += 8 + self.u64(p)
        self.off['kallsyms_len'] = p
        p += 4 + self.u32(p)
        self.off['printk_len'] = p
        p += 4 + self.u32(p)
        self.off['cmdlines_len'] = p
        p += 8 + self.u64(p)
        self.off['ncpus'] = p
        self.ncpus = self.u32(p)
        p += 4
        assert d[p:p + 10] == b'options  \0'
        p += 10
        self.options = []  # (id, offset of the id, length)
        while True:
            oid = struct.unpack_from('<H', d, p)[0]
            if oid == 0:
                p += 2
                break
            n = self.u32(p + 2)
            self.options.append((oid, p, n))
            p += 6 + n
        assert d[p:p + 10] == b'flyrecord\0'
        p += 10
        self.off['cpu_table'] = p
        self.cpus = [(self.u64(p + 16 * c), self.u64(p + 16 * c + 8)) for c in range(self.ncpus)]
        p += 16 * self.ncpus
        self.meta = None
        if d[p:p + 14] == b'bootprof-meta\0':
            self.off['meta_len'] = p + 14
            self.off['meta'] = p + 22
            self.meta = d[p + 22:p + 22 + self.u64(p + 14)]
        self.off['data'] = min(o for o, s in self.cpus if s) if any(s for o, s in self.cpus) else len(d)
        self.header_end = p

    def u32(self, p):
        return struct.unpack_from('<I', self.d, p)[0]

    def u64(self, p):
        return struct.unpack_from('<Q', self.d, p)[0]


def shrink(d, pages):
    lay = Layout(d)
    ps = lay.page_size
    data = [d[o:o + min(s, pages * ps)] for o, s in lay.cpus]
    head = bytearray(d[:lay.off['printk_len']])
    head += struct.pack('<I', 0)
    # Only the names of tasks the kept pages may mention: keep pid lines
    # whose pid appears as a little-endian int32 in the pages.
    cl = d[lay.off['cmdlines_len'] + 8:lay.off['cmdlines_len'] + 8 + lay.u64(lay.off['cmdlines_len'])]
    blob = b''.join(data)
    keep = []
    for line in cl.split(b'\n'):
        try:
            pid = int(line.split(b' ')[0])
        except ValueError:
            continue
        if struct.pack('<i', pid) in blob:
            keep.append(line)
    cl = b'\n'.join(keep) + b'\n' if keep else b''
    head += struct.pack('<Q', len(cl)) + cl
    head += d[lay.off['ncpus']:lay.off['cpu_table']]
    meta = b''
    if lay.meta is not None:
        lines = lay.meta.split(b'\n')
        meta = b'\n'.join(l for l in lines
                          if not l.startswith(b'mount ') or b' / ' in l or b'ext4' in l)
    table_end = len(head) + 16 * lay.ncpus + (22 + len(meta) if meta else 0)
    pos = (table_end + ps - 1) // ps * ps
    for c in data:
        head += struct.pack('<QQ', pos, len(c))
        pos += len(c)
    if meta:
        head += b'bootprof-meta\0' + struct.pack('<Q', len(meta)) + meta
    head += b'\0' * ((-len(head)) % ps)
    return bytes(head) + blob


def repeat(d, n):
    lay = Layout(d)
    ps = lay.page_size
    data = [d[o:o + s] * n for o, s in lay.cpus]
    head = bytearray(d[:lay.off['cpu_table']])
    meta = lay.meta
    table_end = len(head) + 16 * lay.ncpus + (22 + len(meta) if meta is not None else 0)
    pos = (table_end + ps - 1) // ps * ps
    for c in data:
        head += struct.pack('<QQ', pos, len(c))
        pos += len(c)
    if meta is not None:
        head += b'bootprof-meta\0' + struct.pack('<Q', len(meta)) + meta
    head += b'\0' * ((-len(head)) % ps)
    return bytes(head) + b''.join(data)


def killed(d, suffix, why=None):
    """The provisional file of IN's recording, and each CPU's pages for its spool."""
    lay = Layout(d)
    ps = lay.page_size
    assert lay.meta is not None and lay.meta.endswith(b'end\n')
    meta = lay.meta[:-4] + b'spool ' + suffix.encode() + b'\n'
    if why:
        meta += b'spool_why ' + why.encode() + b'\n'
    meta += b'end\n'
    head = bytearray(d[:lay.off['cpu_table']])
    table_end = len(head) + 16 * lay.ncpus + 22 + len(meta)
    pos = (table_end + ps - 1) // ps * ps
    for _ in range(lay.ncpus):
        head += struct.pack('<QQ', pos, 0)
    head += b'bootprof-meta\0' + struct.pack('<Q', len(meta)) + meta
    head += b'\0' * ((-len(head)) % ps)
    return bytes(head), [d[o:o + s] for o, s in lay.cpus]


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'layout':
        lay = Layout(open(sys.argv[2], 'rb').read())
        for k, v in lay.off.items():
            print(k, v)
        for c, (o, s) in enumerate(lay.cpus):
            print('cpu%d_offset %d' % (c, lay.off['cpu_table'] + 16 * c))
            print('cpu%d_data %d' % (c, o))
            print('cpu%d_size %d' % (c, s))
        for i, (system, p, n) in enumerate(lay.formats):
            print('format%d_%s %d %d' % (i, system, p, n))
        print('header_end', lay.header_end)
        print('size', len(lay.d))
    elif len(sys.argv) >= 4 and sys.argv[1] == 'shrink':
        d = open(sys.argv[2], 'rb').read()
        out = shrink(d, int(sys.argv[4]) if len(sys.argv) > 4 else 4)
        open(sys.argv[3], 'wb').write(out)
    elif len(sys.argv) == 5 and sys.argv[1] == 'repeat':
        out = repeat(open(sys.argv[2], 'rb').read(), int(sys.argv[4]))
        open(sys.argv[3], 'wb').write(out)
    elif len(sys.argv) in (4, 5) and sys.argv[1] == 'spoolseed':
        head, cpus = killed(open(sys.argv[2], 'rb').read(), 'seed00',
                            sys.argv[4] if len(sys.argv) == 5 else None)
        out = b'bpspool\n'
        for blob in [head] + cpus:
            out += struct.pack('<I', len(blob)) + blob
        open(sys.argv[3], 'wb').write(out)
    elif len(sys.argv) in (5, 6) and sys.argv[1] == 'killed':
        import os
        head, cpus = killed(open(sys.argv[2], 'rb').read(), sys.argv[4],
                            sys.argv[5] if len(sys.argv) == 6 else None)
        out = sys.argv[3]
        spool = os.path.join(os.path.dirname(out),
                             '.%s.spool-%s' % (os.path.basename(out), sys.argv[4]))
        os.makedirs(spool, exist_ok=True)
        for c, data in enumerate(cpus):
            open(os.path.join(spool, 'cpu%d' % c), 'wb').write(data)
        open(out, 'wb').write(head)
    else:
        sys.stderr.write(__doc__ if __doc__ else 'usage: tracedat.py layout FILE | shrink IN OUT [N]\n')
        sys.exit(2)


if __name__ == '__main__':
    main()
