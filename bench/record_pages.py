"""Read bench/out/lh-*.json and bench/out/page-weight.json; append a "Pages" section to
bench/RESULTS.md (other sections are left as they are).

    python3 bench/record_pages.py OUT_DIR CORES RUNS "name url"...
"""
import datetime
import json
import pathlib
import statistics
import sys
import urllib.parse

out, cores, runs = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
pages = [p.split(" ", 1) for p in sys.argv[4:]]
ok = lambda b: "met" if b else "NOT met"
kb = lambda b: f"{b / 1024:.1f} KB"


def path(url):
    u = urllib.parse.urlsplit(url)
    return u.path + (f"?{u.query}" if u.query else "")


loads = (out / "lh-load.txt").read_text().split("\n") if (out / "lh-load.txt").exists() else []
load_range = [float(l.split()[2]) for l in loads if len(l.split()) >= 3]

rows, notes, misses = [], [], []
for name, url in pages:
    reports = [json.loads((out / f"lh-{name}-{r}.json").read_text()) for r in range(1, runs + 1)]
    perf = [round(r["categories"]["performance"]["score"] * 100) for r in reports]
    a11y = [round(r["categories"]["accessibility"]["score"] * 100) for r in reports]
    lcp = [r["audits"]["largest-contentful-paint"]["numericValue"] / 1000 for r in reports]
    fcp = [r["audits"]["first-contentful-paint"]["numericValue"] / 1000 for r in reports]
    tbt = [r["audits"]["total-blocking-time"]["numericValue"] for r in reports]
    cls = [r["audits"]["cumulative-layout-shift"]["numericValue"] for r in reports]
    weight = [r["audits"]["total-byte-weight"]["numericValue"] for r in reports]
    m = statistics.median
    rows.append(f"| {name} `{path(url)}` "
                f"| **{m(perf):.0f}** ({', '.join(map(str, perf))}) | **{m(a11y):.0f}** ({', '.join(map(str, a11y))}) "
                f"| **{m(lcp):.2f} s** ({', '.join(f'{x:.2f}' for x in lcp)}) | {m(fcp):.2f} s | {m(tbt):.0f} ms "
                f"| {m(cls):.3f} | {kb(m(weight))} |")
    if m(perf) < 95 or m(a11y) < 95 or m(lcp) > 2.0:
        mid = reports[perf.index(sorted(perf)[len(perf) // 2])]
        failing = []
        for cat in ("performance", "accessibility"):
            for ref in mid["categories"][cat]["auditRefs"]:
                a = mid["audits"][ref["id"]]
                if a.get("score") is not None and a["score"] < 0.9 and not ref["id"].endswith("-insight") and a.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings"):
                    where = []
                    for item in (a.get("details") or {}).get("items", [])[:3]:
                        node = item.get("node") or {}
                        where.append(item.get("url") or node.get("selector") or node.get("snippet") or "")
                    failing.append(f"`{ref['id']}` ({a['score']:.2f}{', ' + a.get('displayValue') if a.get('displayValue') else ''})"
                                   + (f": {'; '.join(w for w in where if w)}" if any(where) else ""))
        misses.append(f"- {name}: " + ("; ".join(failing) if failing else "no single audit below 0.9"))

weights = json.loads((out / "page-weight.json").read_text())
wrows = []
for w in weights:
    by = {}
    for r in w["rows"]:
        by[r["type"]] = by.get(r["type"], 0) + r["body"] + r["headers"]
    parts = ", ".join(f"{t} {kb(b)}" for t, b in sorted(by.items(), key=lambda x: -x[1]))
    wrows.append(f"| `{path(w['url'])}` "
                 f"| {w['viewport']} | {w['requests']} | **{kb(w['counted_bytes'])}** | {kb(w['total_bytes'])} | {parts} |")
worst = max(w["counted_bytes"] for w in weights)

section = f"""
## Pages (issue 4): Lighthouse and page weight ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)

Run by `bench/lighthouse.sh` on {cores} cores (load average 1 min
during the runs: {min(load_range, default=0):.2f}–{max(load_range, default=0):.2f}). Release binary, `serve --demo`, fresh data dir.
Lighthouse 12, mobile preset, simulated throttling, performance + accessibility only; median of {runs} runs
(each run in brackets). Raw reports: `bench/out/lh-*.json`.

| page | performance | accessibility | LCP | FCP | TBT | CLS | Lighthouse total bytes |
|---|---:|---:|---:|---:|---:|---:|---:|
{chr(10).join(rows)}

Page weight of a first load (fresh Chromium context, empty cache, Chromium's own Accept-Encoding; bytes are
encoded body + response headers per request, from playwright-core; "without images" counts HTML, JS, CSS, fonts,
the API calls the page makes and the favicon): `bench/page_weight.mjs`, raw `bench/out/page-weight.json`.

| page | viewport | requests | without images | all | by type |
|---|---|---:|---:|---:|---|
{chr(10).join(wrows)}

- Home and article ≤ 150 KB compressed on first load (issue 33; 170 KB in issue 4): {ok(worst <= 150 * 1024)} (largest {kb(worst)}).
""" + ("- Misses, failing audits of the median run:\n" + "\n".join(misses) + "\n" if misses else
       "- Performance ≥ 95, accessibility ≥ 95, LCP ≤ 2.0 s on every page: met.\n")
results = pathlib.Path("bench/RESULTS.md")
results.write_text(results.read_text().rstrip("\n") + "\n" + section)
print(section)
