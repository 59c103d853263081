//! The reactions a reader can give a story (issue 18): a small fixed set, shared by the
//! store (stored by name), the API (validated by name) and the web app (localised labels
//! keyed by name). A name outside the set is refused at the edge, never stored.

use serde::{Deserialize, Serialize};

/// One reaction. The stored and wire form is [`Reaction::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reaction {
    Like,
    Love,
    Insightful,
    Funny,
    Sad,
    Angry,
}

impl Reaction {
    /// Every reaction, in the order the interface shows them.
    pub const ALL: [Reaction; 6] = [
        Reaction::Like,
        Reaction::Love,
        Reaction::Insightful,
        Reaction::Funny,
        Reaction::Sad,
        Reaction::Angry,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reaction::Like => "like",
            Reaction::Love => "love",
            Reaction::Insightful => "insightful",
            Reaction::Funny => "funny",
            Reaction::Sad => "sad",
            Reaction::Angry => "angry",
        }
    }

    /// The reaction of a name, exactly as [`Reaction::as_str`] spells it; `None` outside
    /// the set (no trimming or case folding: the API says what it accepts).
    pub fn parse(name: &str) -> Option<Reaction> {
        Reaction::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// Its place in [`Reaction::ALL`] (for per-reaction counts in an array).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Reaction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaction_names_round_trip_and_nothing_outside_the_set_parses() {
        for (i, r) in Reaction::ALL.into_iter().enumerate() {
            assert_eq!(Reaction::parse(r.as_str()), Some(r));
            assert_eq!(r.index(), i);
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{}\"", r.as_str()));
        }
        for bad in ["", "Like", " like", "wow", "likes", "LOVE"] {
            assert_eq!(Reaction::parse(bad), None, "{bad:?}");
        }
    }
}
