#!/usr/bin/env python3
# png-ink.py FILE MIN: exit 0 when more than MIN (a fraction) of the pixels
# of an 8-bit RGB(A) PNG are not white, and more than 3 colours are used:
# the picture is not blank. Prints the share and the colour count.
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, "unsupported PNG"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    out = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(line)
        prev = line
    return w, h, bpp, out


w, h, bpp, rows = pixels(sys.argv[1])
ink, colours = 0, set()
for line in rows:
    for x in range(0, w * bpp, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        if px != b"\xff\xff\xff":
            ink += 1
share = ink / float(w * h)
print("ink %.3f, %d colours" % (share, len(colours)))
sys.exit(0 if share > float(sys.argv[2]) and len(colours) > 3 else 1)
