#!/usr/bin/env bash
# Ingestion benchmark (issue 3): the demo corpus plus a generated 100 000-item corpus of
# local feed files, through
#   1. our raw feed parser (crates/ingest/examples/parse_bench.rs, one file at a time, peak
#      RSS recorded at 10k/50k/100k items to show memory stays flat),
#   2. the CPU stages after parsing (clean, language, categorise, geotag; no store),
#   3. Python's feedparser on the same files (installed from PyPI into a venv here),
#   4. the whole pipeline, `localwire ingest --once` into a fresh SQLite data dir
#      (skipped, with a message, while the binary has no `ingest` command).
# Writes bench/out/ingest-*.txt and the "Ingestion" section of bench/RESULTS.md.
#
#   bench/ingest.sh                 # BENCH_ITEMS=20000 bench/ingest.sh for a quick run
#
# Targets (issue 3): whole pipeline >= 25% of raw parsing and >= 10x feedparser, in items/s;
# memory flat as the corpus grows.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
ITEMS="${BENCH_ITEMS:-100000}"
OUT=bench/out
CORPUS="$OUT/ingest-corpus"          # bench/out/ is ignored by git
VENV="$OUT/venv-feedparser"
DEMO=data/demo/feeds
MARKS="$((ITEMS / 10)),$((ITEMS / 2)),$ITEMS"
mkdir -p "$OUT"
cut -d' ' -f1-3 /proc/loadavg >"$OUT/ingest-load.txt" 2>/dev/null || echo "unknown" >"$OUT/ingest-load.txt"
command -v python3 >/dev/null || { echo "bench needs python3" >&2; exit 1; }

# Runs a command, printing its output to a file and its wall time and peak RSS (KiB,
# the child's VmHWM via getrusage) to stdout as "wall_s peak_kib exit_code".
measured() { # out-file, then the command
  local out=$1; shift
  python3 - "$out" "$@" <<'PY'
import resource, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
started = time.perf_counter()
with open(out, "w") as f:
    code = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
wall = time.perf_counter() - started
print(f"{wall:.3f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} {code}")
PY
}

echo "== corpus: $ITEMS generated items + the demo feeds"
if [ ! -f "$CORPUS/corpus.json" ] || [ bench/make_feed_corpus.py -nt "$CORPUS/corpus.json" ] \
   || ! grep -q "\"items\": $ITEMS," "$CORPUS/corpus.json"; then
  python3 bench/make_feed_corpus.py "$CORPUS" --items "$ITEMS"
else
  echo "reusing $CORPUS ($(tr -d '\n' <"$CORPUS/corpus.json"))"
fi

echo "== build the parse bench"
cargo build --release -p ingest --example parse_bench
PARSE_BENCH="$CARGO_TARGET_DIR/release/examples/parse_bench"

echo "== raw parse (ours)"
"$PARSE_BENCH" --marks "$MARKS" "$DEMO" "$CORPUS/feeds" | tee "$OUT/ingest-parse.txt"

echo "== parse + clean + language + categorise + geotag (ours, no store)"
"$PARSE_BENCH" --clean --marks "$MARKS" "$DEMO" "$CORPUS/feeds" | tee "$OUT/ingest-clean.txt"

echo "== feedparser (PyPI, in $VENV)"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check 'feedparser~=6.0'
"$VENV/bin/python" bench/feedparser_bench.py "$DEMO" "$CORPUS/feeds" | tee "$OUT/ingest-feedparser.txt"

# ---------------------------------------------------------------------------------------
# HOOK: the whole pipeline. `localwire ingest --once` over the same files into a fresh
# SQLite data dir. The commands below are what the pipeline is expected to take (import
# the OPML files, then one pass over every due feed); adjust them here when the CLI lands.
# Until `localwire ingest` exists this step is skipped and RESULTS.md says so.
# ---------------------------------------------------------------------------------------
echo "== whole pipeline: localwire ingest --once"
rm -f "$OUT/ingest-pipeline.txt" "$OUT/ingest-pipeline.skipped"
if [ -x "$BIN" ] && "$BIN" ingest --help >/dev/null 2>&1; then
  # Kept under bench/out/ (ignored): bench/reading.sh reads this data dir afterwards.
  DATA="$OUT/ingest-data"
  rm -rf "$DATA"; mkdir -p "$DATA"
  "$BIN" --log warn import-opml --data-dir "$DATA" data/demo/publishers.opml
  "$BIN" --log warn import-opml --data-dir "$DATA" "$CORPUS/corpus.opml"
  # Memory as the store grows: every second, "unix_s items VmRSS_kB VmHWM_kB load1" of the
  # ingest process (bench/out/ingest-pipeline-rss.txt; RESULTS.md quotes 10k/50k/100k).
  : >"$OUT/ingest-pipeline-rss.txt"
  ( sleep 1
    while pid=$(pgrep -n -f "ingest --once --data-dir $DATA") && [ -n "$pid" ]; do
      # max(news_id), not count(*): ids are sequential, and a count reads the whole table,
      # which slowed the run it measures (a reader holding the WAL for seconds).
      n=$(sqlite3 -readonly "$DATA/localwire-content.sqlite" "SELECT max(news_id) FROM news_items" 2>/dev/null || echo -1)
      echo "$(date +%s) $n $(awk '/VmRSS/ {print $2}' "/proc/$pid/status") $(awk '/VmHWM/ {print $2}' "/proc/$pid/status")" \
        "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/ingest-pipeline-rss.txt"
      sleep 1
    done ) &
  read -r WALL PEAK CODE < <(measured "$OUT/ingest-pipeline.log" \
    "$BIN" --log warn ingest --once --data-dir "$DATA")
  wait
  STORED=$("$BIN" --log warn feeds list --json --data-dir "$DATA" \
    | python3 -c 'import json,sys; print(sum(json.loads(l)["items"] for l in sys.stdin))')
  printf '{"wall_s": %s, "peak_rss_kib": %s, "exit": %s, "stored": %s}\n' "$WALL" "$PEAK" "$CODE" "$STORED" \
    | tee "$OUT/ingest-pipeline.txt"
  [ "$CODE" = 0 ] || { echo "localwire ingest --once failed; see $OUT/ingest-pipeline.log" >&2; exit 1; }
else
  echo "SKIPPED: $BIN has no \`ingest\` command yet (the pipeline is being built);" \
       "raw parse and feedparser numbers are still recorded." | tee "$OUT/ingest-pipeline.skipped"
fi

python3 bench/record_ingest.py "$OUT" "$(nproc)" "$ITEMS"
