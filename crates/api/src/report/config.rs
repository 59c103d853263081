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
}

impl Default for ReportConfig {
    fn default() -> Self {
        ReportConfig {
            retention_days: DEFAULT_RETENTION_DAYS,
            burst: 60,
            every: Duration::from_millis(500),
        }
    }
}
