//! Notifications by Web Push (issue 19) on both engines: subscriptions, settings and the
//! sent log (`store::push`), in SQLite's identity file. One body, expanded per engine
//! ([`crate::engine`]); where the SQL differs, the two stand side by side below (lists of
//! ids: a JSON array with `json_each` on SQLite, arrays with `unnest` / `= ANY` on
//! PostgreSQL). Claims are one `INSERT … ON CONFLICT DO NOTHING`, so processes sharing a
//! PostgreSQL database never send a story to a reader twice.

use std::collections::HashMap;

use async_trait::async_trait;
use sqlx::Row;
use store::push::{
    MAX_SUBSCRIPTIONS, NewSubscription, NotificationSettings, PushCounts, PushSubscription, PushTarget, SentPush,
    Subscribed,
};
use store::things::{Cursor, Page, Paged};
use store::{Notifications, Result, UserId};

use domain::ids::{CityId, NewsId};

use crate::engine::Engine;

/// The body both engines share. `$engine` names the engine's module in the crate; what
/// differs (`claim`) is defined beside each expansion below.
macro_rules! notifications {
    ($engine:ident, $Store:ty) => {
        const SUBSCRIPTION_COLUMNS: &str =
            "s.id, s.user_id, s.endpoint, s.p256dh, s.auth, s.city_id, s.lang, s.created_at, s.failures";

        fn subscription(r: &crate::$engine::DbRow) -> std::result::Result<PushSubscription, sqlx::Error> {
            Ok(PushSubscription {
                id: r.try_get(0)?,
                user: UserId(r.try_get(1)?),
                endpoint: r.try_get(2)?,
                p256dh: r.try_get(3)?,
                auth: r.try_get(4)?,
                city_id: CityId(r.try_get(5)?),
                lang: r.try_get(6)?,
                created_at_ms: r.try_get(7)?,
                failures: r.try_get::<i64, _>(8)?.clamp(0, i32::MAX as i64) as i32,
            })
        }

        /// Settings from columns 9.. of a target row (all NULL: the reader never set any).
        fn settings_at(r: &crate::$engine::DbRow, at: usize) -> std::result::Result<NotificationSettings, sqlx::Error> {
            let Some(enabled) = r.try_get::<Option<bool>, _>(at)? else {
                return Ok(NotificationSettings::default());
            };
            Ok(NotificationSettings {
                enabled,
                daily_budget: r.try_get::<i64, _>(at + 1)?.clamp(0, u32::MAX as i64) as u32,
                quiet_start: r.try_get::<i64, _>(at + 2)?.clamp(0, u32::MAX as i64) as u32,
                quiet_end: r.try_get::<i64, _>(at + 3)?.clamp(0, u32::MAX as i64) as u32,
                digest_hour: r
                    .try_get::<Option<i64>, _>(at + 4)?
                    .map(|h| h.clamp(0, u32::MAX as i64) as u32),
                media_off: NotificationSettings::parse_media_off(&r.try_get::<String, _>(at + 5)?),
                topics_off: NotificationSettings::parse_topics_off(&r.try_get::<String, _>(at + 6)?),
            })
        }

        #[async_trait]
        impl Notifications for $Store {
            async fn put_push_subscription(&self, sub: &NewSubscription, now_ms: i64) -> Result<Subscribed> {
                self.settled(sub.user).await;
                // One statement: the count of the reader's other subscriptions is read with the
                // insert (a read-then-write transaction would fail to upgrade under a busy writer).
                let done = sqlx::query(
                    "INSERT INTO push_subscriptions (endpoint, p256dh, auth, user_id, city_id, lang, created_at, failures) \
                     SELECT $1, $2, $3, $4, $5, $6, $7, 0 \
                     WHERE (SELECT count(*) FROM push_subscriptions WHERE user_id = $4 AND endpoint <> $1) < $8 \
                     ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth, \
                     city_id = excluded.city_id, lang = excluded.lang, failures = 0 \
                     WHERE push_subscriptions.user_id = excluded.user_id",
                )
                .bind(&sub.endpoint)
                .bind(&sub.p256dh)
                .bind(&sub.auth)
                .bind(sub.user.0)
                .bind(sub.city_id.0)
                .bind(&sub.lang)
                .bind(now_ms)
                .bind(MAX_SUBSCRIPTIONS as i64)
                .execute(self.writer())
                .await
                .map_err(crate::$engine::db)?;
                if done.rows_affected() > 0 {
                    return Ok(Subscribed::Stored);
                }
                // Nothing written: either the reader is at the maximum, or the endpoint is
                // another reader's (the update's WHERE kept it, D356).
                let holder: Option<i64> = sqlx::query_scalar("SELECT user_id FROM push_subscriptions WHERE endpoint = $1")
                    .bind(&sub.endpoint)
                    .fetch_optional(self.writer())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(match holder {
                    Some(other) if other != sub.user.0 => Subscribed::Taken,
                    _ => Subscribed::TooMany,
                })
            }

            async fn remove_push_subscription(&self, user: UserId, endpoint: &str) -> Result<bool> {
                self.settled(user).await;
                let done = sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2")
                    .bind(user.0)
                    .bind(endpoint)
                    .execute(self.writer())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(done.rows_affected() > 0)
            }

            async fn remove_push_endpoint(&self, endpoint: &str) -> Result<bool> {
                let done = sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                    .bind(endpoint)
                    .execute(self.writer())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(done.rows_affected() > 0)
            }

            async fn record_push_delivery(&self, endpoint: &str, ok: bool) -> Result<i32> {
                let sql = if ok {
                    "UPDATE push_subscriptions SET failures = 0 WHERE endpoint = $1 RETURNING failures"
                } else {
                    "UPDATE push_subscriptions SET failures = failures + 1 WHERE endpoint = $1 RETURNING failures"
                };
                let n: Option<i64> = sqlx::query_scalar(sql)
                    .bind(endpoint)
                    .fetch_optional(self.writer())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(n.unwrap_or(0).clamp(0, i32::MAX as i64) as i32)
            }

            async fn push_subscriptions_of(&self, user: UserId) -> Result<Vec<PushSubscription>> {
                self.settled(user).await;
                let sql = format!("SELECT {SUBSCRIPTION_COLUMNS} FROM push_subscriptions s WHERE s.user_id = $1 ORDER BY s.id");
                let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(user.0)
                    .fetch_all(self.reader())
                    .await
                    .map_err(crate::$engine::db)?;
                rows.iter()
                    .map(subscription)
                    .collect::<std::result::Result<_, _>>()
                    .map_err(crate::$engine::db)
            }

            async fn push_targets(&self, city_id: CityId, after_id: i64, limit: u32) -> Result<Vec<PushTarget>> {
                let rows = sqlx::query(
                    "SELECT s.id, s.user_id, s.endpoint, s.p256dh, s.auth, s.city_id, s.lang, s.created_at, s.failures, \
                     n.enabled, n.daily_budget, n.quiet_start, n.quiet_end, n.digest_hour, n.media_off, n.topics_off \
                     FROM push_subscriptions s LEFT JOIN notification_settings n ON n.user_id = s.user_id \
                     WHERE s.city_id = $1 AND s.id > $2 ORDER BY s.id LIMIT $3",
                )
                .bind(city_id.0)
                .bind(after_id)
                .bind(i64::from(limit))
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                rows.iter()
                    .map(|r| {
                        Ok(PushTarget {
                            subscription: subscription(r)?,
                            settings: settings_at(r, 9)?,
                        })
                    })
                    .collect::<std::result::Result<_, sqlx::Error>>()
                    .map_err(crate::$engine::db)
            }

            async fn push_cities(&self) -> Result<Vec<CityId>> {
                let ids: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT city_id FROM push_subscriptions ORDER BY city_id")
                    .fetch_all(self.reader())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(ids.into_iter().map(CityId).collect())
            }

            async fn notification_settings(&self, user: UserId) -> Result<NotificationSettings> {
                self.settled(user).await;
                let row = sqlx::query(
                    "SELECT enabled, daily_budget, quiet_start, quiet_end, digest_hour, media_off, topics_off \
                     FROM notification_settings WHERE user_id = $1",
                )
                .bind(user.0)
                .fetch_optional(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                match row {
                    Some(r) => settings_at(&r, 0).map_err(crate::$engine::db),
                    None => Ok(NotificationSettings::default()),
                }
            }

            async fn put_notification_settings(
                &self,
                user: UserId,
                settings: &NotificationSettings,
                now_ms: i64,
            ) -> Result<()> {
                self.settled(user).await;
                sqlx::query(
                    "INSERT INTO notification_settings \
                     (user_id, enabled, daily_budget, quiet_start, quiet_end, digest_hour, media_off, topics_off, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                     ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled, daily_budget = excluded.daily_budget, \
                     quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, digest_hour = excluded.digest_hour, \
                     media_off = excluded.media_off, topics_off = excluded.topics_off, updated_at = excluded.updated_at",
                )
                .bind(user.0)
                .bind(settings.enabled)
                .bind(i64::from(settings.daily_budget))
                .bind(i64::from(settings.quiet_start))
                .bind(i64::from(settings.quiet_end))
                .bind(settings.digest_hour.map(i64::from))
                .bind(settings.media_off_text())
                .bind(settings.topics_off_text())
                .bind(now_ms)
                .execute(self.writer())
                .await
                .map_err(crate::$engine::db)?;
                Ok(())
            }

            async fn claim_pushes(
                &self,
                story: NewsId,
                claims: &[(UserId, NewsId)],
                now_ms: i64,
                digest: bool,
            ) -> Result<Vec<UserId>> {
                if claims.is_empty() {
                    return Ok(Vec::new());
                }
                // A guest answered before their write (D165) is not skipped as gone: ids are
                // handed out in order, so the newest one settled means every one is.
                if let Some(newest) = claims.iter().map(|(u, _)| *u).max() {
                    self.settled(newest).await;
                }
                let ids = claim(self.writer(), story, claims, now_ms, digest)
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(ids.into_iter().map(UserId).collect())
            }

            async fn release_push(&self, user: UserId, story: NewsId) -> Result<()> {
                sqlx::query("DELETE FROM push_sent WHERE user_id = $1 AND story_id = $2")
                    .bind(user.0)
                    .bind(story.0)
                    .execute(self.writer())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(())
            }

            async fn push_counts(&self, users: &[UserId], since_ms: i64) -> Result<HashMap<UserId, PushCounts>> {
                if users.is_empty() {
                    return Ok(HashMap::new());
                }
                let rows = sqlx::query(concat!(
                    "SELECT user_id, count(*) FILTER (WHERE NOT digest), count(*) FILTER (WHERE digest) \
                     FROM push_sent WHERE sent_at >= $2 AND user_id ",
                    among!($engine, "$1"),
                    " GROUP BY user_id"
                ))
                .bind(crate::$engine::id_list(users.iter().map(|u| u.0)))
                    .bind(since_ms)
                    .fetch_all(self.reader())
                    .await
                    .map_err(crate::$engine::db)?;
                let mut out = HashMap::with_capacity(rows.len());
                for r in rows {
                    let user: i64 = r.try_get(0).map_err(crate::$engine::db)?;
                    let singles: i64 = r.try_get(1).map_err(crate::$engine::db)?;
                    let digests: i64 = r.try_get(2).map_err(crate::$engine::db)?;
                    out.insert(
                        UserId(user),
                        PushCounts {
                            singles: singles.clamp(0, u32::MAX as i64) as u32,
                            digests: digests.clamp(0, u32::MAX as i64) as u32,
                        },
                    );
                }
                Ok(out)
            }

            async fn sent_pushes(&self, user: UserId, page: Page) -> Result<Paged<SentPush>> {
                self.settled(user).await;
                let start = page.start();
                let rows = sqlx::query(
                    "SELECT story_id, news_id, sent_at, digest FROM push_sent \
                     WHERE user_id = $1 AND (sent_at, story_id) < ($2, $3) \
                     ORDER BY sent_at DESC, story_id DESC LIMIT $4",
                )
                .bind(user.0)
                .bind(start.at_ms)
                .bind(start.id)
                .bind(i64::from(page.size()) + 1)
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                let items = rows
                    .iter()
                    .map(|r| {
                        Ok(SentPush {
                            story_id: NewsId(r.try_get(0)?),
                            news_id: NewsId(r.try_get(1)?),
                            sent_at_ms: r.try_get(2)?,
                            digest: r.try_get(3)?,
                        })
                    })
                    .collect::<std::result::Result<Vec<_>, sqlx::Error>>()
                    .map_err(crate::$engine::db)?;
                Ok(Paged::from_rows(items, page.size(), |s: &SentPush| -> Cursor {
                    s.cursor()
                }))
            }
        }
    };
}

mod sqlite {
    use super::*;

    notifications!(sqlite, crate::sqlite::SqliteStore);

    /// Readers deleted meanwhile are skipped by the join (their foreign key would fail).
    async fn claim(
        writer: &sqlx::SqlitePool,
        story: NewsId,
        claims: &[(UserId, NewsId)],
        now_ms: i64,
        digest: bool,
    ) -> sqlx::Result<Vec<i64>> {
        let pairs: Vec<String> = claims.iter().map(|(u, n)| format!("[{},{}]", u.0, n.0)).collect();
        sqlx::query_scalar(
            "INSERT INTO push_sent (user_id, story_id, news_id, sent_at, digest) \
             SELECT u.id, $2, json_extract(j.value, '$[1]'), $3, $4 FROM json_each($1) j \
             JOIN users u ON u.id = json_extract(j.value, '$[0]') WHERE true \
             ON CONFLICT (user_id, story_id) DO NOTHING RETURNING user_id",
        )
        .bind(format!("[{}]", pairs.join(",")))
        .bind(story.0)
        .bind(now_ms)
        .bind(digest)
        .fetch_all(writer)
        .await
    }
}

mod postgres {
    use super::*;

    notifications!(postgres, crate::postgres::PgStore);

    /// Readers deleted meanwhile are skipped by the join (their foreign key would fail).
    async fn claim(
        pool: &sqlx::PgPool,
        story: NewsId,
        claims: &[(UserId, NewsId)],
        now_ms: i64,
        digest: bool,
    ) -> sqlx::Result<Vec<i64>> {
        sqlx::query_scalar(
            "INSERT INTO push_sent (user_id, story_id, news_id, sent_at, digest) \
             SELECT u.id, $3, j.news, $4, $5 FROM unnest($1::bigint[], $2::bigint[]) AS j(uid, news) \
             JOIN users u ON u.id = j.uid \
             ON CONFLICT (user_id, story_id) DO NOTHING RETURNING user_id",
        )
        .bind(claims.iter().map(|(u, _)| u.0).collect::<Vec<i64>>())
        .bind(claims.iter().map(|(_, n)| n.0).collect::<Vec<i64>>())
        .bind(story.0)
        .bind(now_ms)
        .bind(digest)
        .fetch_all(pool)
        .await
    }
}
