#!/usr/bin/env bash
# Issue 19's budget: one breaking story fanned out to 100 000 Web Push subscriptions on a
# loopback push service (VAPID checked, every message decrypted) in <= 60 s on 2 cores,
# with the CPU per push. Prints one line for bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -p api --test push_bench -- --ignored --nocapture 2>&1 | grep -E "^notify:|test result|panicked"
