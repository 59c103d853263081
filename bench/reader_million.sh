#!/usr/bin/env bash
# A million stories (issue 33), part 3: a reader with 50 blocked publishers and 20 mutes
# against a reader with none, every read a new URL (bench/miss.lua), so the read cache
# never answers and the view's filter is paid each time. Serves a copy of a data dir (by
# default bench/million.sh's) with ingestion held off; the view is bench/make_view.py's
# (publishers of the read's first page among the 50 blocks, 3 of its title words among
# the mutes). wrk -t2 -c64, the two readers alternating, three runs each.
#
#   bench/reader_million.sh            # READ_DATA=… for another data dir
#
# Target (issue 33): the reader with the view within 1.25x of the reader without.
set -euo pipefail
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
export LOCALWIRE_GUEST_BURST="${LOCALWIRE_GUEST_BURST:-1000000}"
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
SOURCE="${READ_DATA:-bench/out/million-data}"
DURATION="${BENCH_DURATION:-10s}"
PORT_APP=18094
WORD=bench-word
OUT=bench/out
DATA="$OUT/reader-million-data"
WORK=$(mktemp -d)
for tool in wrk python3 sqlite3 curl; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
[ -x "$BIN" ] || { echo "build the release binary first" >&2; exit 1; }
[ -f "$SOURCE/localwire-content.sqlite" ] || { echo "no $SOURCE: run bench/million.sh first" >&2; exit 1; }
cleanup() { [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

rm -rf "$DATA"; mkdir -p "$DATA"
for f in localwire.sqlite localwire-content.sqlite localwire-reports.sqlite; do
  [ -f "$SOURCE/$f" ] && sqlite3 "$SOURCE/$f" ".backup '$DATA/$f'"
done
DB="$DATA/localwire-content.sqlite"
sqlite3 "$DB" "UPDATE feeds SET next_due = 9000000000000, paused = 0;"
BIG=$(sqlite3 "$DB" "SELECT substr(place, 3) FROM news_places WHERE place LIKE 'c:%' GROUP BY place ORDER BY count(*) DESC LIMIT 1")
ITEMS=$(sqlite3 "$DB" "SELECT count(*) FROM news_items")

"$BIN" serve --addr "127.0.0.1:$PORT_APP" --data-dir "$DATA" --log warn --sign-word "$WORD" >"$OUT/reader-million-app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.1; done
python3 bench/make_reader_requests.py "http://127.0.0.1:$PORT_APP" "$WORD" 2 "$WORK/readers.tsv"
IFS=$'\t' read -r _ PLAIN_TOKEN < <(sed -n 1p "$WORK/readers.tsv")
IFS=$'\t' read -r VIEW_DEVICE VIEW_TOKEN < <(sed -n 2p "$WORK/readers.tsv")
LOCAL="/api/news/feed?channel=local&city_id=$BIG"
python3 bench/make_view.py "http://127.0.0.1:$PORT_APP" "$WORD" "$VIEW_DEVICE" "$VIEW_TOKEN" "$LOCAL"

rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1 == "99%" {print $2}' "$1"; }
{
  echo "A reader with 50 blocks and 20 mutes against one with none, $ITEMS stories, SQLite"
  echo "($(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores, bench/reader_million.sh): wrk -t2 -c64 -d$DURATION, br, every"
  echo "request a new URL; the readers alternate, three runs each."
  echo
  echo "| read | run | none req/s | none p99 | view req/s | view p99 | none / view |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
} >"$OUT/reader-million.md"
for read in "latest /api/news/feed?channel=latest&lang=en&country=US" "local-big $LOCAL"; do
  read -r name path <<<"$read"
  for run in 1 2 3; do
    for who in plain view; do
      token=$PLAIN_TOKEN; [ "$who" = view ] && token=$VIEW_TOKEN
      wrk -t2 -c64 -d"$DURATION" --latency -s bench/miss.lua -H "token: $token" -H "Accept-Encoding: br" \
        "http://127.0.0.1:$PORT_APP$path" >"$OUT/reader-million-$name-$who-$run.txt"
    done
    plain="$OUT/reader-million-$name-plain-$run.txt" view="$OUT/reader-million-$name-view-$run.txt"
    python3 -c 'import sys; a, b = float(sys.argv[3]), float(sys.argv[5]); print(f"| {sys.argv[1]} | {sys.argv[2]} | {a:,.0f} | {sys.argv[4]} | {b:,.0f} | {sys.argv[6]} | {a / b:.2f}x |")' \
      "$name" "$run" "$(rps "$plain")" "$(p99 "$plain")" "$(rps "$view")" "$(p99 "$view")" >>"$OUT/reader-million.md"
    tail -n 1 "$OUT/reader-million.md"
  done
done
cat "$OUT/reader-million.md"
