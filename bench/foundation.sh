#!/usr/bin/env bash
# Foundation benchmark (issue 2): wrk load on the release binary, beside nginx serving
# the same shell bytes as a static file, in the same run. Writes bench/out/*.txt and
# the "Foundation" section of bench/RESULTS.md.
#
#   bench/foundation.sh            # needs wrk and nginx (apt-get install wrk nginx-light)
#
# Targets: shell at >= 50% of nginx's req/s; user init p99 < 5 ms at 64 connections on
# SQLite; peak RSS < 60 MB.
set -euo pipefail
# Load comes from one address: the per-address call limit (D357) stays on, set above
# anything wrk sends, so what it costs is in the numbers.
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
DURATION="${BENCH_DURATION:-10s}"
CONNS=64
THREADS=2
PORT_APP=18080
PORT_NGINX=18081
OUT=bench/out
WORK=$(mktemp -d)
chmod 755 "$WORK"  # nginx workers run unprivileged and must read the shell file
mkdir -p "$OUT"
for tool in wrk nginx python3; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
[ -x "$BIN" ] || { echo "build the release binary first (scripts/run or cargo build --release)" >&2; exit 1; }

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# --forwarded-for: each init comes from its own network (bench/make_init_requests.py).
"$BIN" serve --addr "127.0.0.1:$PORT_APP" --data-dir "$WORK/data" --log warn --forwarded-for >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.1; done

# The same shell bytes, as a static file for nginx.
mkdir -p "$WORK/www"
curl -sf -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_APP/" >"$WORK/www/index.html"
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
  server {
    listen 127.0.0.1:$PORT_NGINX;
    root $WORK/www;
    location = / { default_type text/html; try_files /index.html =404; }
  }
}
NGINX
nginx -c "$WORK/nginx.conf" -p "$WORK"
sleep 0.3

run_wrk() { # name, then wrk arguments
  local name=$1; shift
  wrk -t$THREADS -c$CONNS -d"$DURATION" --latency "$@" >"$OUT/$name.txt"
}
echo "wrk: $THREADS threads, $CONNS connections, $DURATION each; Accept-Encoding: identity on every side"
run_wrk nginx-static -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_NGINX/"
run_wrk shell -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_APP/"
# Three runs (the machine is shared and noisy); RESULTS.md quotes the median by p99.
for run in 1 2 3; do
  python3 bench/make_init_requests.py 500000 "${LOCALWIRE_SIGN_WORD:-localwire}" "$WORK/init.tsv"
  # The server's own latency histogram around each run: wrk's p99 adds the network, wrk's
  # own scheduling and its coordinated-omission correction; this one is the server alone.
  curl -sf "http://127.0.0.1:$PORT_APP/metrics" >"$OUT/user-init-$run.metrics-before"
  run_wrk "user-init-$run" -s bench/init.lua "http://127.0.0.1:$PORT_APP" -- "$WORK/init.tsv" $THREADS
  curl -sf "http://127.0.0.1:$PORT_APP/metrics" >"$OUT/user-init-$run.metrics-after"
done
PEAK_KB=$(awk '/VmHWM/ {print $2}' "/proc/$APP_PID/status")

python3 bench/record.py "$OUT" "$PEAK_KB" "$(nproc)" "$DURATION" "$CONNS"
