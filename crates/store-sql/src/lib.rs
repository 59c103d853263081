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

/// The columns of a news row with its publisher and cluster, read by `rows::news_row`;
/// `$content` is the content expression (`''` in lists).
macro_rules! news_columns {
    ($content:literal) => {
        concat!(
            "n.news_id, n.media_id, n.title, n.org_img_url, n.img_url, n.thumbnail_url, n.video_url, n.voice_url, ",
            $content,
            " AS content, n.content_type, n.content_total_length, n.description, n.summary, n.news_type, \
             n.publish_time, n.link_url, n.author, n.category_id, n.tags, n.city_ids, n.lang, n.read_count, \
             n.like_count, n.share_count, n.comment_count, n.cluster_id, m.name AS media_name, \
             m.icon_url AS media_icon, m.home_url AS media_home_url, COALESCE(c.size, 1) AS c_size, \
             COALESCE(c.media_count, 1) AS c_media, COALESCE(c.newest, n.publish_time) AS c_newest"
        )
    };
}

/// Items with their publisher and cluster.
macro_rules! news_from {
    () => {
        " FROM news_items n JOIN media_sources m ON m.media_id = n.media_id \
          LEFT JOIN story_clusters c ON c.cluster_id = n.cluster_id "
    };
}

/// A publisher's columns, read by `rows::media_row`.
macro_rules! media_columns {
    () => {
        "m.media_id, m.slug, m.name, m.icon_url, m.home_url, m.about, m.contact, m.category_id, m.category_top_id, \
         m.country, m.admin_code, m.city, m.city_id, m.lang, \
         (SELECT count(*) FROM news_items i WHERE i.media_id = m.media_id) AS item_count"
    };
}

pub mod postgres;
pub mod sqlite;

mod accounts;
mod common_words;
mod engine;
mod purge;
mod push;
mod reports;
mod rows;
mod search_tokens;
mod store_impl;
mod thing_writes;
mod things;
mod users;
