#!/usr/bin/env bash
# Reader's things benchmark (issue 18): POST /api/user/news/collect and unCollect at 64
# connections on SQLite, 64 guests saving and unsaving demo stories at random. Writes
# bench/out/reader-*.txt and prints the p99s (bench/RESULTS.md "Reader's things").
#
#   bench/reader.sh     # needs wrk; the release binary
#
# Target: collect / unCollect p99 <= 10 ms at 64 connections on SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
DURATION="${BENCH_DURATION:-10s}"
PORT_APP=18091
WORD=bench-word
OUT=bench/out
WORK=$(mktemp -d)
mkdir -p "$OUT"
[ -x "$BIN" ] || { echo "build first: cargo build --release --bin localwire" >&2; exit 1; }
cleanup() { [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
"$BIN" serve --demo --addr "127.0.0.1:$PORT_APP" --data-dir "$WORK/data" --log warn --sign-word "$WORD" >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.1; done
IDS=$(curl -sf "http://127.0.0.1:$PORT_APP/api/news/feed?channel=latest&size=50" |
  python3 -c "import json,sys; print(','.join(str(n['news_id']) for n in json.load(sys.stdin)['data']['list']))")
python3 bench/make_reader_requests.py "http://127.0.0.1:$PORT_APP" "$WORD" 64 "$WORK/readers.tsv"
for run in 1 2 3; do
  for path in /user/news/collect /user/news/unCollect; do
    name="reader-$(basename $path)-$run"
    python3 bench/make_reader_requests.py --calls "$WORK/readers.tsv" "$WORD" "$path" "$IDS" 400000 "$WORK/calls.tsv"
    wrk -t2 -c64 -d"$DURATION" --latency -s bench/signed.lua "http://127.0.0.1:$PORT_APP" \
      -- "$path" "$WORK/calls.tsv" 2 >"$OUT/$name.txt"
    printf '%s: %s req/s, p99 %s, non-2xx %s\n' "$name" \
      "$(awk '/Requests\/sec/ {print $2}' "$OUT/$name.txt")" \
      "$(awk '$1 == "99%" {print $2}' "$OUT/$name.txt")" \
      "$(awk '/Non-2xx/ {print $5}' "$OUT/$name.txt")"
  done
done
