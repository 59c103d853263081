//! Notifications by Web Push (issue 19): the cryptography (`crypto`), which endpoints we
//! send to (`endpoint`), this server's key and one delivery (`service`), the HTTP calls
//! (`api`) and the notifier `serve` runs (`notifier`).

pub mod api;
pub mod crypto;
pub mod endpoint;
pub mod notifier;
pub mod service;
