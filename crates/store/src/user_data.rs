//! The one list of what belongs to a user. Signing in moves a guest's rows into the
//! account, "download my data" reads them and deleting an account removes them, all from
//! this list, so a feature that stores something per user registers its table here once
//! and none of the three can forget it. Every engine's contract test
//! (`every_user_table_is_registered`) compares the list with the tables in its schema
//! that have a `user_id` column, so a table added without registering fails the tests.

/// A table whose rows belong to a user through its `user_id` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserTable {
    pub table: &'static str,
    /// The columns that, beside `user_id`, make a row unique (what a second device's
    /// guest may also have: the same saved story, the same followed publisher). When a
    /// guest's row and the account's row share them, the account's is kept (D250).
    /// Empty: the table holds one list per user (an order), and an account that has a
    /// list keeps it whole; the guest's moves only when the account has none (D260).
    pub key: &'static [&'static str],
}

/// The reader's things, added by the features that store them (issues 18 and 19).
/// Merging goes in this order, and download lists them in it.
pub const USER_TABLES: &[UserTable] = &[
    UserTable {
        table: "saved_news",
        key: &["news_id"],
    },
    // One reaction per reader per story: on a clash the account's own reaction wins.
    UserTable {
        table: "reactions",
        key: &["news_id"],
    },
    UserTable {
        table: "read_history",
        key: &["news_id", "day"],
    },
    UserTable {
        table: "followed_media",
        key: &["media_id"],
    },
    UserTable {
        table: "blocked_media",
        key: &["media_id"],
    },
    UserTable {
        table: "followed_topics",
        key: &["kind", "value"],
    },
    UserTable {
        table: "home_channels",
        key: &[],
    },
    UserTable {
        table: "mutes",
        key: &["kind", "value"],
    },
    // Issue 19. An endpoint is one browser's, unique across users: the guest's moves.
    UserTable {
        table: "push_subscriptions",
        key: &["endpoint"],
    },
    // One row per reader: an account that has settings keeps them.
    UserTable {
        table: "notification_settings",
        key: &[],
    },
    UserTable {
        table: "push_sent",
        key: &["story_id"],
    },
];

/// Tables with a `user_id` that signing in handles itself rather than merging: the device
/// → guest map, sessions (the guest's end) and provider identities (a guest has none).
/// They go with the user row (ON DELETE CASCADE).
pub const IDENTITY_TABLES: &[&str] = &["devices", "identities", "sessions"];

/// SQL (for both engines, `?` placeholders; PostgreSQL's store numbers them) that moves a
/// guest's rows of one table to the account, dropping the ones the account already has.
/// The names come from [`USER_TABLES`], never from input.
pub fn merge_statements(t: &UserTable) -> [String; 2] {
    let same_key: String = t
        .key
        .iter()
        .map(|c| format!(" AND a.{c} = {table}.{c}", table = t.table))
        .collect();
    [
        format!(
            "DELETE FROM {table} WHERE user_id = ? AND EXISTS (SELECT 1 FROM {table} a WHERE a.user_id = ?{same_key})",
            table = t.table
        ),
        format!("UPDATE {table} SET user_id = ? WHERE user_id = ?", table = t.table),
    ]
}

/// `?` placeholders as PostgreSQL's `$1, $2, …`.
pub fn numbered_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for ch in sql.chars() {
        if ch == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_drops_the_guests_duplicates_then_moves_the_rest() {
        let t = UserTable {
            table: "saved",
            key: &["news_id"],
        };
        let [drop, move_rest] = merge_statements(&t);
        assert_eq!(
            drop,
            "DELETE FROM saved WHERE user_id = ? AND EXISTS (SELECT 1 FROM saved a WHERE a.user_id = ? AND a.news_id = saved.news_id)"
        );
        assert_eq!(move_rest, "UPDATE saved SET user_id = ? WHERE user_id = ?");
        assert_eq!(
            numbered_placeholders(&move_rest),
            "UPDATE saved SET user_id = $1 WHERE user_id = $2"
        );
    }

    #[test]
    fn a_table_without_a_key_keeps_the_accounts_list_whole() {
        let t = UserTable {
            table: "home_channels",
            key: &[],
        };
        let [drop, _] = merge_statements(&t);
        assert_eq!(
            drop,
            "DELETE FROM home_channels WHERE user_id = ? AND EXISTS (SELECT 1 FROM home_channels a WHERE a.user_id = ?)"
        );
    }

    #[test]
    fn no_table_is_both_merged_and_handled_by_sign_in() {
        for t in USER_TABLES {
            assert!(!IDENTITY_TABLES.contains(&t.table), "{}", t.table);
        }
    }
}
