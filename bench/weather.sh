#!/usr/bin/env bash
# Weather (issue 20): /api/weather from the kept forecast (D281) beside nginx serving the same
# bytes as a static file, in the same run. Open-Meteo is a loopback copy of the test fixture
# (crates/providers/tests/fixtures/open-meteo-forecast.json), so no network is needed.
#
#   bench/weather.sh               # needs wrk, nginx, python3; a release binary
#
# Target: /api/weather at >= 50% of nginx's req/s (wrk -t2 -c64, Accept-Encoding: identity).
set -euo pipefail
# Load comes from one address: the per-address call limit (D357) stays on, set above
# anything wrk sends, so what it costs is in the numbers.
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
cd "$(dirname "$0")/.."
source bench/beside_nginx.sh
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
DURATION="${BENCH_DURATION:-10s}"
CONNS=64
THREADS=2
PORT_APP=18093
PORT_NGINX=18094
PORT_FEED=18095
OUT=bench/out
WORK=$(mktemp -d)
chmod 755 "$WORK"
mkdir -p "$OUT"
for tool in wrk nginx python3; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
[ -x "$BIN" ] || { echo "build the release binary first (cargo build --release -p localwire)" >&2; exit 1; }

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -n "${FEED_PID:-}" ] && kill "$FEED_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Open-Meteo: the test fixture at /v1/forecast (the loopback server ignores the query).
mkdir -p "$WORK/feed/v1"
cp crates/providers/tests/fixtures/open-meteo-forecast.json "$WORK/feed/v1/forecast"
(cd "$WORK/feed" && exec python3 -m http.server "$PORT_FEED" --bind 127.0.0.1 >/dev/null 2>&1) &
FEED_PID=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT_FEED/v1/forecast" >/dev/null && break; sleep 0.1; done

"$BIN" serve --addr "127.0.0.1:$PORT_APP" --data-dir "$WORK/data" --log warn \
  --weather-url "http://127.0.0.1:$PORT_FEED" >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.1; done

beside_nginx weather "/api/weather?city_id=4140963&unit=F"
