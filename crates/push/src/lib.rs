//! Notifications by Web Push (issue 19): the cryptography (`crypto`), which endpoints we
//! send to (`endpoint`), this server's key and one delivery (`service`), and the notifier
//! `serve` runs (`notifier`). The HTTP calls a browser makes to subscribe are the API's
//! (`api::push`).

pub mod crypto;
pub mod endpoint;
pub mod notifier;
pub mod service;
