"""Read bench/out/ingest-*.txt and write the Ingestion section of bench/RESULTS.md.

    python3 bench/record_ingest.py OUT_DIR CORES ITEMS

Replaces its own section if there is one, else appends it; other sections stay as they are.
"""
import datetime
import json
import pathlib
import sys

out, cores, items_target = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
HEADING = "## Ingestion (issue 3): raw parse, feedparser, whole pipeline"


def result(name):
    for line in reversed((out / name).read_text().splitlines()):
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise SystemExit(f"no RESULT line in {out / name}")


ours, clean, fp = result("ingest-parse.txt"), result("ingest-clean.txt"), result("ingest-feedparser.txt")
corpus = json.loads((out / "ingest-corpus" / "corpus.json").read_text())
load = (out / "ingest-load.txt").read_text().strip() if (out / "ingest-load.txt").exists() else "unknown"
pipeline = json.loads((out / "ingest-pipeline.txt").read_text()) if (out / "ingest-pipeline.txt").exists() else None

rate = lambda n, s: n / s if s else 0.0
mb = lambda kib: f"{kib / 1024:.1f} MB" if kib is not None else "n/a"
ours_rate = rate(ours["items"], ours["parse_s"])
clean_rate = rate(clean["items"], clean["parse_s"] + clean["clean_s"])
fp_rate = rate(fp["items"], fp["parse_s"])
# feedparser 6.0 reads no JSON Feed: compare with our rate on the same RSS and Atom files.
ours_xml_rate = rate(ours["xml_items"], ours["xml_parse_s"])
demo_items = ours["items"] - corpus["items"]
fmt = corpus["items_by_format"]
ok = lambda b: "met" if b else "NOT met"

rows = [
    f"| raw parse: `ingest::parse::parse_feed` (feed-rs + media extras) | {ours['items']:,} | {ours['parse_s']:.2f} s "
    f"| **{ours_rate:,.0f}** | {rate(ours['bytes'], ours['parse_s']) / 1e6:.1f} | {mb(ours['peak_rss_kib'])} |",
    f"| parse + clean + language + categorise + geotag (one thread, no store) | {clean['kept']:,} kept "
    f"| {clean['parse_s'] + clean['clean_s']:.2f} s | {clean_rate:,.0f} | {rate(clean['bytes'], clean['parse_s'] + clean['clean_s']) / 1e6:.1f} "
    f"| {mb(clean['peak_rss_kib'])} |",
    f"| raw parse, RSS and Atom files only (ours) | {ours['xml_items']:,} | {ours['xml_parse_s']:.2f} s "
    f"| {ours_xml_rate:,.0f} | {rate(ours['xml_bytes'], ours['xml_parse_s']) / 1e6:.1f} | |",
    f"| Python feedparser {fp['version']} (the same RSS and Atom files; it reads no JSON Feed) | {fp['items']:,} | {fp['parse_s']:.2f} s | **{fp_rate:,.0f}** "
    f"| {rate(fp['bytes'], fp['parse_s']) / 1e6:.1f} | {mb(fp['peak_rss_kib'])} |",
]
if pipeline:
    pipe_rate = rate(ours["items"], pipeline["wall_s"])
    rows.append(f"| whole pipeline: `localwire ingest --once`, fresh SQLite data dir (wall time) | {ours['items']:,} in, "
                f"{pipeline['stored']} stored | {pipeline['wall_s']:.2f} s | **{pipe_rate:,.0f}** "
                f"| {rate(ours['bytes'], pipeline['wall_s']) / 1e6:.1f} | {mb(pipeline['peak_rss_kib'])} |")
    verdicts = [
        f"- Whole pipeline / raw parse: **{pipe_rate / ours_rate:.0%}** (target ≥ 25%: {ok(pipe_rate >= 0.25 * ours_rate)}).",
        f"- Whole pipeline / feedparser: **{pipe_rate / fp_rate:.1f}×** (target ≥ 10×: {ok(pipe_rate >= 10 * fp_rate)}).",
    ]
else:
    rows.append("| whole pipeline: `localwire ingest --once` | skipped: the binary has no `ingest` command yet | | | | |")
    verdicts = [
        "- Whole pipeline / raw parse (target ≥ 25%) and / feedparser (target ≥ 10×): **not measured yet**; "
        "`bench/ingest.sh` runs it as soon as `localwire ingest --once` exists.",
        f"- Until then, the CPU stages before the store on one thread run at {clean_rate / ours_rate:.0%} of raw "
        f"parsing and {clean_rate / fp_rate:.1f}× feedparser: the ceiling the store and the threads must keep.",
    ]

per_stage = ""
if clean.get("stage_s"):
    names = ["clean (sanitise, URLs, summary, media, language)", "categorise", "geotag (incl. HTML to text)"]
    per_stage = "- Stages after parsing, items/s on one thread: " + ", ".join(
        f"{n} {rate(clean['kept'], s):,.0f}" for n, s in zip(names, clean["stage_s"])) + "."

marks = "\n".join(
    f"| {m['items']:,} | {mb(m['peak_rss_kib'])} | {mb(m['rss_kib'])} |" for m in ours["marks"])
first, last = ours["marks"][0]["peak_rss_kib"], ours["marks"][-1]["peak_rss_kib"]
flat = last is not None and first is not None and last <= first * 1.25

# The whole pipeline's memory as the store grows: bench/ingest.sh samples the ingest
# process every second ("unix_s items VmRSS_kB VmHWM_kB load1"). Flat means: past the
# first half of the corpus, the peak grows by at most 10% (the clustering window fills
# to its cap during the first part, D154).
samples = []
rss_file = out / "ingest-pipeline-rss.txt"
if pipeline and rss_file.exists():
    for line in rss_file.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[1].lstrip("-").isdigit() and int(parts[1]) > 0:
            samples.append((int(parts[1]), int(parts[2]), int(parts[3])))
pipe_memory = ""
if len(samples) >= 3:
    half = next((s for s in samples if s[0] >= corpus["items"] // 2), samples[len(samples) // 2])
    table = "\n".join(f"| {n:,} | {mb(hwm)} | {mb(rss)} |" for n, rss, hwm in samples)
    end_hwm = pipeline["peak_rss_kib"]
    pipe_flat = end_hwm <= half[2] * 1.10
    pipe_memory = f"""
Memory of the whole pipeline as the store grows (`ingest --once`, sampled every second):

| items stored | peak RSS (VmHWM) | RSS |
|---:|---:|---:|
{table}
| end ({pipeline['stored']:,}) | {mb(end_hwm)} | |

- Whole pipeline memory flat as the corpus grows: {ok(pipe_flat)} (peak at the end within 10% of the peak at
  {half[0]:,} items, the first sample past half the corpus: {mb(end_hwm)} vs {mb(half[2])}; it rises while the window
  fills to its cap, D154).
"""

section = f"""{HEADING}

Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC by `bench/ingest.sh` on {cores} cores, shared
(load average at the start: {load}). Corpus: the demo feeds ({demo_items} items) plus {corpus['items']:,} generated
items in {corpus['files']} files, {corpus['bytes'] / 1e6:.0f} MB (`bench/make_feed_corpus.py`, seed {corpus['seed']};
items by format RSS 2.0 {fmt['rss']:,} / Atom {fmt['atom']:,} / JSON Feed {fmt['json']:,}; en/es/fr, HTML bodies
with figures). One file at a time on one thread; parser rows count only the time inside the parser (reading the
files took {ours['read_s']:.2f} s more). Raw output: `bench/out/ingest-*.txt`.

| what | items | time | items/s | MB/s | peak RSS |
|---|---:|---:|---:|---:|---:|
{chr(10).join(rows)}

- Raw parse / feedparser on the same RSS and Atom files: **{ours_xml_rate / fp_rate:.1f}×**.
{chr(10).join(verdicts)}
{per_stage}

Memory of the raw parse as the corpus grows (one file read, parsed and dropped at a time):

| items so far | peak RSS (VmHWM) | RSS |
|---:|---:|---:|
{marks}

- Memory flat as the corpus grows: {ok(flat)} (peak at the last mark within 25% of the first).
{pipe_memory}"""
results = pathlib.Path("bench/RESULTS.md")
text = results.read_text()
start = text.find(HEADING)
if start >= 0:
    end = text.find("\n## ", start + 1)
    text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
else:
    text = text.rstrip("\n") + "\n\n" + section
results.write_text(text)
print(section)
