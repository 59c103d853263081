#!/usr/bin/env bash
# A million stories (issue 33), part 2: every read made without the read cache. Serves a
# data dir (by default bench/million.sh's) with ingestion held off, and for each read runs
# wrk -t2 -c64 twice in a row: nginx serving that read's exact bytes as a static file,
# then ours with a new URL per request (bench/miss.lua), so the read cache never answers.
# Identity encoding on both sides. Prints a table and writes bench/out/misses.md.
#
#   bench/misses.sh                         # READ_DATA=bench/out/ingest-data for the 100k corpus
#   READ_DATABASE_URL=postgres://…/db bench/misses.sh   # the same reads on a PostgreSQL database
#                                           # (loaded with `localwire ingest --once --database-url …`)
#
# Targets (issue 33): each read p99 <= 20 ms and >= 10% of nginx's throughput.
# search-near-* is a reader's search with their own city first (D426); search-lang a
# French Canadian reader's search for an English word (D430: no story passes the filters);
# search-absent a word no story holds; search-app what the app sends for a reader of the big
# city (their country, their city first).
# MISSES_ONLY=regex runs only the reads whose names match (e.g. MISSES_ONLY='^search').
set -euo pipefail
export LOCALWIRE_CALLS_BURST="${LOCALWIRE_CALLS_BURST:-1000000000}" LOCALWIRE_CALLS_PER_SECOND="${LOCALWIRE_CALLS_PER_SECOND:-1000000000}"
cd "$(dirname "$0")/.."
source bench/beside_nginx.sh
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
SOURCE="${READ_DATA:-bench/out/million-data}"
DURATION="${BENCH_DURATION:-10s}"
PORT_APP=18092
PORT_NGINX=18093
OUT=bench/out
DATA="$OUT/misses-data"
WORK=$(mktemp -d)
chmod 755 "$WORK"  # nginx workers run unprivileged and must read the files
for tool in wrk nginx python3 sqlite3 curl; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
[ -x "$BIN" ] || { echo "build the release binary first" >&2; exit 1; }
PG="${READ_DATABASE_URL:-}"
TAG="misses${PG:+-pg}"  # bench/out/misses.md, or misses-pg.md for PostgreSQL
[ -n "$PG" ] || [ -f "$SOURCE/localwire-content.sqlite" ] || { echo "no $SOURCE: run bench/million.sh first" >&2; exit 1; }
cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

rm -rf "$DATA"; mkdir -p "$DATA"
if [ -n "$PG" ]; then
  command -v psql >/dev/null || { echo "bench needs psql" >&2; exit 1; }
  q() { psql "$PG" -Atqc "$1"; }
  q "UPDATE feeds SET next_due = 9000000000000, paused = false;"
  ENGINE="PostgreSQL"
  STORE_ARGS=(--database-url "$PG")
else
  for f in localwire.sqlite localwire-content.sqlite localwire-reports.sqlite; do
    [ -f "$SOURCE/$f" ] && sqlite3 "$SOURCE/$f" ".backup '$DATA/$f'"
  done
  DB="$DATA/localwire-content.sqlite"
  sqlite3 "$DB" "UPDATE feeds SET next_due = 9000000000000, paused = 0;"
  q() { sqlite3 "$DB" "$1"; }
  ENGINE="SQLite"
  STORE_ARGS=(--data-dir "$DATA")
fi
ITEMS=$(q "SELECT count(*) FROM news_items")
# The cities with the most and the fewest stories, the commonest category, a publisher
# with a median number of stories, and the lead of the newest story several items tell.
BIG=$(q "SELECT substr(place, 3) FROM news_places WHERE place LIKE 'c:%' GROUP BY place ORDER BY count(*) DESC LIMIT 1")
SMALL=$(q "SELECT substr(place, 3) FROM news_places WHERE place LIKE 'c:%' GROUP BY place HAVING count(*) >= 20 ORDER BY count(*) LIMIT 1")
CATEGORY=$(q "SELECT category_id FROM news_items GROUP BY category_id ORDER BY count(*) DESC LIMIT 1")
MEDIA=$(q "SELECT media_id FROM (SELECT media_id, count(*) AS n FROM news_items GROUP BY media_id ORDER BY n) AS m \
  LIMIT 1 OFFSET (SELECT count(DISTINCT media_id) / 2 FROM news_items)")
STORY=$(q "SELECT lead_id FROM story_clusters WHERE size > 1 ORDER BY newest DESC LIMIT 1")
[ -n "$STORY" ] || STORY=$(q "SELECT max(news_id) FROM news_items")
COMMON="${READ_COMMON:-council}"
RARE="${READ_RARE:-saguenay}"
ABSENT="${READ_ABSENT:-quokkas}"  # a word no story of the corpus holds (a misspelling, a word of another region)
# The country the app sends with a reader's search (D102: every language of the reader's
# country), here the big city's.
BIG_COUNTRY=$(q "SELECT n.country FROM news_places p JOIN news_items n USING (news_id) WHERE p.place = 'c:$BIG' LIMIT 1")
echo "$ITEMS stories; big city $BIG ($BIG_COUNTRY), small city $SMALL, category $CATEGORY, publisher $MEDIA, story $STORY"

port_free
"$BIN" serve --addr "127.0.0.1:$PORT_APP" "${STORE_ARGS[@]}" --log warn >"$OUT/$TAG-app.log" 2>&1 &
APP_PID=$!
wait_for_app

ENDPOINTS=(
  "latest /api/news/feed?channel=latest"
  "local-big /api/news/feed?channel=local&city_id=$BIG"
  "local-small /api/news/feed?channel=local&city_id=$SMALL"
  "top /api/news/feed?channel=top"
  "category /api/news/feed?channel=category&category=$CATEGORY"
  "publisher /api/news/feed?channel=media&media_id=$MEDIA"
  "detail /api/news/detail?news_id=$STORY"
  "search-common /api/search/news?q=$COMMON"
  "search-rare /api/search/news?q=$RARE"
  "search-absent /api/search/news?q=$ABSENT"
  "search-city /api/search/news?q=$COMMON&city_id=$BIG"
  "search-city-small /api/search/news?q=$COMMON&city_id=$SMALL"
  "search-near-big /api/search/news?q=$COMMON&near_city_id=$BIG"
  "search-near-small /api/search/news?q=$COMMON&near_city_id=$SMALL"
  "search-lang /api/search/news?q=$COMMON&lang=fr&country=CA"
  "search-app /api/search/news?q=$COMMON&country=$BIG_COUNTRY&near_city_id=$BIG"
)
if [ -n "${MISSES_ONLY:-}" ]; then
  chosen=()
  for e in "${ENDPOINTS[@]}"; do [[ ${e%% *} =~ $MISSES_ONLY ]] && chosen+=("$e"); done
  ENDPOINTS=("${chosen[@]}")
fi
mkdir -p "$WORK/www"
for e in "${ENDPOINTS[@]}"; do
  read -r name path <<<"$e"
  curl -sf -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_APP$path" >"$WORK/www/$name.json"
done
static_nginx 'default_type application/json; location / { try_files $uri.json =404; }'

wrk_line() { # name, then wrk arguments: prints "req/s p99_ms non2xx"
  local name=$1; shift
  wrk -t2 -c64 -d"$DURATION" --latency "$@" >"$OUT/$TAG-$name.txt"
  python3 - "$OUT/$TAG-$name.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
v, u = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", t, re.M).groups()
p99 = float(v) / 1000 if u == "us" else float(v) * 1000 if u == "s" else float(v)
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
print(f"{rps:.0f} {p99:.2f} {bad.group(1) if bad else 0}")
PY
}
{
  echo "Reads without the read cache over $ITEMS stories on $ENGINE ($(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores, bench/misses.sh):"
  echo "wrk -t2 -c64 -d$DURATION, identity; nginx serves each answer's bytes right before ours."
  echo
  echo "| read | items / bytes | ours req/s | ours p99 | non-2xx | nginx req/s | ours / nginx | p99 <= 20 ms, >= 10% |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
} >"$OUT/$TAG.md"
# PostgreSQL goes on running a statement whose caller has gone (wrk stops, the server's
# request ends): a slow read's leftovers would load the next read's run. Wait for them.
settle() {
  [ -n "$PG" ] || return 0
  for _ in $(seq 120); do
    [ "$(q "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()")" = 0 ] && return 0
    sleep 1
  done
  echo "# $1: statements still running after 120 s, cancelled" >&2
  q "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()" >/dev/null
}
for e in "${ENDPOINTS[@]}"; do
  read -r name path <<<"$e"
  settle "$name"
  n=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]; print(len(d.get("list", [])) if isinstance(d, dict) and "list" in d else 1)' "$WORK/www/$name.json")
  read -r ng_rps _ _ < <(wrk_line "$name-nginx" -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_NGINX/$name")
  read -r rps p99 bad < <(wrk_line "$name-app" -s bench/miss.lua -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_APP$path")
  python3 - "$name" "$path" "$n" "$(stat -c %s "$WORK/www/$name.json")" "$rps" "$p99" "$bad" "$ng_rps" >>"$OUT/$TAG.md" <<'PY'
import sys
name, path, n, size, rps, p99, bad, ng = sys.argv[1:]
ratio = float(rps) / float(ng)
met = "met" if float(p99) <= 20 and ratio >= 0.10 and bad == "0" else "NOT met"
print(f"| {name} `{path}` | {n} / {int(size):,} B | {float(rps):,.0f} | {p99} ms | {bad} | {float(ng):,.0f} | {ratio:.1%} | {met} |")
PY
  tail -n 1 "$OUT/$TAG.md"
done
# Since D434 the readers map the content file: the pages they touched count in RSS (RssFile, the
# OS's file cache) beside the server's own memory (RssAnon).
echo "- Server peak RSS (VmHWM): $(awk '/VmHWM/ {printf "%.1f MB", $2 / 1024}' "/proc/$APP_PID/status"); at the end\
 $(awk '/RssAnon|RssFile/ {printf "%s %.1f MB ", $1, $2 / 1024}' "/proc/$APP_PID/status")" >>"$OUT/$TAG.md"
cat "$OUT/$TAG.md"
