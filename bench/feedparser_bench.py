"""Python feedparser over the same feed files as parse_bench (bench/ingest.sh).

    python bench/feedparser_bench.py PATH...

Each PATH is a feed file or a folder of them (*.xml, *.rss, *.atom, *.json; name order).
Only the time inside feedparser.parse counts towards items/s. feedparser reads RSS and Atom
(and sanitises HTML as it goes); it does not read JSON Feed, so JSON files are counted
apart and left out of its rate. The last line is `RESULT {json}`.
"""
import json
import pathlib
import resource
import sys
import time

import feedparser

EXTENSIONS = {".xml", ".rss", ".atom", ".json"}


def feed_files(paths):
    for arg in paths:
        path = pathlib.Path(arg)
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.suffix in EXTENSIONS)
        else:
            yield path


def main():
    files = items = xml_bytes = json_files = bozo = 0
    parse_s = 0.0
    for path in feed_files(sys.argv[1:]):
        if path.suffix == ".json":
            json_files += 1
            continue
        body = path.read_bytes()
        started = time.perf_counter()
        parsed = feedparser.parse(body)
        parse_s += time.perf_counter() - started
        files += 1
        xml_bytes += len(body)
        items += len(parsed.entries)
        bozo += bool(parsed.bozo)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rate = items / parse_s if parse_s else 0.0
    print(f"feedparser {feedparser.__version__}: {files} RSS/Atom files ({bozo} flagged bozo, {json_files} JSON Feed "
          f"files skipped), {items} items in {parse_s:.3f} s: {rate:.0f} items/s, peak RSS {peak_kib} KiB")
    print("RESULT " + json.dumps({
        "version": feedparser.__version__, "files": files, "json_files_skipped": json_files, "bozo": bozo,
        "items": items, "bytes": xml_bytes, "parse_s": parse_s, "peak_rss_kib": peak_kib,
    }))


if __name__ == "__main__":
    main()
