//! Notifications by Web Push (issue 19): the cryptography (`crypto`), this server's key and
//! one delivery (`service`), the HTTP calls (`api`) and the notifier `serve` runs
//! (`notifier`).

pub mod api;
pub mod crypto;
pub mod notifier;
pub mod service;
