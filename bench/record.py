"""Parse wrk outputs and write the Foundation section of bench/RESULTS.md."""
import datetime
import pathlib
import re
import sys

out, peak_kb, cores, duration, conns = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]


def parse(name):
    text = pathlib.Path(out, f"{name}.txt").read_text()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))

    def ms(label):
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    socket = re.search(r"Socket errors: (.*)", text)
    return {"rps": rps, "p50": ms("50"), "p99": ms("99"), "non2xx": int(errors.group(1)) if errors else 0,
            "socket": socket.group(1) if socket else "none"}


def server_histogram(run):
    """The API latency histogram's change over one init run: (p99 upper bound in ms, share over 5 ms)."""
    def buckets(suffix):
        text = pathlib.Path(out, f"user-init-{run}.metrics-{suffix}").read_text()
        found = re.findall(r'localwire_http_request_duration_seconds_bucket\{kind="api",le="([^"]+)"\} (\d+)', text)
        return [(float("inf") if le == "+Inf" else float(le), int(n)) for le, n in found]
    before, after = dict(buckets("before")), buckets("after")
    counts = [(le, n - before.get(le, 0)) for le, n in after]
    total = counts[-1][1]
    p99 = next(le for le, n in counts if n >= 0.99 * total)
    over_5ms = 1 - dict(counts)[0.005] / total
    return p99 * 1000, over_5ms


nginx, shell = parse("nginx-static"), parse("shell")
init_runs = sorted((parse(f"user-init-{i}") for i in (1, 2, 3)), key=lambda r: r["p99"])
init = init_runs[1]
ratio = shell["rps"] / nginx["rps"]
peak_mb = peak_kb / 1024
ok = lambda b: "met" if b else "NOT met"
section = f"""## Foundation (issue 2): shell and guest init

Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC by `bench/foundation.sh` on {cores} cores
(load generator and servers share them); wrk -t2 -c{conns} -d{duration}, `Accept-Encoding: identity` on every side;
SQLite in a fresh data dir. Raw wrk output: `bench/out/`.

| what | req/s | p50 | p99 | non-2xx |
|---|---:|---:|---:|---:|
| nginx, same shell bytes as a static file | {nginx['rps']:,.0f} | {nginx['p50']:.2f} ms | {nginx['p99']:.2f} ms | {nginx['non2xx']} |
| `GET /` (localwire home page, kept: D145) | {shell['rps']:,.0f} | {shell['p50']:.2f} ms | {shell['p99']:.2f} ms | {shell['non2xx']} |
| `POST /api/user/init` (signed, new device each, SQLite; median of 3 runs by p99) | {init['rps']:,.0f} | {init['p50']:.2f} ms | {init['p99']:.2f} ms | {init['non2xx']} |

- Shell throughput / nginx static: **{ratio:.0%}** (target ≥ 50%: {ok(ratio >= 0.5)}).
- User init p99 at {conns} connections: **{init['p99']:.2f} ms** (target < 5 ms: {ok(init['p99'] < 5 and init['non2xx'] == 0)}).
- User init runs, p99: {", ".join(f"{r['p99']:.2f} ms at {r['rps']:,.0f} req/s" for r in init_runs)} (the table row is the middle one).
- The same runs in the server's own histogram (`/metrics`; no network, no wrk, no coordinated-omission correction), in run order:
  p99 at most {", ".join(f"{p:g} ms ({over:.2%} over 5 ms)" for p, over in (server_histogram(i) for i in (1, 2, 3)))}.
- Server peak RSS (VmHWM) over the whole run: **{peak_mb:.1f} MB** (target < 60 MB: {ok(peak_mb < 60)}).
"""
results = pathlib.Path("bench/RESULTS.md")
text = results.read_text() if results.exists() else "# Benchmark results\n\nEach section is rewritten by its script; numbers from one run are compared only with each other.\n\n"
start = text.find("## Foundation (issue 2)")
if start >= 0:
    end = text.find("\n## ", start + 1)
    text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
else:
    text = text.rstrip("\n") + "\n\n" + section
results.write_text(text)
print(section)
