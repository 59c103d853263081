#!/usr/bin/env bash
# Accounts benchmark (issue 17): signed-in POST /api/user/info at 64 connections on SQLite,
# beside guest init in the same run. 64 readers sign in through the real browser flow
# against the loopback providers (the fake-providers binary), then wrk replays pre-signed
# user/info calls carrying their tokens. Writes bench/out/accounts-*.txt and the
# "Accounts" section of bench/RESULTS.md.
#
#   bench/accounts.sh   # needs wrk; the release localwire and fake-providers binaries
#
# Target: signed-in user/info p99 <= 5 ms at 64 connections on SQLite.
set -euo pipefail
# Load comes from one address: the per-address call limit (D357) stays on, set above
# anything wrk sends, so what it costs is in the numbers.
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
FAKE="${FAKE_PROVIDERS_BIN:-$CARGO_TARGET_DIR/release/fake-providers}"
DURATION="${BENCH_DURATION:-10s}"
CONNS=64
THREADS=2
PORT_APP=18090
WORD=bench-word
OUT=bench/out
WORK=$(mktemp -d)
mkdir -p "$OUT"
for tool in wrk python3 curl; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
[ -x "$BIN" ] && [ -x "$FAKE" ] || { echo "build first: cargo build --release --bin localwire --bin fake-providers" >&2; exit 1; }

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -n "${FAKE_PID:-}" ] && kill "$FAKE_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"$FAKE" --port 0 >"$WORK/fake.json" &
FAKE_PID=$!
for _ in $(seq 50); do [ -s "$WORK/fake.json" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$WORK/fake.json" "$1"; }
"$BIN" serve --addr "127.0.0.1:$PORT_APP" --data-dir "$WORK/data" --log warn --sign-word "$WORD" --forwarded-for \
  --public-url "http://127.0.0.1:$PORT_APP" \
  --google-client-id "$(field google_client_id)" --google-client-secret "$(field google_client_secret)" \
  --google-issuer "$(field google_issuer)" >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && break; sleep 0.1; done

python3 bench/sign_in_accounts.py "http://127.0.0.1:$PORT_APP" "$(field control_url)" "$WORD" 64 "$WORK/readers.tsv"
echo "signed in $(wc -l <"$WORK/readers.tsv") readers; wrk: $THREADS threads, $CONNS connections, $DURATION each"
for run in 1 2 3; do
  python3 bench/sign_in_accounts.py --requests "$WORK/readers.tsv" "$WORD" /user/info 600000 "$WORK/info.tsv"
  wrk -t$THREADS -c$CONNS -d"$DURATION" --latency -s bench/signed.lua "http://127.0.0.1:$PORT_APP" \
    -- /user/info "$WORK/info.tsv" $THREADS >"$OUT/accounts-info-$run.txt"
  python3 bench/make_init_requests.py 500000 "$WORD" "$WORK/init.tsv"
  wrk -t$THREADS -c$CONNS -d"$DURATION" --latency -s bench/init.lua "http://127.0.0.1:$PORT_APP" \
    -- "$WORK/init.tsv" $THREADS >"$OUT/accounts-init-$run.txt"
done
python3 bench/record_accounts.py "$OUT" "$(nproc)" "$DURATION" "$CONNS"
