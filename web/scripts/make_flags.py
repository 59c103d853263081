#!/usr/bin/env python3
"""Writes the flag images of SPEC §2.24 (public/static/country/{us,ca}.png).

Standard library only (zlib + struct): each flag is drawn from its geometry with 4x4
supersampling, so the small images keep smooth edges. Run from web/: python3 scripts/make_flags.py
"""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "public", "static", "country")
SAMPLES = 4

WHITE = (255, 255, 255)
US_RED = (178, 34, 52)
US_BLUE = (60, 59, 110)
CA_RED = (213, 43, 30)


def write_png(path, width, height, pixel):
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter type: none
        for x in range(width):
            rows.extend(pixel(x, y))
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def supersample(color_at, width, height):
    """Averages SAMPLES x SAMPLES points per pixel of a function over [0,1) x [0,1)."""
    def pixel(x, y):
        total = [0, 0, 0]
        for sy in range(SAMPLES):
            for sx in range(SAMPLES):
                c = color_at((x + (sx + 0.5) / SAMPLES) / width, (y + (sy + 0.5) / SAMPLES) / height)
                for i in range(3):
                    total[i] += c[i]
        n = SAMPLES * SAMPLES
        return bytes(round(t / n) for t in total)
    return pixel


def us_color(u, v):
    # 13 stripes; the canton covers 7 stripes and 0.76 / 1.9 of the width.
    canton_w, canton_h = 0.76 / 1.9, 7 / 13
    if u < canton_w and v < canton_h:
        # 50 stars: 9 rows alternating 6 and 5, drawn as small dots.
        row = v / canton_h * 10
        col = u / canton_w * 12
        for r in range(1, 10):
            for c in range(1, 12):
                if (r + c) % 2:
                    continue
                if math.hypot((col - c) * (canton_w * 1.9 / 12), (row - r) * (canton_h / 10)) < 0.016:
                    return WHITE
        return US_BLUE
    stripe = int(v * 13)
    return US_RED if stripe % 2 == 0 else WHITE


# The maple leaf of the Canadian flag, from its 9600 x 4800 construction (arcs taken as chords).
_LEAF_STEPS = [
    (-45, -863), (111, -98), (859, 151), (-116, -320), (20, -73), (941, -762), (-212, -99),
    (-34, -79), (186, -572), (-542, 115), (-73, -38), (-105, -247), (-423, 454), (-111, -57),
    (204, -1052), (-327, 189), (-91, -27), (-332, -652), (-332, 652), (-91, 27), (-327, -189),
    (204, 1052), (-111, 57), (-423, -454), (-105, 247), (-73, 38), (-542, -115), (186, 572),
    (-34, 79), (-212, 99), (941, 762), (20, 73), (-116, 320), (859, -151), (111, 98), (-45, 863),
]


def _leaf_polygon():
    x, y = 4890, 4430
    points = [(x, y)]
    for dx, dy in _LEAF_STEPS:
        x, y = x + dx, y + dy
        points.append((x, y))
    return [(px / 9600, py / 4800) for px, py in points]


LEAF = _leaf_polygon()


def inside(polygon, u, v):
    hit = False
    j = len(polygon) - 1
    for i in range(len(polygon)):
        xi, yi = polygon[i]
        xj, yj = polygon[j]
        if (yi > v) != (yj > v) and u < (xj - xi) * (v - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def ca_color(u, v):
    if u < 0.25 or u >= 0.75:
        return CA_RED
    return CA_RED if inside(LEAF, u, v) else WHITE


def main():
    os.makedirs(OUT, exist_ok=True)
    write_png(os.path.join(OUT, "us.png"), 76, 40, supersample(us_color, 76, 40))
    write_png(os.path.join(OUT, "ca.png"), 80, 40, supersample(ca_color, 80, 40))


if __name__ == "__main__":
    main()
