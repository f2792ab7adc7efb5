#!/usr/bin/env python3
"""Draws the studio's icon (resources/icons/libreyolo-studio.png): a detection box with its label
tag around a shape, on a dark rounded square. Standard library only (zlib + struct PNG writer),
so it runs anywhere; rerun after changing the drawing."""
import math
import struct
import sys
import zlib

SIZE = 256


def inside_rounded(x, y, x0, y0, x1, y1, r):
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r and x0 <= x <= x1 and y0 <= y <= y1


def pixel(x, y):
    px, py = x + 0.5, y + 0.5
    if not inside_rounded(px, py, 8, 8, SIZE - 8, SIZE - 8, 44):
        return (0, 0, 0, 0)
    colour = (24, 32, 48, 255)
    # the object: a star-ish blob
    dx, dy = px - 128, py - 140
    angle, radius = math.atan2(dy, dx), math.hypot(dx, dy)
    if radius < 52 + 14 * math.cos(5 * angle):
        colour = (255, 196, 40, 255)
    # the detection box (a 10 px outline) and its tag
    box = (52, 68, 204, 212)
    on_x = box[0] <= px <= box[2] and (abs(py - box[1]) <= 5 or abs(py - box[3]) <= 5)
    on_y = box[1] <= py <= box[3] and (abs(px - box[0]) <= 5 or abs(px - box[2]) <= 5)
    if on_x or on_y:
        colour = (40, 220, 120, 255)
    if box[0] - 5 <= px <= 150 and 36 <= py <= 68:
        colour = (40, 220, 120, 255)
        if 64 <= px <= 120 and 49 <= py <= 55:  # the label's "text" bar
            colour = (24, 32, 48, 255)
    return colour


def main(path):
    rows = b"".join(b"\x00" + b"".join(struct.pack("4B", *pixel(x, y)) for x in range(SIZE)) for y in range(SIZE))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "resources/icons/libreyolo-studio.png")
