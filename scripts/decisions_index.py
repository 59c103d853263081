#!/usr/bin/env python3
"""Write the index at the top of docs/decisions.md from the entries' own lines.

Every entry starts `## Dn. Title`, then `Area: <area>` and `Status: current` (or
`Status: superseded by Dm`, `Status: partly superseded by Dm (what)`). This script lists
the entries by area between the index markers, with GitHub's heading anchors.

    python3 scripts/decisions_index.py          # rewrite the index
    python3 scripts/decisions_index.py --check  # exit 1 if the index is stale or an entry lacks its lines
"""
import pathlib
import re
import sys
import unicodedata

DECISIONS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "decisions.md"
START = "<!-- index: written by scripts/decisions_index.py from each entry's Area and Status lines -->"
END = "<!-- end of index -->"

# The areas, in the index's order, with what belongs in each. An entry naming another
# area still gets a section (after these), and --check names it.
AREAS = {
    "pages": "the pages the server writes: locale and routes shared with the app, the shell, "
    "inline data, the first screen, kept pages",
    "web": "the React app",
    "api": "the API envelope, the read API and its caching",
    "security": "request signing, the sign word, the SSRF guard",
    "identity": "app-settings cookies, guests and sessions, the guest writer",
    "store": "storage layout on SQLite and PostgreSQL, the content writer, the full-text index",
    "ingest": "feeds: fetching, scheduling, parsing, cleaning, categories, the demo corpus, "
    "the ingestion bench",
    "clustering": "grouping items into stories",
    "geo": "the gazetteer, city search, geotagging and its evaluation set",
    "search": "news search",
    "ranking": "which stories a list shows first, and in whose lists they appear",
    "ops": "running the server: the operator CLI, memory",
}


def anchor(title):
    """GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen."""
    text = title.replace("`", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def entries(lines):
    """(number, heading text, area, status) of every entry, with the problems found."""
    found, problems = [], []
    for i, line in enumerate(lines):
        m = re.match(r"## (D(\d+)\. .*)$", line)
        if not m:
            continue
        heading, number = m.group(1), int(m.group(2))
        area = lines[i + 1][len("Area: "):].strip() if lines[i + 1].startswith("Area: ") else None
        status = lines[i + 2][len("Status: "):].strip() if lines[i + 2].startswith("Status: ") else None
        if area is None or status is None:
            problems.append(f"D{number}: no Area and Status lines under its heading")
            continue
        if area not in AREAS:
            problems.append(f"D{number}: area '{area}' is not one of {', '.join(AREAS)}")
        if not re.match(r"(current|superseded by D\d+|partly superseded by D\d+)", status):
            problems.append(f"D{number}: status '{status}' is not 'current', 'superseded by Dn' "
                            "or 'partly superseded by Dn (what)'")
        found.append((number, heading, area, status))
    numbers = [n for n, *_ in found]
    for n in sorted({n for n in numbers if numbers.count(n) > 1}):
        problems.append(f"D{n}: more than one entry")
    return found, problems


def short_status(status):
    """The index shows the status without its explanation."""
    return status.split(" (")[0]


def index(found):
    out = [START, "## Index by area", "",
           "Each entry names its area and status under its title; `partly superseded` says "
           "what the later entry changed. Benchmark numbers behind decisions are in "
           "bench/RESULTS.md, \"Measurements behind decisions\". A new entry adds its own two "
           "lines; `python3 scripts/decisions_index.py` then rewrites this index (`--check` "
           "says whether it is current).", ""]
    areas = list(AREAS) + sorted({a for _, _, a, _ in found if a not in AREAS})
    for area in areas:
        mine = sorted((e for e in found if e[2] == area), key=lambda e: e[0])
        if not mine:
            continue
        note = AREAS.get(area)
        out += [f"### {area}", ""]
        if note:
            out += [note[0].upper() + note[1:] + ".", ""]
        for number, heading, _, status in mine:
            title = heading.split(". ", 1)[1]
            out.append(f"- [D{number}](#{anchor(heading)}) {title} — {short_status(status)}")
        out.append("")
    out.append(END)
    return out


def main():
    check = "--check" in sys.argv[1:]
    text = DECISIONS.read_text(encoding="utf-8")
    lines = text.split("\n")
    if START in lines:
        start, end = lines.index(START), lines.index(END)
        found, problems = entries(lines[:start] + lines[end + 1:])
        updated = lines[:start] + index(found) + lines[end + 1:]
    else:
        # First use: the index goes after the file's first paragraph (title, blank, paragraph).
        start = lines.index("", 2) + 1
        found, problems = entries(lines)
        updated = lines[:start] + index(found) + [""] + lines[start:]
    anchors = [anchor(h) for _, h, _, _ in found]
    for a in sorted({a for a in anchors if anchors.count(a) > 1}):
        problems.append(f"two headings share the anchor #{a}")
    for p in problems:
        print(p, file=sys.stderr)
    if check:
        if updated != lines:
            print("docs/decisions.md: the index is not current; run python3 scripts/decisions_index.py",
                  file=sys.stderr)
        sys.exit(1 if problems or updated != lines else 0)
    DECISIONS.write_text("\n".join(updated), encoding="utf-8")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
