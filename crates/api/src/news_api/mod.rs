//! The read API (docs/api-reading.md; issues 3 and 4): news feeds by channel, news and
//! publisher detail, categories, news and publisher search. Public GET calls, cacheable
//! (ETag + Cache-Control). Each call is a thin handler over a plain function of the query
//! parameters, which the pages call too for their inline payload (D101).
//!
//! One module per job (D225): [`feeds`] (the channels, with [`local`] widening), [`detail`],
//! [`media`], [`categories`], [`search`]; what they share: [`params`] (query parsing),
//! [`paging`], [`feed_page`] (the feed's answer), [`cached`] (the read cache).

pub mod cached;
pub mod categories;
pub mod detail;
pub mod feed_page;
pub mod feeds;
pub mod local;
pub mod media;
pub mod paging;
pub mod params;
pub mod personal;
pub mod search;
pub mod trends;
