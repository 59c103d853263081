//! The one wall clock: milliseconds since the Unix epoch, the unit of every stored time
//! (SPEC §3 timestamps are milliseconds). Reading the clock is the only impure function
//! here; it lives in one place so the API and ingestion agree on it.

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
