//! Reporting's settings (issue 21, D333). Kept apart from the handler so `state.rs` can
//! name it without importing a module that imports the state.

use std::time::Duration;

/// Default retention of report events, in days.
pub const DEFAULT_RETENTION_DAYS: u32 = 90;

#[derive(Debug, Clone)]
pub struct ReportConfig {
    /// Events older than this many days are deleted (`--report-retention-days`).
    pub retention_days: u32,
    /// Reports one address may send at once (`--report-burst`).
    pub burst: u32,
    /// Then one report per this interval per address (`--report-every-ms`).
    pub every: Duration,
    /// Bytes one address (an IPv6 /64) may store per UTC day, as counted (D366); 0: no cap
    /// (`--report-address-bytes-per-day`).
    pub address_bytes_per_day: u64,
    /// Bytes all reports may take, as counted; past it new reports are refused (D367); 0:
    /// no cap (`--report-max-bytes`).
    pub max_bytes: u64,
}

/// Default daily bytes per address: 1 MB.
pub const DEFAULT_ADDRESS_BYTES_PER_DAY: u64 = 1_000_000;
/// Default cap on all reports: 1 GB.
pub const DEFAULT_MAX_BYTES: u64 = 1_000_000_000;

impl Default for ReportConfig {
    fn default() -> Self {
        ReportConfig {
            retention_days: DEFAULT_RETENTION_DAYS,
            burst: 60,
            every: Duration::from_millis(500),
            address_bytes_per_day: DEFAULT_ADDRESS_BYTES_PER_DAY,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}
