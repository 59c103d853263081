#!/usr/bin/env bash
# Soak benchmark (issue 30): ten minutes of a mixed reader workload at saturation against
# the release binary, with ingestion and the notifier running (bench/soak/). Replaces the
# "Soak (issue 30): <engine>" section of bench/RESULTS.md with the run's record and keeps
# the per-window numbers in bench/out/soak-<engine>.{csv,samples.csv,metrics,log}.
#
#   bench/soak.sh sqlite            # SOAK_MINUTES=2 bench/soak.sh sqlite for a quick look
#   bench/soak.sh postgres          # starts its own PostgreSQL cluster (initdb, pg_ctl)
#   SOAK_POSTGRES_URL=postgres://… bench/soak.sh postgres   # or soaks an existing server
#
# Targets: 0 errors other than intended 429s; RSS growth < 10% over the last 8 minutes;
# descriptors and latency flat after warm-up.
set -euo pipefail
cd "$(dirname "$0")/.."
ENGINE="${1:-sqlite}"
: "${CARGO_TARGET_DIR:=$PWD/target}"
BIN="${LOCALWIRE_BIN:-$CARGO_TARGET_DIR/release/localwire}"
[ -x "$BIN" ] || { echo "build the release binary first (cargo build --release --bin localwire)" >&2; exit 1; }
cargo build --release --locked -p soak
if [ "$ENGINE" = postgres ] && [ -z "${SOAK_POSTGRES_URL:-}" ]; then
  # A cluster of its own with PostgreSQL's defaults (autovacuum on), as an operator's
  # fresh install has: the machine's shared server may be tuned for tests (this one runs
  # with autovacuum off), and the soak must not load it (D407).
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -x "$PGBIN/initdb" ] || { echo "bench/soak.sh postgres needs PostgreSQL's server programs (initdb, pg_ctl)" >&2; exit 1; }
  PGWORK=$(mktemp -d /tmp/localwire-soak-pg.XXXXXX)
  as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  [ "$(id -u)" = 0 ] && chown postgres "$PGWORK"
  as_postgres "$PGBIN/initdb" -D "$PGWORK/data" -U postgres -A trust >/dev/null
  as_postgres "$PGBIN/pg_ctl" -D "$PGWORK/data" -l "$PGWORK/log" -w \
    -o "-p 55432 -k $PGWORK -c listen_addresses=127.0.0.1" start >/dev/null
  stop_postgres() { as_postgres "$PGBIN/pg_ctl" -D "$PGWORK/data" -m fast stop >/dev/null || true; rm -rf "$PGWORK"; }
  trap stop_postgres EXIT
  SOAK_POSTGRES_URL=postgres://postgres@127.0.0.1:55432/postgres
fi
[ -n "${SOAK_POSTGRES_URL:-}" ] && export TEST_DATABASE_URL="$SOAK_POSTGRES_URL"
mkdir -p bench/out
"$CARGO_TARGET_DIR/release/soak" --bin "$BIN" --engine "$ENGINE" --minutes "${SOAK_MINUTES:-10}" \
  --out "bench/out/soak-$ENGINE" >/dev/null
python3 - "$ENGINE" <<'PY'
import pathlib, re, sys
engine = sys.argv[1]
section = pathlib.Path(f"bench/out/soak-{engine}.md").read_text().rstrip() + "\n"
results = pathlib.Path("bench/RESULTS.md")
text = results.read_text()
title = section.splitlines()[0]
pattern = re.compile(rf"^{re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
text = pattern.sub(lambda _: section + "\n", text) if pattern.search(text) else text.rstrip() + "\n\n" + section
results.write_text(text)
print(section)
PY
