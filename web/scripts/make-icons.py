#!/usr/bin/env python3
"""Draw the app's icons from web/public/favicon.svg with Chromium (issue 31, D375).

Writes web/public/favicon.ico (16, 32 and 48 px), web/public/icons/icon-{32,192,512}.png,
icon-maskable-512.png (the mark in the middle 60%, on a full square of its blue, so any
mask shape keeps it whole) and apple-touch-icon.png (180 px, square: iOS rounds it).
The outputs are committed; run this again only when the mark changes:

    python3 web/scripts/make-icons.py
"""
import pathlib
import struct
import subprocess
import tempfile

WEB = pathlib.Path(__file__).resolve().parent.parent
PUBLIC = WEB / "public"
SVG = (PUBLIC / "favicon.svg").read_text()
BLUE = "#0b5fff"
CHROMIUM = "/usr/bin/chromium"


def render(size: int, html: str, out: pathlib.Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        page = pathlib.Path(tmp) / "icon.html"
        page.write_text(
            "<!doctype html><html><head><style>html,body{margin:0;background:transparent;"
            f"width:{size}px;height:{size}px;overflow:hidden}}svg{{display:block}}</style></head>"
            f"<body>{html}</body></html>"
        )
        subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={tmp}/profile", "--default-background-color=00000000",
             "--force-device-scale-factor=1", f"--window-size={size},{size}",
             f"--screenshot={out}", page.as_uri()],
            check=True, capture_output=True,
        )


def sized(size: int) -> str:
    return SVG.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)


def full_bleed(size: int, share: float) -> str:
    """The mark's glyph on a square of its blue, the glyph taking `share` of the side."""
    inner = int(size * share)
    pad = (size - inner) // 2
    glyph = SVG.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1).replace(
        f'<rect width="32" height="32" rx="7" fill="{BLUE}"/>', ""
    )
    return f'<div style="background:{BLUE};width:{size}px;height:{size}px;padding:{pad}px;box-sizing:border-box">{glyph}</div>'


def ico(pngs: list[tuple[int, bytes]]) -> bytes:
    """An ICO file holding PNG images (Vista and every browser since read them)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = 6 + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, data in pngs:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(data), offset)
        blobs += data
        offset += len(data)
    return header + entries + blobs


def main() -> None:
    icons = PUBLIC / "icons"
    icons.mkdir(exist_ok=True)
    for size in (32, 192, 512):
        render(size, sized(size), icons / f"icon-{size}.png")
    render(512, full_bleed(512, 0.6), icons / "icon-maskable-512.png")
    render(180, full_bleed(180, 0.8), icons / "apple-touch-icon.png")
    with tempfile.TemporaryDirectory() as tmp:
        pngs = []
        for size in (16, 32, 48):
            path = pathlib.Path(tmp) / f"{size}.png"
            render(size, sized(size), path)
            pngs.append((size, path.read_bytes()))
        (PUBLIC / "favicon.ico").write_bytes(ico(pngs))


if __name__ == "__main__":
    main()
