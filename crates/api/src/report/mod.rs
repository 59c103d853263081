//! What the app's usage reports (SPEC §7.15, issue 21) are kept against: a daily budget per
//! address and a cap on the whole store (`budget`, D366, D367), the operator's settings
//! (`config`), and how long they are kept (`retention`). The call itself is
//! `POST /api/report` (`report_api.rs`).

pub mod budget;
pub mod config;
pub mod retention;
