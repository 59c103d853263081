#!/usr/bin/env bash
# Reader's things benchmark (issue 18), on SQLite with the demo corpus, wrk -t2 -c64:
# 1. POST /api/user/news/collect and unCollect, 64 guests saving and unsaving demo stories
#    at random. Target: p99 <= 10 ms.
# 2. The home feed (GET /api/news/feed, local) for a reader with 50 blocked publishers and
#    20 mutes against a reader with none, in the same run, alternating (D270). Target: the
#    first at >= 80% of the second's throughput. Also made fresh each time (miss.lua) for
#    the cost of the filter itself.
# Writes bench/out/reader-*.txt and prints the numbers (bench/RESULTS.md "Reader's things").
#
#   bench/reader.sh     # needs wrk; the release binary
set -euo pipefail
# Load comes from one address: the per-address call limit (D357) stays on, set above
# anything wrk sends, so what it costs is in the numbers.
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
# The readers are made from this one address too: new guests per address (D351) likewise.
export LOCALWIRE_GUEST_BURST="${LOCALWIRE_GUEST_BURST:-1000000}"
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
report() {
  printf '%s: %s req/s, p99 %s, non-2xx %s\n' "$1" \
    "$(awk '/Requests\/sec/ {print $2}' "$OUT/$1.txt")" \
    "$(awk '$1 == "99%" {print $2}' "$OUT/$1.txt")" \
    "$(awk '/Non-2xx/ {print $5}' "$OUT/$1.txt")"
}

# 2. The home feed with and without a view. 30 more publishers (no items) so that 50 can be
# blocked; the demo has 31.
python3 - "$WORK/extra.opml" <<'PY'
import sys
rows = "".join(
    f'<outline text="Bench Extra {i}" type="rss" xmlUrl="http://bench-extra-{i}.localwire.invalid/feed.xml" '
    f'localwire:country="US" localwire:state="TX" localwire:city="Houston" localwire:lang="en"/>\n'
    for i in range(30))
open(sys.argv[1], "w").write('<?xml version="1.0"?><opml version="2.0" '
  'xmlns:localwire="https://localwire.invalid/ns/opml"><head><title>extra</title></head><body>\n'
  + rows + '</body></opml>\n')
PY
"$BIN" import-opml "$WORK/extra.opml" --data-dir "$WORK/data" >/dev/null
HOME_FEED="/api/news/feed?channel=local&city_id=4140963&size=7&lang=en&country=US"
IFS=$'\t' read -r PLAIN_DEVICE PLAIN_TOKEN < <(sed -n 1p "$WORK/readers.tsv")
IFS=$'\t' read -r VIEW_DEVICE VIEW_TOKEN < <(sed -n 2p "$WORK/readers.tsv")
python3 bench/make_view.py "http://127.0.0.1:$PORT_APP" "$WORD" "$VIEW_DEVICE" "$VIEW_TOKEN" "$HOME_FEED"
for run in 1 2 3; do
  for who in plain view; do
    token=$PLAIN_TOKEN; [ "$who" = view ] && token=$VIEW_TOKEN
    name="reader-home-$who-$run"
    wrk -t2 -c64 -d"$DURATION" --latency -H "token: $token" -H "Accept-Encoding: br" \
      "http://127.0.0.1:$PORT_APP$HOME_FEED" >"$OUT/$name.txt"
    report "$name"
    name="reader-home-miss-$who-$run"
    wrk -t2 -c64 -d"$DURATION" --latency -s bench/miss.lua -H "token: $token" -H "Accept-Encoding: br" \
      "http://127.0.0.1:$PORT_APP$HOME_FEED" >"$OUT/$name.txt"
    report "$name"
  done
done

# 1. collect / unCollect.
for run in 1 2 3; do
  for path in /user/news/collect /user/news/unCollect; do
    name="reader-$(basename $path)-$run"
    python3 bench/make_reader_requests.py --calls "$WORK/readers.tsv" "$WORD" "$path" "$IDS" 400000 "$WORK/calls.tsv"
    wrk -t2 -c64 -d"$DURATION" --latency -s bench/signed.lua "http://127.0.0.1:$PORT_APP" \
      -- "$path" "$WORK/calls.tsv" 2 >"$OUT/$name.txt"
    report "$name"
  done
done
