//! Rows read by position on every driver the store uses: sqlx on both engines, rusqlite
//! in SQLite's writer threads and content readers (D416). The column lists are the crate
//! root's `user_columns!`, `news_columns!` and `media_columns!`; a query selects one of
//! them first.

use domain::ids::{CityId, ClusterId, MediaId, NewsId};
use domain::user::{UserServer, timestamp_millis};
use store::content::{ClusterStats, MediaSource, NewsRow, Special};

/// A row, read by position.
pub(crate) trait Columns {
    type Error;
    fn int(&self, at: usize) -> Result<i64, Self::Error>;
    /// A 32-bit INTEGER column (PostgreSQL's `integer` decodes only as i32).
    fn small(&self, at: usize) -> Result<i32, Self::Error>;
    fn text(&self, at: usize) -> Result<String, Self::Error>;
    fn real(&self, at: usize) -> Result<f64, Self::Error>;
}

/// A row of `user_columns!`.
pub(crate) fn user_from_row<R: Columns>(row: &R) -> Result<UserServer, R::Error> {
    Ok(UserServer {
        id: row.int(0)?,
        name: row.text(1)?,
        photo: row.text(2)?,
        email: row.text(3)?,
        is_new_user: 0,
        account_type: Some(row.small(4)?),
        user_type: row.small(5)?,
        join_time: timestamp_millis(row.int(6)?),
        last_time: timestamp_millis(row.int(7)?),
        app_lang: row.text(8)?,
        country: row.text(9)?,
        postal_code: row.text(10)?,
        admin_code: row.text(11)?,
        city: row.text(12)?,
        city_show: row.text(13)?,
        city_id: CityId(row.int(14)?),
        lat: row.real(15)?,
        lon: row.real(16)?,
    })
}

/// A row of `news_columns!`.
pub(crate) fn news_row<R: Columns>(r: &R) -> Result<NewsRow, R::Error> {
    Ok(NewsRow {
        news_id: NewsId(r.int(0)?),
        media_id: MediaId(r.int(1)?),
        title: r.text(2)?,
        org_img_url: r.text(3)?,
        img_url: r.text(4)?,
        thumbnail_url: r.text(5)?,
        video_url: r.text(6)?,
        voice_url: r.text(7)?,
        content: r.text(8)?,
        content_type: r.text(9)?,
        content_total_length: r.int(10)?,
        description: r.text(11)?,
        summary: r.text(12)?,
        news_type: r.small(13)?,
        publish_time_ms: r.int(14)?,
        link_url: r.text(15)?,
        author: r.text(16)?,
        category_id: r.text(17)?,
        tags: serde_json::from_str(&r.text(18)?).unwrap_or_default(),
        city_ids: serde_json::from_str(&r.text(19)?).unwrap_or_default(),
        lang: r.text(20)?,
        read_count: r.int(21)?,
        like_count: r.int(22)?,
        share_count: r.int(23)?,
        comment_count: r.int(24)?,
        cluster_id: ClusterId(r.int(25)?),
        media_name: r.text(26)?,
        media_icon: r.text(27)?,
        media_home_url: r.text(28)?,
        cluster: ClusterStats {
            size: r.int(29)?,
            media_count: r.int(30)?,
            newest_ms: r.int(31)?,
        },
    })
}

/// A row of `media_columns!`: the publisher's columns in `MediaSource`'s order, the item
/// count last (readers' queries count them; SQLite's writer, which needs none, selects 0).
pub(crate) fn media_row<R: Columns>(r: &R) -> Result<MediaSource, R::Error> {
    Ok(MediaSource {
        media_id: MediaId(r.int(0)?),
        slug: r.text(1)?,
        name: r.text(2)?,
        icon_url: r.text(3)?,
        home_url: r.text(4)?,
        about: r.text(5)?,
        contact: r.text(6)?,
        category_id: r.text(7)?,
        category_top_id: r.text(8)?,
        country: r.text(9)?,
        admin_code: r.text(10)?,
        city: r.text(11)?,
        city_id: CityId(r.int(12)?),
        lang: r.text(13)?,
        item_count: r.int(14)?,
    })
}

/// A row of `slug, title, description, query, news_ids` of `specials`.
pub(crate) fn special_row<R: Columns>(r: &R) -> Result<Special, R::Error> {
    Ok(Special {
        slug: r.text(0)?,
        title: r.text(1)?,
        description: r.text(2)?,
        query: r.text(3)?,
        news_ids: serde_json::from_str(&r.text(4)?).unwrap_or_default(),
    })
}

/// The same getters for each sqlx row type.
macro_rules! sqlx_columns {
    ($Row:ty) => {
        impl Columns for $Row {
            type Error = sqlx::Error;
            fn int(&self, at: usize) -> Result<i64, sqlx::Error> {
                sqlx::Row::try_get(self, at)
            }
            fn small(&self, at: usize) -> Result<i32, sqlx::Error> {
                sqlx::Row::try_get(self, at)
            }
            fn text(&self, at: usize) -> Result<String, sqlx::Error> {
                sqlx::Row::try_get(self, at)
            }
            fn real(&self, at: usize) -> Result<f64, sqlx::Error> {
                sqlx::Row::try_get(self, at)
            }
        }
    };
}

sqlx_columns!(sqlx::sqlite::SqliteRow);
sqlx_columns!(sqlx::postgres::PgRow);

impl Columns for rusqlite::Row<'_> {
    type Error = rusqlite::Error;
    fn int(&self, at: usize) -> rusqlite::Result<i64> {
        self.get(at)
    }
    fn small(&self, at: usize) -> rusqlite::Result<i32> {
        self.get(at)
    }
    fn text(&self, at: usize) -> rusqlite::Result<String> {
        self.get(at)
    }
    fn real(&self, at: usize) -> rusqlite::Result<f64> {
        self.get(at)
    }
}
