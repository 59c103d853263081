#!/usr/bin/env bash
# One renderer (issue 32 item 1, D424): what rendering the first screen with the app's own
# components costs. For each binary (LOCALWIRE_BIN, and OLD_BIN when set: compare the two
# back to back on copies of the same data) it starts `serve --demo`, then with wrk -t2 -c64:
#   - a kept page (`/latest`, the page cache answers) beside nginx serving its exact bytes;
#   - page misses: `/latest?x&nocache=…`, a new URL per request (bench/miss.lua), so every
#     request builds the page and renders its first screen (or gives up: busy or deadline);
#   - RSS after start and after the load, and how many missed pages carried a first screen.
# Identity encoding on every side. Writes bench/out/first-screen.md.
#
#   OLD_BIN=/path/to/old/localwire bench/first_screen.sh
set -euo pipefail
export LOCALWIRE_CALLS_BURST=1000000000 LOCALWIRE_CALLS_PER_SECOND=1000000000
cd "$(dirname "$0")/.."
source bench/beside_nginx.sh
: "${CARGO_TARGET_DIR:=$PWD/target}"
NEW="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
OLD="${OLD_BIN:-}"
DURATION="${BENCH_DURATION:-10s}"
THREADS=2 CONNS=64
PORT_APP=18094
PORT_NGINX=18095
OUT=bench/out
mkdir -p "$OUT"
WORK=$(mktemp -d)
chmod 755 "$WORK"
for tool in wrk nginx curl; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

rss_mb() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$APP_PID/status"; }

run() {
  local label=$1 bin=$2 data="$WORK/data-$1"
  mkdir -p "$data"
  "$bin" serve --demo --data-dir "$data" --addr "127.0.0.1:$PORT_APP" >"$WORK/app.log" 2>&1 &
  APP_PID=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.2; done
  sleep 1
  local started_rss; started_rss=$(rss_mb)
  echo "== $label ($bin)"
  beside_nginx "first-screen-$label-kept" /latest
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" && rm -f "$WORK/nginx.pid"
  wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: identity' -s bench/miss.lua \
    "http://127.0.0.1:$PORT_APP/latest?x" >"$OUT/first-screen-$label-miss.txt"
  printf 'misses: '; grep -E 'Requests/sec' "$OUT/first-screen-$label-miss.txt"; grep -E ' 99%' "$OUT/first-screen-$label-miss.txt"
  local painted=0
  for n in $(seq 20); do
    curl -s -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_APP/latest?x&probe=$n" | grep -q '<div id="root"><div class="layout">' && painted=$((painted + 1))
  done
  echo "$label: RSS after start ${started_rss} MB, after the load $(rss_mb) MB; 20 quiet misses with a first screen: $painted"
  echo "| $label | $(grep Requests/sec "$OUT/first-screen-$label-kept-app.txt" | awk '{print $2}') | $(grep Requests/sec "$OUT/first-screen-$label-kept-nginx.txt" | awk '{print $2}') | $(grep Requests/sec "$OUT/first-screen-$label-miss.txt" | awk '{print $2}') | $(grep ' 99%' "$OUT/first-screen-$label-miss.txt" | awk '{print $2}') | ${started_rss} | $(rss_mb) | $painted/20 |" >>"$WORK/table"
  kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true; APP_PID=
}

[ -n "$OLD" ] && run old "$OLD"
run new "$NEW"
{
  echo "cores: $(nproc); load at the end: $(cut -d' ' -f1-3 /proc/loadavg); $DURATION each, wrk -t$THREADS -c$CONNS, identity"
  echo
  echo "| binary | kept /latest req/s | nginx, same bytes | misses req/s | misses p99 | RSS after start (MB) | RSS after (MB) | quiet misses painted |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  cat "$WORK/table"
} | tee "$OUT/first-screen.md"
