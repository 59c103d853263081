//! Ingestion: feeds in, clean items out (DESIGN "Ingestion").
//!
//! `fetch` gets feed bytes safely (SSRF guard, timeouts, limits, conditional GET);
//! `parse` turns RSS 0.9x/1.0/2.0, Atom and JSON Feed into [`parse::RawItem`]s;
//! `clean` sanitises and normalises them into what the store keeps.

pub mod adding;
pub mod categorize;
pub mod clean;
pub mod cluster;
mod cpu_pool;
pub mod demo;
mod feed_base;
pub mod fetch;
mod media_extras;
pub mod opml;
pub mod parse;
pub mod pipeline;
pub mod place;
pub mod place_keys;
pub mod publishers;
pub mod retention;
pub mod schedule;
