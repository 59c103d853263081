//! Ids as their own types so one cannot be passed where another is meant (CONVENTIONS:
//! "Newtypes for ids"). Each is a number in JSON and in the database: `serde(transparent)`
//! keeps the API's shapes, and the stores convert at their edge (`id.0` in, `Id(n)` out).

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }
    };
}

id_type!(
    /// A stored news item (SPEC §3 news_id).
    NewsId
);
id_type!(
    /// A publisher (SPEC §3 media_id).
    MediaId
);
id_type!(
    /// One of a publisher's feeds.
    FeedId
);
id_type!(
    /// A story cluster; 0 is "no cluster yet".
    ClusterId
);
id_type!(
    /// A user (SPEC §3.1).
    UserId
);
id_type!(
    /// A GeoNames id (SPEC §3.11 City).
    CityId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_plain_numbers_in_json() {
        assert_eq!(serde_json::to_string(&NewsId(42)).unwrap(), "42");
        assert_eq!(serde_json::from_str::<MediaId>("7").unwrap(), MediaId(7));
        assert_eq!(NewsId(5).to_string(), "5");
        assert_eq!(i64::from(FeedId(3)), 3);
    }
}
