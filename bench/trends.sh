#!/usr/bin/env bash
# Issue 20's trends budget (D301): phrases and trends over 100 000 stories in <= 2 s, and
# the incremental step. Prints one line for bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -p trends --test trends_bench -- --ignored --nocapture 2>&1 | grep -E "^trends:|test result|panicked"
