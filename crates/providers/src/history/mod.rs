//! Today in history: Wikipedia's on-this-day feed for the reader's local date and language,
//! entries about their city, state or province first (D290–D292).
//!
//! [`wiki`] reads the feed's format, [`source`] fetches and keeps days (or gives the demo
//! ones), [`place`] knows what counts as local, [`answer`] makes the reader's answer and
//! [`kept`] keeps the answers made.

pub mod answer;
pub mod kept;
pub mod place;
pub mod source;
pub mod wiki;
