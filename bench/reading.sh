#!/usr/bin/env bash
# Read API benchmark (issue 4): wrk load on the feed and search endpoints of the release
# binary over a SQLite data dir of >= 100 000 ingested items, beside nginx serving the
# same JSON bytes as static files, in the same run. Writes bench/out/read-*.txt and appends
# a "Read API" section to bench/RESULTS.md (bench/record_reading.py).
#
#   bench/reading.sh        # after bench/ingest.sh (its data dir bench/out/ingest-data)
#   READ_BEFORE_BIN=/path/to/old/localwire bench/reading.sh   # also an older build, same run
#
# The data dir is copied to bench/out/reading-data and every feed's next fetch is put far
# in the future there, so `serve` ingests nothing while wrk runs (reads only).
# Targets: feed and search p99 <= 10 ms at 64 connections; throughput recorded beside nginx.
# A last pass gives every request a new URL, so the read cache (D140) never answers.
set -euo pipefail
# Load comes from one address: the per-address call limit (D357) stays on, set above
# anything wrk sends, so what it costs is in the numbers.
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
SOURCE="${READ_DATA:-bench/out/ingest-data}"
DURATION="${BENCH_DURATION:-15s}"
CONNS=64
THREADS=2
PORT_APP=18082
PORT_NGINX=18083
PORT_BEFORE=18084
BEFORE_BIN="${READ_BEFORE_BIN:-}"
OUT=bench/out
DATA="$OUT/reading-data"
WORK=$(mktemp -d)
chmod 755 "$WORK"  # nginx workers run unprivileged and must read the files
mkdir -p "$OUT"
for tool in wrk nginx python3 sqlite3 curl; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
[ -x "$BIN" ] || { echo "build the release binary first" >&2; exit 1; }
[ -f "$SOURCE/localwire.sqlite" ] || { echo "no $SOURCE/localwire.sqlite: run bench/ingest.sh first" >&2; exit 1; }
# Content lives in its own file beside the identity file (D157), or in the one file of a
# data dir from before the split.
CONTENT_FILE=localwire-content.sqlite
[ -f "$SOURCE/$CONTENT_FILE" ] || CONTENT_FILE=localwire.sqlite

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -n "${BEFORE_PID:-}" ] && kill "$BEFORE_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

rm -rf "$DATA"; mkdir -p "$DATA"
sqlite3 "$SOURCE/localwire.sqlite" ".backup '$DATA/localwire.sqlite'"
[ "$CONTENT_FILE" = localwire.sqlite ] || sqlite3 "$SOURCE/$CONTENT_FILE" ".backup '$DATA/$CONTENT_FILE'"
sqlite3 "$DATA/$CONTENT_FILE" "UPDATE feeds SET next_due = 9000000000000;"
ITEMS=$(sqlite3 "$DATA/$CONTENT_FILE" "SELECT count(*) FROM news_items")
PAGE_SIZE=$(sqlite3 "$DATA/$CONTENT_FILE" "PRAGMA page_size")
# The city with the most items, and a common and a rare word of the index.
CITY=$(sqlite3 "$DATA/$CONTENT_FILE" \
  "SELECT substr(place, 3) FROM news_places WHERE place LIKE 'c:%' GROUP BY place ORDER BY count(*) DESC LIMIT 1")
COMMON="${READ_COMMON:-council}"
RARE="${READ_RARE:-ferry}"
# Debian's sqlite3 (3.40) cannot read the contentless full-text table (D153: needs 3.43):
# the counts are informational, so "?" then.
count_fts() { sqlite3 "$DATA/$CONTENT_FILE" "SELECT count(*) FROM news_fts WHERE news_fts MATCH '$1'" 2>/dev/null || echo "?"; }
echo "items $ITEMS, page size $PAGE_SIZE, city $CITY ($(sqlite3 "$DATA/$CONTENT_FILE" "SELECT count(*) FROM news_places WHERE place = 'c:$CITY'") items)," \
     "'$COMMON' in $(count_fts "$COMMON") items, '$RARE' in $(count_fts "$RARE")"

"$BIN" serve --addr "127.0.0.1:$PORT_APP" --data-dir "$DATA" --log warn >"$OUT/read-app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.1; done
if [ -n "$BEFORE_BIN" ]; then
  "$BEFORE_BIN" serve --addr "127.0.0.1:$PORT_BEFORE" --data-dir "$DATA" --log warn >"$OUT/read-before.log" 2>&1 &
  BEFORE_PID=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT_BEFORE/healthz" >/dev/null && break; sleep 0.1; done
fi

# name → path; nginx serves bench/out/…/name.json for /name.
ENDPOINTS=(
  "latest /api/news/feed?channel=latest"
  "local /api/news/feed?channel=local&city_id=$CITY"
  "top /api/news/feed?channel=top"
  "search-common /api/search/news?q=$COMMON"
  "search-rare /api/search/news?q=$RARE"
)
mkdir -p "$WORK/www"
: >"$OUT/read-endpoints.txt"
for e in "${ENDPOINTS[@]}"; do
  read -r name path <<<"$e"
  curl -sf -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_APP$path" >"$WORK/www/$name.json"
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["data"]["list"]))' "$WORK/www/$name.json")
  gz=$(curl -sf -H 'Accept-Encoding: gzip' -o /dev/null -w '%{size_download}' "http://127.0.0.1:$PORT_APP$path")
  echo "$name $path items=$n bytes=$(stat -c %s "$WORK/www/$name.json") gzip_bytes=$gz" | tee -a "$OUT/read-endpoints.txt"
done
cat >"$WORK/nginx.conf" <<NGINX
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
daemon on;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  gzip on;
  gzip_types application/json;
  gzip_min_length 256;
  server {
    listen 127.0.0.1:$PORT_NGINX;
    root $WORK/www;
    default_type application/json;
    location / { try_files \$uri.json =404; }
  }
}
NGINX
nginx -c "$WORK/nginx.conf" -p "$WORK"
sleep 0.3

run_wrk() { # name, then wrk arguments
  local name=$1; shift
  echo "$name $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/read-load.txt"
  wrk -t$THREADS -c$CONNS -d"$DURATION" --latency "$@" >"$OUT/read-$name.txt"
}
: >"$OUT/read-load.txt"
rm -f "$OUT"/read-*-before.txt; : >"$OUT/read-before-same.txt"
echo "wrk: $THREADS threads, $CONNS connections, $DURATION each; nginx and localwire alternate per endpoint"
for enc in identity gzip; do
  for e in "${ENDPOINTS[@]}"; do
    read -r name path <<<"$e"
    run_wrk "$name-$enc-nginx" -H "Accept-Encoding: $enc" "http://127.0.0.1:$PORT_NGINX/$name"
    run_wrk "$name-$enc-app" -H "Accept-Encoding: $enc" "http://127.0.0.1:$PORT_APP$path"
    if [ -n "$BEFORE_BIN" ] && [ "$enc" = identity ]; then
      cmp -s <(curl -sf -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_BEFORE$path") "$WORK/www/$name.json" \
        && echo "$name same" >>"$OUT/read-before-same.txt" || echo "$name DIFFERENT" >>"$OUT/read-before-same.txt"
      run_wrk "$name-$enc-before" -H "Accept-Encoding: $enc" "http://127.0.0.1:$PORT_BEFORE$path"
    fi
    tail -n 1 "$OUT/read-load.txt"
  done
done
# The same endpoints when the read cache never answers (D140): each request a new URL.
for e in "${ENDPOINTS[@]}"; do
  read -r name path <<<"$e"
  run_wrk "$name-miss-app" -s bench/miss.lua -H "Accept-Encoding: identity" "http://127.0.0.1:$PORT_APP$path"
  tail -n 1 "$OUT/read-load.txt"
done
PEAK_KB=$(awk '/VmHWM/ {print $2}' "/proc/$APP_PID/status")

python3 bench/record_reading.py "$OUT" "$PEAK_KB" "$(nproc)" "$DURATION" "$CONNS" "$ITEMS" "$PAGE_SIZE"
