#!/usr/bin/env bash
# A million stories (issue 33), part 1: ingestion. Generates a year of a busy region's news
# (bench/make_feed_corpus.py: en/es/fr, the corpus's US and Canadian cities, ~8,000
# publishers, a fifth of the stories retold by a second newsroom so they cluster, HTML
# bodies), then ingests it into a fresh SQLite data dir in three stages (up to 100k, 500k
# and 1M stories; the feeds of earlier stages are paused, so each stage reads only its
# own), recording for each stage items/s, peak RSS and the database's size per story,
# and our raw parser's items/s over the same files for the ratio. By default each stage is
# the next stretch of the year (MILLION_STAGE_BY=time, D444), as a region's news piles up;
# MILLION_STAGE_BY=publisher adds whole publishers with their whole year instead (the
# worst case: every story lands among old ones, in every index).
# MILLION_CORPUS, MILLION_DATA and MILLION_REPORT move the corpus, data dir and report.
# Writes bench/out/million-ingest.txt; the data dir (bench/out/million-data) is what
# bench/reading.sh measures reads on (READ_DATA=bench/out/million-data).
#
#   bench/million.sh                          # MILLION_ITEMS=200000 for a quick run
#
# Targets (issue 33): items/s and RSS of the three stages within 20% of each other;
# the whole pipeline at >= 40% of raw parsing.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
ITEMS="${MILLION_ITEMS:-1000000}"
STAGES="${MILLION_STAGES:-$((ITEMS / 10)),$((ITEMS / 2))}"
# time: each stage is the next stretch of the year (news piling up as it is written, D444);
# publisher: each stage adds publishers with their whole year (a backfill among old stories).
STAGE_BY="${MILLION_STAGE_BY:-time}"
OUT=bench/out
CORPUS="${MILLION_CORPUS:-$OUT/million-corpus}"
DATA="${MILLION_DATA:-$OUT/million-data}"
REPORT="${MILLION_REPORT:-$OUT/million-ingest.txt}"
for tool in python3 sqlite3; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
[ -x /usr/bin/time ] || { echo "bench needs GNU time (/usr/bin/time)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "build first: cargo build --release --bin localwire" >&2; exit 1; }
mkdir -p "$OUT"

want="\"items\": $ITEMS,"
if ! grep -q "$want" "$CORPUS/corpus.json" 2>/dev/null || ! grep -q "\"stage_by\": \"$STAGE_BY\"" "$CORPUS/corpus.json" \
  || [ bench/make_feed_corpus.py -nt "$CORPUS/corpus.json" ]; then
  echo "== generating $ITEMS stories into $CORPUS"
  python3 bench/make_feed_corpus.py "$CORPUS" --items "$ITEMS" --end now --span-days 365 --retell 0.2 \
    --stages "$STAGES" --stage-by "$STAGE_BY"
fi

# Runs a command; prints "wall_s peak_kib peak_anon_kib" and keeps its output in a log.
# GNU time's peak RSS counts the pages of the database file the process has mapped (the
# readers map it, D434): the OS's page cache, which it takes back when memory is short.
# The peak of RssAnon, sampled every 0.2 s, is the memory the process itself holds.
measured() { # log, then the command
  local log=$1; shift
  /usr/bin/time -f '%e %M' -o "$log.time" "$@" >"$log" 2>&1 &
  local timer=$! anon=0 child kib
  while kill -0 "$timer" 2>/dev/null; do
    child=$(pgrep -n -P "$timer" || true)
    kib=$( [ -n "$child" ] && awk '/^RssAnon:/ {print $2}' "/proc/$child/status" 2>/dev/null || true)
    [ "${kib:-0}" -gt "$anon" ] && anon=$kib
    sleep 0.2
  done
  wait "$timer"
  echo "$(cat "$log.time") $anon"
}

rm -rf "$DATA"; mkdir -p "$DATA"
{
  echo "# bench/million.sh $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# corpus: $(cat "$CORPUS/corpus.json" | tr -d '\n ')"
  echo "stage stories_total new_stories wall_s items_per_s peak_rss_mb peak_anon_mb db_mb bytes_per_story import_s"
} >"$REPORT"
stage=1
for opml in "$CORPUS"/stage-*.opml; do
  # Earlier stages' feeds are paused, so this stage's round reads only its own.
  [ "$stage" = 1 ] || sqlite3 "$DATA/localwire-content.sqlite" "UPDATE feeds SET paused = 1;"
  read -r import_s _ < <(measured "$OUT/million-import-$stage.log" "$BIN" --log warn import-opml --data-dir "$DATA" "$opml")
  before=$( [ "$stage" = 1 ] && echo 0 || sqlite3 "$DATA/localwire-content.sqlite" "SELECT count(*) FROM news_items")
  read -r wall peak anon < <(measured "$OUT/million-ingest-$stage.log" "$BIN" --log warn ingest --once --data-dir "$DATA")
  total=$(sqlite3 "$DATA/localwire-content.sqlite" "SELECT count(*) FROM news_items")
  bytes=$(du -cb "$DATA"/*.sqlite* | tail -1 | cut -f1)
  python3 - "$stage" "$total" "$before" "$wall" "$peak" "$anon" "$bytes" "$import_s" >>"$REPORT" <<'PY'
import sys
stage, total, before, wall, peak, anon, size, imp = sys.argv[1:]
new = int(total) - int(before)
print(stage, total, new, wall, round(new / float(wall)), round(int(peak) / 1024), round(int(anon) / 1024),
      round(int(size) / 1e6), round(int(size) / int(total)), imp)
PY
  tail -n 1 "$REPORT"
  stage=$((stage + 1))
done
sqlite3 "$DATA/localwire-content.sqlite" "UPDATE feeds SET paused = 0, next_due = 9000000000000;"
{
  echo "# clusters: $(sqlite3 "$DATA/localwire-content.sqlite" \
    "SELECT count(*) || ' stories, ' || sum(size > 1) || ' told by several items, largest ' || max(size) FROM story_clusters")"
  echo "# files: $(du -b "$DATA"/*.sqlite | awk '{printf "%s %d MB; ", $2, $1 / 1e6}')"
} >>"$REPORT"

echo "== raw parse (ours) over the same files"
cargo build --release --locked -p ingest --example parse_bench >/dev/null 2>&1
"$CARGO_TARGET_DIR/release/examples/parse_bench" "$CORPUS/feeds" | tee "$OUT/million-parse.txt"
echo "# raw parse: $(tail -n 1 "$OUT/million-parse.txt")" >>"$REPORT"
cat "$REPORT"
