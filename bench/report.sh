#!/usr/bin/env bash
# Usage reports (issue 21): POST /api/report with 20 events a call on SQLite (D332: a file of
# its own, group commit). The per-address limit and daily bytes are lifted for the run (wrk is
# one address); the total cap stays on (raised to 4 GB so a run does not reach it).
#
#   bench/report.sh               # needs wrk; a release binary
#
# Target: >= 20,000 events/s in batches of 20 (>= 1,000 req/s) with p99 < 20 ms at 64 connections.
set -euo pipefail
# Load comes from one address: the per-address call limit (D357) stays on, set above
# anything wrk sends, so what it costs is in the numbers.
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
DURATION="${BENCH_DURATION:-15s}"
CONNS=64
THREADS=2
PORT_APP=18096
OUT=bench/out
WORK=$(mktemp -d)
mkdir -p "$OUT"
command -v wrk >/dev/null || { echo "bench needs wrk" >&2; exit 1; }
[ -x "$BIN" ] || { echo "build the release binary first (cargo build --release -p localwire)" >&2; exit 1; }

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" serve --addr "127.0.0.1:$PORT_APP" --data-dir "$WORK/data" --log warn \
  --report-burst 1000000000 --report-every-ms 0 --report-address-bytes-per-day 0 \
  --report-max-bytes 4000000000 >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.1; done

echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
wrk -t$THREADS -c$CONNS -d5s -s bench/report.lua "http://127.0.0.1:$PORT_APP/api/report" >/dev/null
wrk -t$THREADS -c$CONNS -d"$DURATION" --latency -s bench/report.lua \
  "http://127.0.0.1:$PORT_APP/api/report" | tee "$OUT/report.txt"
RPS=$(awk '/Requests\/sec/ {print $2}' "$OUT/report.txt")
echo "events/s: $(python3 -c "print(round($RPS * 20))")"
# The same at the budgeted rate: each connection paced to one call per 64 ms (~1,000 calls/s).
REPORT_DELAY_MS=64 wrk -t$THREADS -c$CONNS -d"$DURATION" --latency -s bench/report.lua \
  "http://127.0.0.1:$PORT_APP/api/report" | tee "$OUT/report-paced.txt"
echo "stored: $(sqlite3 "$WORK/data/localwire-reports.sqlite" 'SELECT COUNT(*) FROM report_events' 2>/dev/null || echo '?') events, $(du -b "$WORK/data/localwire-reports.sqlite"* | awk '{s+=$1} END {print s}') bytes on disk"
