#!/usr/bin/env bash
# PostgreSQL bulk ingestion (issue 33): loads a bench/make_feed_corpus.py corpus into a fresh
# PostgreSQL database with each given binary in turn (import-opml, then one timed
# `ingest --once`), alternating, and prints items/s; then checks the binaries stored the
# same rows (md5 over every item's identity and full-text vector and over every place) and
# that every story's counts equal an aggregate over its items.
#
#   bench/pg_ingest.sh CORPUS_DIR BINARY...      (PG_URL=postgres://postgres@127.0.0.1:5432)
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=$1; shift
PG_URL="${PG_URL:-postgres://postgres@127.0.0.1:5432}"
ROUNDS="${ROUNDS:-1}"
for tool in psql /usr/bin/time; do command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }; done
ITEMS=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["items"])' "$CORPUS/corpus.json")
echo "# bench/pg_ingest.sh $(date -u '+%Y-%m-%dT%H:%MZ'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $ITEMS items"
echo "binary round wall_s items_per_s items digest stories wrong_stories items_without_story"
for round in $(seq "$ROUNDS"); do
  i=0
  for bin in "$@"; do
    i=$((i + 1))
    db="lw_pg_ingest_$i"
    psql "$PG_URL/postgres" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null 2>&1
    url="$PG_URL/$db"
    data=$(mktemp -d)
    "$bin" import-opml "$CORPUS/corpus.opml" --database-url "$url" --data-dir "$data" >/dev/null 2>&1
    start=$(date +%s.%N)
    "$bin" ingest --once --database-url "$url" --data-dir "$data" --log warn >/dev/null 2>&1
    end=$(date +%s.%N)
    stories=$(psql "$url" -Atqc "SELECT count(*) FROM news_items")
    # Order-free: ids, and which stories retellings join, depend on which feed's batch
    # commits first. Every story's counts must equal an aggregate over its items.
    digest=$(psql "$url" -Atqc "SELECT md5((SELECT string_agg(identity || ':' || search::text, ',' ORDER BY identity) FROM news_items)) \
      || md5((SELECT string_agg(p.place || ':' || n.identity, ',' ORDER BY p.place, n.identity) FROM news_places p JOIN news_items n USING (news_id)))")
    wrong=$(psql "$url" -Atqc "SELECT count(*) FROM story_clusters c WHERE size <> (SELECT count(*) FROM news_items n WHERE n.cluster_id = c.cluster_id) \
      OR media_count <> (SELECT count(DISTINCT media_id) FROM news_items n WHERE n.cluster_id = c.cluster_id) \
      OR lead_id <> (SELECT news_id FROM news_items n WHERE n.cluster_id = c.cluster_id ORDER BY publish_time DESC, news_id DESC LIMIT 1)")
    orphans=$(psql "$url" -Atqc "SELECT count(*) FROM news_items n WHERE NOT EXISTS (SELECT 1 FROM story_clusters c WHERE c.cluster_id = n.cluster_id)")
    clusters=$(psql "$url" -Atqc "SELECT count(*) FROM story_clusters")
    python3 -c 'import sys; b,r,s,e,n,d,c,w,o=sys.argv[1:]; t=float(e)-float(s); print(f"{b} {r} {t:.1f} {int(n)/t:.0f} {n} {d[:8]}…{d[32:40]}… {c} {w} {o}")' \
      "$(basename "$bin")" "$round" "$start" "$end" "$stories" "$digest" "$clusters" "$wrong" "$orphans"
    rm -rf "$data"
  done
done
