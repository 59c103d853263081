"""Parse bench/out/read-*.txt (wrk) and append a "Read API" section to bench/RESULTS.md
(other sections are left as they are).

    python3 bench/record_reading.py OUT_DIR PEAK_KB CORES DURATION CONNS ITEMS PAGE_SIZE
"""
import datetime
import pathlib
import re
import sys

out = pathlib.Path(sys.argv[1])
peak_kb, cores, duration, conns, items, page_size = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), sys.argv[7]


def parse(name):
    text = (out / f"read-{name}.txt").read_text()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))

    def ms(label):
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return {"rps": rps, "p50": ms("50"), "p99": ms("99"), "non2xx": int(errors.group(1)) if errors else 0}


endpoints = [l.split() for l in (out / "read-endpoints.txt").read_text().splitlines() if l.strip()]
loads = {l.split()[0]: l.split()[1:] for l in (out / "read-load.txt").read_text().splitlines() if l.strip()}
load1 = [float(v[0]) for v in loads.values()]
ok = lambda b: "met" if b else "NOT met"
rows, verdicts = [], []
for enc in ("identity", "gzip"):
    for name, path, n, size, gz in endpoints:
        app, ngx = parse(f"{name}-{enc}-app"), parse(f"{name}-{enc}-nginx")
        bytes_ = size.split("=")[1] if enc == "identity" else gz.split("=")[1]
        rows.append(f"| `{path}` | {enc} | {n.split('=')[1]} / {int(bytes_):,} B | {app['rps']:,.0f} | {app['p50']:.2f} ms "
                    f"| **{app['p99']:.2f} ms** | {app['non2xx']} | {ngx['rps']:,.0f} | {ngx['p50']:.2f} ms | {ngx['p99']:.2f} ms "
                    f"| {(app['rps'] / ngx['rps'] if ngx['rps'] else 0):.0%} | {loads.get(f'{name}-{enc}-app', ['?'])[0]} |")
        verdicts.append((name, enc, app["p99"], app["non2xx"]))

miss_rows = []
for name, path, n, size, gz in endpoints:
    if (out / f"read-{name}-miss-app.txt").exists():
        m, hit = parse(f"{name}-miss-app"), parse(f"{name}-identity-app")
        miss_rows.append(f"| `{path}` | {m['rps']:,.0f} | {m['p50']:.2f} ms | {m['p99']:.2f} ms | {m['non2xx']} "
                         f"| {hit['rps']:,.0f} | {hit['p99']:.2f} ms | {loads.get(f'{name}-miss-app', ['?'])[0]} |")
miss_table = ("""
Every request a new URL (`bench/miss.lua` adds an ignored `nocache` parameter), so the read cache (D140) never
answers and each answer is made from SQLite; identity encoding; beside the cached run of the table above:

| endpoint | miss req/s | miss p50 | miss p99 | non-2xx | cached req/s | cached p99 | load |
|---|---:|---:|---:|---:|---:|---:|---:|
""" + "\n".join(miss_rows) + "\n") if miss_rows else ""

before_rows = []
for name, path, n, size, gz in endpoints:
    f = out / f"read-{name}-identity-before.txt"
    if f.exists():
        b, a = parse(f"{name}-identity-before"), parse(f"{name}-identity-app")
        before_rows.append(f"| `{path}` | {b['rps']:,.0f} | {b['p50']:.2f} ms | {b['p99']:.2f} ms | {a['rps']:,.0f} | {a['p50']:.2f} ms "
                           f"| {a['p99']:.2f} ms | {(a['rps'] / b['rps'] if b['rps'] else float('inf')):.1f}× |")
same = (out / "read-before-same.txt").read_text().split() if (out / "read-before-same.txt").exists() else []
before_table = ("""
The same run, the build before this change (`HEAD` binary) against this one, identity encoding, same data dir
(responses byte-identical: """ + ("yes" if before_rows and "DIFFERENT" not in same else "NO, see bench/out/read-before-same.txt") + """):

| endpoint | before req/s | before p50 | before p99 | after req/s | after p50 | after p99 | throughput |
|---|---:|---:|---:|---:|---:|---:|---:|
""" + "\n".join(before_rows) + "\n") if before_rows else ""

misses = [f"{n} ({e}) {p:.2f} ms" for n, e, p, x in verdicts if p > 10 or x]
section = f"""
## Read API (issue 4): feed and search over {items:,} items, beside nginx ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)

Run by `bench/reading.sh` on {cores} cores (load average 1 min at the start of each wrk run:
{min(load1):.2f}–{max(load1):.2f}); wrk -t2 -c{conns} -d{duration} per row, the same
`Accept-Encoding` on both sides (identity, then gzip: ours compresses per response, nginx `gzip on` level 1).
SQLite data dir from `bench/ingest.sh` (the generated corpus + demo feeds through `localwire ingest --once`),
page size {page_size} B, copied with ingestion held off (every feed due far in the future), so wrk measures reads
only. nginx serves each response's exact bytes (fetched once with curl) as a static file, run right before ours.
Raw wrk output: `bench/out/read-*.txt`.

| endpoint | encoding | items / body | req/s | p50 | p99 | non-2xx | nginx req/s | nginx p50 | nginx p99 | ours / nginx | load |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
{chr(10).join(rows)}

- Feed and search p99 ≤ 10 ms at {conns} connections: {ok(not misses)}{' (misses: ' + ', '.join(misses) + ')' if misses else ''}.
- Server peak RSS (VmHWM) over the run: {peak_kb / 1024:.1f} MB.
{miss_table}{before_table}"""
results = pathlib.Path("bench/RESULTS.md")
results.write_text(results.read_text().rstrip("\n") + "\n" + section)
print(section)
