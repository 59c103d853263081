"""Parse bench/accounts.sh's wrk outputs and write the Accounts section of bench/RESULTS.md."""
import datetime
import pathlib
import re
import sys

out, cores, duration, conns = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]


def parse(name):
    text = pathlib.Path(out, f"{name}.txt").read_text()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))

    def ms(label):
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return {"rps": rps, "p50": ms("50"), "p99": ms("99"), "non2xx": int(errors.group(1)) if errors else 0}


def median(prefix):
    runs = [parse(f"{prefix}-{i}") for i in (1, 2, 3)]
    return sorted(runs, key=lambda r: r["p99"])[1], runs


info, info_runs = median("accounts-info")
init, init_runs = median("accounts-init")
ok = "met" if info["p99"] <= 5 and info["non2xx"] == 0 else "NOT met"
runs = lambda rs: ", ".join(f"{r['p99']:.2f} ms at {r['rps']:,.0f} req/s" for r in rs)
section = f"""## Accounts (issue 17): signed-in user info beside guest init

Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC by `bench/accounts.sh` on {cores} cores (load
generator, server and fake providers share them); wrk -t2 -c{conns} -d{duration}, SQLite in a fresh data dir. 64
readers signed in through the browser flow (fake Google on loopback); each call is signed and carries one of their
tokens. The two kinds alternate, three runs each; the table shows the median run by p99.

| what | req/s | p50 | p99 | non-2xx |
|---|---:|---:|---:|---:|
| `POST /api/user/info`, signed-in (64 accounts) | {info['rps']:,.0f} | {info['p50']:.2f} ms | {info['p99']:.2f} ms | {info['non2xx']} |
| `POST /api/user/init`, new device each | {init['rps']:,.0f} | {init['p50']:.2f} ms | {init['p99']:.2f} ms | {init['non2xx']} |

- Signed-in user info p99 at {conns} connections: **{info['p99']:.2f} ms** (target ≤ 5 ms: {ok}). Runs: {runs(info_runs)}.
- Guest init in the same run: {runs(init_runs)}.
"""
results = pathlib.Path("bench/RESULTS.md")
text = results.read_text()
start = text.find("## Accounts (issue 17)")
if start >= 0:
    end = text.find("\n## ", start + 1)
    text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
else:
    # After the Foundation section, where guest init is.
    at = text.find("\n## ", text.find("## Foundation (issue 2)") + 1)
    text = text[:at + 1] + section + "\n" + text[at + 1:] if at >= 0 else text.rstrip("\n") + "\n\n" + section
results.write_text(text)
print(section)
