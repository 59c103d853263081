#!/usr/bin/env bash
# Soak benchmark (issue 30): ten minutes of a mixed reader workload at saturation against
# the release binary, with ingestion and the notifier running (bench/soak/). Replaces the
# "Soak (issue 30): <engine>" section of bench/RESULTS.md with the run's record and keeps
# the per-window numbers in bench/out/soak-<engine>.{csv,samples.csv,metrics,log}.
#
#   bench/soak.sh sqlite            # SOAK_MINUTES=2 bench/soak.sh sqlite for a quick look
#   bench/soak.sh postgres          # needs TEST_DATABASE_URL or PostgreSQL on 127.0.0.1:5432
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
