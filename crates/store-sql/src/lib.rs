//! The [`store::Store`] contract on its two engines: [`sqlite`] (the default, embedded,
//! with its writer threads) and [`postgres`] (several servers on one database).
//!
//! The engines share one numbering of migrations (`migrations/`) and, per area, what
//! their SQL has in common; what truly differs stands side by side in the area's module.

/// `column IN list` the engine's way, for a list of ids bound as one parameter (made by
/// the engine's `id_list`): a JSON array read with `json_each` on SQLite, an array on
/// PostgreSQL. A literal, so queries stay static strings: `concat!("… WHERE id ", among!(sqlite, "$1"))`.
macro_rules! among {
    (sqlite, $param:literal) => {
        concat!("IN (SELECT value FROM json_each(", $param, "))")
    };
    (postgres, $param:literal) => {
        concat!("= ANY(", $param, ")")
    };
}

/// What PostgreSQL adds to a statement that chooses rows to change, so another node's
/// statement skips them instead of waiting; SQLite has one writer, so nothing.
macro_rules! skip_locked {
    (sqlite) => {
        ""
    };
    (postgres) => {
        " FOR UPDATE SKIP LOCKED"
    };
}

/// The user columns, as a macro so every query stays a static string (sqlx 0.9 refuses
/// dynamic SQL); read by `users::user_from_row`.
macro_rules! user_columns {
    () => {
        "u.id, u.name, u.photo, u.email, u.account_type, u.user_type, u.join_time, u.last_time, \
         u.app_lang, u.country, u.postal_code, u.admin_code, u.city, u.city_show, u.city_id, u.lat, u.lon"
    };
}

pub mod postgres;
pub mod sqlite;

mod accounts;
mod engine;
mod purge;
mod push;
mod store_impl;
mod thing_writes;
mod things;
mod user_row;
mod users;
