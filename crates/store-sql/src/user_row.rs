//! A user row on every driver the store uses: sqlx on both engines and rusqlite in
//! SQLite's guest writer. The columns are `user_columns!` (crate root), read by position.

use domain::ids::CityId;
use domain::user::{UserServer, timestamp_millis};

/// A row whose columns are `user_columns!`, in that order.
pub(crate) trait UserRow {
    type Error;
    fn int(&self, at: usize) -> Result<i64, Self::Error>;
    /// A 32-bit INTEGER column (PostgreSQL's `integer` decodes only as i32).
    fn small(&self, at: usize) -> Result<i32, Self::Error>;
    fn text(&self, at: usize) -> Result<String, Self::Error>;
    fn real(&self, at: usize) -> Result<f64, Self::Error>;
}

pub(crate) fn user_from_row<R: UserRow>(row: &R) -> Result<UserServer, R::Error> {
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

/// The same getters for each sqlx row type.
macro_rules! sqlx_user_row {
    ($Row:ty) => {
        impl UserRow for $Row {
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

sqlx_user_row!(sqlx::sqlite::SqliteRow);
sqlx_user_row!(sqlx::postgres::PgRow);

impl UserRow for rusqlite::Row<'_> {
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
