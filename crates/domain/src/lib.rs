//! The spec's rules as plain types and pure functions. No I/O: everything here is
//! unit-tested against SPEC.md, with tests named after the checklist ids.

pub mod channel;
pub mod constants;
pub mod geo;
pub mod locale;
pub mod parse;
pub mod signing;
pub mod user;
