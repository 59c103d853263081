//! The spec's rules the server applies, as plain types and pure functions. No I/O:
//! everything here is unit-tested against SPEC.md, with tests named after the
//! checklist ids. Client-only rules (query parsing §5.4, acquisition channel §3.14,
//! app-cookie lifetimes) live in the web app, with its tests.

pub mod clock;
pub mod constants;
pub mod envelope;
pub mod geo;
pub mod heartbeat;
pub mod i18n;
pub mod ids;
pub mod locale;
pub mod notify;
pub mod reactions;
pub mod report;
pub mod signing;
pub mod text;
pub mod user;
