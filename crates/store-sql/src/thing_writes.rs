//! The writes a reader makes most (saves, reads, reactions) as data: one SQL each, run in
//! groups by SQLite's things writer (D275) and at once on PostgreSQL (`crate::things`).

/// A save, read or reaction of a reader: the writes a reader makes most, as data, so
/// SQLite can group them (D275).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ThingWrite {
    Save {
        user: i64,
        news: i64,
        at_ms: i64,
    },
    Unsave {
        user: i64,
        news: i64,
    },
    /// Once per story per UTC day.
    Read {
        user: i64,
        news: i64,
        day: i64,
        at_ms: i64,
    },
    React {
        user: i64,
        news: i64,
        reaction: &'static str,
        at_ms: i64,
    },
    Unreact {
        user: i64,
        news: i64,
    },
}

/// One value a [`ThingWrite`] binds.
pub(crate) enum Value {
    Int(i64),
    Text(&'static str),
}

impl ThingWrite {
    /// The statement, with its parameters `$1`, `$2`… in the order of [`ThingWrite::values`]
    /// (both engines number `$n` by position).
    pub(crate) fn sql(&self) -> &'static str {
        match self {
            ThingWrite::Save { .. } => {
                "INSERT INTO saved_news (user_id, news_id, saved_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
            }
            ThingWrite::Unsave { .. } => "DELETE FROM saved_news WHERE user_id = $1 AND news_id = $2",
            ThingWrite::Read { .. } => {
                "INSERT INTO read_history (user_id, news_id, day, read_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT DO NOTHING"
            }
            ThingWrite::React { .. } => {
                "INSERT INTO reactions (user_id, news_id, reaction, reacted_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (user_id, news_id) DO UPDATE SET reaction = excluded.reaction, \
                 reacted_at = excluded.reacted_at WHERE reactions.reaction <> excluded.reaction"
            }
            ThingWrite::Unreact { .. } => "DELETE FROM reactions WHERE user_id = $1 AND news_id = $2",
        }
    }

    pub(crate) fn values(&self) -> Vec<Value> {
        use Value::{Int, Text};
        match *self {
            ThingWrite::Save { user, news, at_ms } => vec![Int(user), Int(news), Int(at_ms)],
            ThingWrite::Unsave { user, news } | ThingWrite::Unreact { user, news } => vec![Int(user), Int(news)],
            ThingWrite::Read { user, news, day, at_ms } => vec![Int(user), Int(news), Int(day), Int(at_ms)],
            ThingWrite::React {
                user,
                news,
                reaction,
                at_ms,
            } => vec![Int(user), Int(news), Text(reaction), Int(at_ms)],
        }
    }
}
