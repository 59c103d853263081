//! The reader's own things (issue 18) on both engines, in SQLite's identity file: saves,
//! reactions, history, follows, blocks, topics and mutes. One body, expanded per engine
//! ([`crate::engine`]); a list of ids is `among!` the engine's way (a JSON array with
//! `json_each` on SQLite, an array with `= ANY` on PostgreSQL). Saves, history and
//! reactions are [`ThingWrite`]s: one SQL each, which SQLite's things writer runs in
//! groups on its own connection (D275) and PostgreSQL runs at once. None of these writes
//! changes a session's answer, so SQLite's session cache is left alone.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use sqlx::Row;
use store::things::{
    BlockedMedia, Cursor, FollowedMedia, FollowedTopic, MAX_BLOCKS, MAX_FOLLOWS, MAX_MUTES, MAX_TOPICS, Mute, MuteKind,
    Outcome, Page, Paged, ReactionCounting, ReactionCounts, ReactionEntry, ReadEntry, Refusal, SavedNews, TopicKind,
    clean_channels, clean_text, utc_day,
};
use store::{ReaderThings, Result, StoreError, UserId};

use domain::ids::{MediaId, NewsId};
use domain::reactions::Reaction;

use crate::engine::Engine;
use crate::thing_writes::{ThingWrite, Value};

fn reaction(name: &str) -> Result<Reaction> {
    Reaction::parse(name).ok_or_else(|| StoreError::Database(format!("unknown reaction {name:?} in reactions")))
}

fn topic_kind(name: &str) -> Result<TopicKind> {
    TopicKind::parse(name).ok_or_else(|| StoreError::Database(format!("unknown topic kind {name:?}")))
}

fn mute_kind(name: &str) -> Result<MuteKind> {
    MuteKind::parse(name).ok_or_else(|| StoreError::Database(format!("unknown mute kind {name:?}")))
}

/// The body both engines share. `$engine` names the engine's module in the crate; `write`
/// (how a [`ThingWrite`] runs) is defined beside each expansion below.
macro_rules! reader_things {
    ($engine:ident, $Store:ty) => {
        /// What a limited insert is keyed by, beside the user.
        #[derive(Clone, Copy)]
        enum Key<'a> {
            Id(i64),
            Text(&'a str, &'a str),
        }

        /// Insert a row unless the user already has `limit` rows in that table. `insert` binds
        /// (user, key…, now, limit) and does nothing on a clash; `exists` binds (user, key…).
        /// On SQLite the writer is one connection, so the count and the insert cannot race.
        /// On PostgreSQL two of a reader's writes at the same moment may both pass the count
        /// (READ COMMITTED): the limit is a bound against abuse, not an exact number.
        async fn limited_insert(
            store: &$Store,
            user: UserId,
            key: Key<'_>,
            now_ms: i64,
            limit: usize,
            insert: &'static str,
            exists: &'static str,
        ) -> Result<Outcome> {
            store.settled(user).await;
            let mut tx = store.writer().begin().await.map_err(crate::$engine::db)?;
            let q = sqlx::query(insert).bind(user.0);
            let q = match key {
                Key::Id(id) => q.bind(id),
                Key::Text(kind, value) => q.bind(kind).bind(value),
            };
            let done = q.bind(now_ms).bind(limit as i64).execute(&mut *tx).await.map_err(crate::$engine::db)?;
            let outcome = if done.rows_affected() > 0 {
                Outcome::Changed
            } else {
                let q = sqlx::query_scalar::<_, bool>(exists).bind(user.0);
                let q = match key {
                    Key::Id(id) => q.bind(id),
                    Key::Text(kind, value) => q.bind(kind).bind(value),
                };
                if q.fetch_one(&mut *tx).await.map_err(crate::$engine::db)? {
                    Outcome::Unchanged
                } else {
                    Outcome::Refused(Refusal::TooMany { limit })
                }
            };
            tx.commit().await.map_err(crate::$engine::db)?;
            Ok(outcome)
        }

        async fn delete(store: &$Store, user: UserId, key: Key<'_>, sql: &'static str) -> Result<bool> {
            store.settled(user).await;
            let q = sqlx::query(sql).bind(user.0);
            let q = match key {
                Key::Id(id) => q.bind(id),
                Key::Text(kind, value) => q.bind(kind).bind(value),
            };
            let done = q.execute(store.writer()).await.map_err(crate::$engine::db)?;
            Ok(done.rows_affected() > 0)
        }

        /// A newest-first page: `sql` binds (user, before time, before id, limit + 1) and returns
        /// rows of (id, time) first.
        async fn page_rows(
            pool: &sqlx::Pool<<$Store as Engine>::Db>,
            user: UserId,
            page: Page,
            sql: &'static str,
        ) -> Result<Vec<crate::$engine::DbRow>> {
            let start = page.start();
            sqlx::query(sql)
                .bind(user.0)
                .bind(start.at_ms)
                .bind(start.id)
                .bind(i64::from(page.size()) + 1)
                .fetch_all(pool)
                .await
                .map_err(crate::$engine::db)
        }

        /// The cursor of a row whose first two columns are (id, time).
        fn cursor_of(row: &crate::$engine::DbRow) -> Result<Cursor> {
            Ok(Cursor {
                id: row.try_get(0).map_err(crate::$engine::db)?,
                at_ms: row.try_get(1).map_err(crate::$engine::db)?,
            })
        }

        #[async_trait]
        impl ReaderThings for $Store {
            async fn save_news(&self, user: UserId, news: NewsId, now_ms: i64) -> Result<bool> {
                self.settled(user).await;
                write(self, ThingWrite::Save {
                        user: user.0,
                        news: news.0,
                        at_ms: now_ms,
                    }).await
            }

            async fn unsave_news(&self, user: UserId, news: NewsId) -> Result<bool> {
                self.settled(user).await;
                write(self, ThingWrite::Unsave {
                        user: user.0,
                        news: news.0,
                    }).await
            }

            async fn saved_news(&self, user: UserId, page: Page) -> Result<Paged<SavedNews>> {
                self.settled(user).await;
                let rows = page_rows(
                    self.reader(),
                    user,
                    page,
                    "SELECT news_id, saved_at FROM saved_news WHERE user_id = $1 AND (saved_at, news_id) < ($2, $3) \
                     ORDER BY saved_at DESC, news_id DESC LIMIT $4",
                )
                .await?;
                let items = rows
                    .iter()
                    .map(|r| {
                        let c = cursor_of(r)?;
                        Ok(SavedNews {
                            news_id: NewsId(c.id),
                            saved_at_ms: c.at_ms,
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Paged::from_rows(items, page.size(), |s| Cursor {
                    at_ms: s.saved_at_ms,
                    id: s.news_id.0,
                }))
            }

            async fn saved_by_anyone(&self) -> Result<HashSet<NewsId>> {
                let ids: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT news_id FROM saved_news")
                    .fetch_all(self.reader())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(ids.into_iter().map(NewsId).collect())
            }

            async fn is_saved(&self, user: UserId, news: &[NewsId]) -> Result<HashSet<NewsId>> {
                if news.is_empty() {
                    return Ok(HashSet::new());
                }
                self.settled(user).await;
                let ids: Vec<i64> = sqlx::query_scalar(concat!(
                    "SELECT news_id FROM saved_news WHERE user_id = $1 AND news_id ",
                    among!($engine, "$2")
                ))
                .bind(user.0)
                .bind(crate::$engine::id_list(news.iter().map(|n| n.0)))
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                Ok(ids.into_iter().map(NewsId).collect())
            }

            async fn set_reaction(&self, user: UserId, news: NewsId, reaction: Option<Reaction>, now_ms: i64) -> Result<bool> {
                self.settled(user).await;
                let thing = match reaction {
                    None => ThingWrite::Unreact {
                        user: user.0,
                        news: news.0,
                    },
                    Some(reaction) => ThingWrite::React {
                        user: user.0,
                        news: news.0,
                        reaction: reaction.as_str(),
                        at_ms: now_ms,
                    },
                };
                write(self, thing).await
            }

            async fn reactions_of(&self, user: UserId, page: Page) -> Result<Paged<ReactionEntry>> {
                self.settled(user).await;
                let rows = page_rows(
                    self.reader(),
                    user,
                    page,
                    "SELECT news_id, reacted_at, reaction FROM reactions WHERE user_id = $1 AND (reacted_at, news_id) < ($2, $3) \
                     ORDER BY reacted_at DESC, news_id DESC LIMIT $4",
                )
                .await?;
                let items = rows
                    .iter()
                    .map(|r| {
                        let c = cursor_of(r)?;
                        Ok(ReactionEntry {
                            news_id: NewsId(c.id),
                            reaction: reaction(r.try_get(2).map_err(crate::$engine::db)?)?,
                            reacted_at_ms: c.at_ms,
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Paged::from_rows(items, page.size(), |e| Cursor {
                    at_ms: e.reacted_at_ms,
                    id: e.news_id.0,
                }))
            }

            async fn my_reactions(&self, user: UserId, news: &[NewsId]) -> Result<HashMap<NewsId, Reaction>> {
                if news.is_empty() {
                    return Ok(HashMap::new());
                }
                self.settled(user).await;
                let rows: Vec<(i64, String)> = sqlx::query_as(concat!(
                    "SELECT news_id, reaction FROM reactions WHERE user_id = $1 AND news_id ",
                    among!($engine, "$2")
                ))
                .bind(user.0)
                .bind(crate::$engine::id_list(news.iter().map(|n| n.0)))
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                rows.into_iter()
                    .map(|(id, name)| Ok((NewsId(id), reaction(&name)?)))
                    .collect()
            }

            async fn reacted_since(&self, since_ms: i64) -> Result<Vec<NewsId>> {
                let ids: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT news_id FROM reactions WHERE reacted_at >= $1")
                    .bind(since_ms)
                    .fetch_all(self.reader())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(ids.into_iter().map(NewsId).collect())
            }

            async fn reaction_counts(
                &self,
                news: &[NewsId],
                counting: &ReactionCounting,
            ) -> Result<HashMap<NewsId, ReactionCounts>> {
                if news.is_empty() {
                    return Ok(HashMap::new());
                }
                let rows: Vec<(i64, String, i64)> = sqlx::query_as(concat!(
                    "SELECT r.news_id, r.reaction, COUNT(*) FROM reactions r JOIN users u ON u.id = r.user_id WHERE r.news_id ",
                    among!($engine, "$1"),
                    " AND (u.account_type <> 0 OR u.join_time < $2 OR u.id = $3) GROUP BY r.news_id, r.reaction"
                ))
                .bind(crate::$engine::id_list(news.iter().map(|n| n.0)))
                .bind(counting.guests_joined_before_ms)
                .bind(counting.viewer.map(|u| u.0))
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                let mut counts: HashMap<NewsId, ReactionCounts> = HashMap::new();
                for (id, name, n) in rows {
                    counts
                        .entry(NewsId(id))
                        .or_default()
                        .add(reaction(&name)?, n.max(0) as u64);
                }
                Ok(counts)
            }

            async fn record_read(&self, user: UserId, news: NewsId, now_ms: i64) -> Result<bool> {
                self.settled(user).await;
                write(self, ThingWrite::Read {
                        user: user.0,
                        news: news.0,
                        day: utc_day(now_ms),
                        at_ms: now_ms,
                    }).await
            }

            async fn read_history(&self, user: UserId, page: Page) -> Result<Paged<ReadEntry>> {
                self.settled(user).await;
                let rows = page_rows(
                    self.reader(),
                    user,
                    page,
                    "SELECT news_id, read_at, day FROM read_history WHERE user_id = $1 AND (read_at, news_id) < ($2, $3) \
                     ORDER BY read_at DESC, news_id DESC LIMIT $4",
                )
                .await?;
                let items = rows
                    .iter()
                    .map(|r| {
                        let c = cursor_of(r)?;
                        Ok(ReadEntry {
                            news_id: NewsId(c.id),
                            day: r.try_get(2).map_err(crate::$engine::db)?,
                            read_at_ms: c.at_ms,
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Paged::from_rows(items, page.size(), |e| Cursor {
                    at_ms: e.read_at_ms,
                    id: e.news_id.0,
                }))
            }

            async fn remove_read(&self, user: UserId, news: NewsId) -> Result<bool> {
                delete(
                    self,
                    user,
                    Key::Id(news.0),
                    "DELETE FROM read_history WHERE user_id = $1 AND news_id = $2",
                )
                .await
            }

            async fn clear_history(&self, user: UserId) -> Result<u64> {
                self.settled(user).await;
                let done = sqlx::query("DELETE FROM read_history WHERE user_id = $1")
                    .bind(user.0)
                    .execute(self.writer())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(done.rows_affected())
            }

            async fn follow_media(&self, user: UserId, media: MediaId, now_ms: i64) -> Result<Outcome> {
                limited_insert(
                    self,
                    user,
                    Key::Id(media.0),
                    now_ms,
                    MAX_FOLLOWS,
                    "INSERT INTO followed_media (user_id, media_id, followed_at) SELECT $1, $2, $3 \
                     WHERE (SELECT COUNT(*) FROM followed_media WHERE user_id = $1) < $4 ON CONFLICT DO NOTHING",
                    "SELECT EXISTS (SELECT 1 FROM followed_media WHERE user_id = $1 AND media_id = $2)",
                )
                .await
            }

            async fn unfollow_media(&self, user: UserId, media: MediaId) -> Result<bool> {
                delete(
                    self,
                    user,
                    Key::Id(media.0),
                    "DELETE FROM followed_media WHERE user_id = $1 AND media_id = $2",
                )
                .await
            }

            async fn followed_media(&self, user: UserId) -> Result<Vec<FollowedMedia>> {
                self.settled(user).await;
                let rows: Vec<(i64, i64)> = sqlx::query_as(
                    "SELECT media_id, followed_at FROM followed_media WHERE user_id = $1 \
                     ORDER BY followed_at DESC, media_id DESC",
                )
                .bind(user.0)
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                Ok(rows
                    .into_iter()
                    .map(|(id, at)| FollowedMedia {
                        media_id: MediaId(id),
                        followed_at_ms: at,
                    })
                    .collect())
            }

            async fn follows(&self, user: UserId, media: &[MediaId]) -> Result<HashSet<MediaId>> {
                if media.is_empty() {
                    return Ok(HashSet::new());
                }
                self.settled(user).await;
                let ids: Vec<i64> = sqlx::query_scalar(concat!(
                    "SELECT media_id FROM followed_media WHERE user_id = $1 AND media_id ",
                    among!($engine, "$2")
                ))
                .bind(user.0)
                .bind(crate::$engine::id_list(media.iter().map(|m| m.0)))
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                Ok(ids.into_iter().map(MediaId).collect())
            }

            async fn block_media(&self, user: UserId, media: MediaId, now_ms: i64) -> Result<Outcome> {
                limited_insert(
                    self,
                    user,
                    Key::Id(media.0),
                    now_ms,
                    MAX_BLOCKS,
                    "INSERT INTO blocked_media (user_id, media_id, blocked_at) SELECT $1, $2, $3 \
                     WHERE (SELECT COUNT(*) FROM blocked_media WHERE user_id = $1) < $4 ON CONFLICT DO NOTHING",
                    "SELECT EXISTS (SELECT 1 FROM blocked_media WHERE user_id = $1 AND media_id = $2)",
                )
                .await
            }

            async fn unblock_media(&self, user: UserId, media: MediaId) -> Result<bool> {
                delete(
                    self,
                    user,
                    Key::Id(media.0),
                    "DELETE FROM blocked_media WHERE user_id = $1 AND media_id = $2",
                )
                .await
            }

            async fn blocked_media(&self, user: UserId, page: Page) -> Result<Paged<BlockedMedia>> {
                self.settled(user).await;
                let rows = page_rows(
                    self.reader(),
                    user,
                    page,
                    "SELECT media_id, blocked_at FROM blocked_media WHERE user_id = $1 AND (blocked_at, media_id) < ($2, $3) \
                     ORDER BY blocked_at DESC, media_id DESC LIMIT $4",
                )
                .await?;
                let items = rows
                    .iter()
                    .map(|r| {
                        let c = cursor_of(r)?;
                        Ok(BlockedMedia {
                            media_id: MediaId(c.id),
                            blocked_at_ms: c.at_ms,
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Paged::from_rows(items, page.size(), |b| Cursor {
                    at_ms: b.blocked_at_ms,
                    id: b.media_id.0,
                }))
            }

            async fn blocked_media_ids(&self, user: UserId) -> Result<HashSet<MediaId>> {
                self.settled(user).await;
                let ids: Vec<i64> = sqlx::query_scalar("SELECT media_id FROM blocked_media WHERE user_id = $1")
                    .bind(user.0)
                    .fetch_all(self.reader())
                    .await
                    .map_err(crate::$engine::db)?;
                Ok(ids.into_iter().map(MediaId).collect())
            }

            async fn follow_topic(&self, user: UserId, kind: TopicKind, value: &str, now_ms: i64) -> Result<Outcome> {
                let value = match clean_text(value) {
                    Ok(v) => v,
                    Err(why) => return Ok(Outcome::Refused(why)),
                };
                limited_insert(
                    self,
                    user,
                    Key::Text(kind.as_str(), value),
                    now_ms,
                    MAX_TOPICS,
                    "INSERT INTO followed_topics (user_id, kind, value, followed_at) SELECT $1, $2, $3, $4 \
                     WHERE (SELECT COUNT(*) FROM followed_topics WHERE user_id = $1) < $5 ON CONFLICT DO NOTHING",
                    "SELECT EXISTS (SELECT 1 FROM followed_topics WHERE user_id = $1 AND kind = $2 AND value = $3)",
                )
                .await
            }

            async fn unfollow_topic(&self, user: UserId, kind: TopicKind, value: &str) -> Result<bool> {
                delete(
                    self,
                    user,
                    Key::Text(kind.as_str(), value.trim()),
                    "DELETE FROM followed_topics WHERE user_id = $1 AND kind = $2 AND value = $3",
                )
                .await
            }

            async fn followed_topics(&self, user: UserId) -> Result<Vec<FollowedTopic>> {
                self.settled(user).await;
                let rows: Vec<(String, String, i64)> = sqlx::query_as(
                    "SELECT kind, value, followed_at FROM followed_topics WHERE user_id = $1 \
                     ORDER BY followed_at DESC, kind, value",
                )
                .bind(user.0)
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                rows.into_iter()
                    .map(|(kind, value, at)| {
                        Ok(FollowedTopic {
                            kind: topic_kind(&kind)?,
                            value,
                            followed_at_ms: at,
                        })
                    })
                    .collect()
            }

            async fn set_home_channels(&self, user: UserId, channels: &[String]) -> Result<Outcome> {
                let channels = match clean_channels(channels) {
                    Ok(c) => c,
                    Err(why) => return Ok(Outcome::Refused(why)),
                };
                self.settled(user).await;
                let mut tx = self.writer().begin().await.map_err(crate::$engine::db)?;
                let before: Vec<String> =
                    sqlx::query_scalar("SELECT channel FROM home_channels WHERE user_id = $1 ORDER BY position")
                        .bind(user.0)
                        .fetch_all(&mut *tx)
                        .await
                        .map_err(crate::$engine::db)?;
                if before.iter().map(String::as_str).eq(channels.iter().copied()) {
                    return Ok(Outcome::Unchanged);
                }
                sqlx::query("DELETE FROM home_channels WHERE user_id = $1")
                    .bind(user.0)
                    .execute(&mut *tx)
                    .await
                    .map_err(crate::$engine::db)?;
                for (position, channel) in channels.iter().enumerate() {
                    sqlx::query("INSERT INTO home_channels (user_id, channel, position) VALUES ($1, $2, $3)")
                        .bind(user.0)
                        .bind(*channel)
                        .bind(position as i64)
                        .execute(&mut *tx)
                        .await
                        .map_err(crate::$engine::db)?;
                }
                tx.commit().await.map_err(crate::$engine::db)?;
                Ok(Outcome::Changed)
            }

            async fn home_channels(&self, user: UserId) -> Result<Vec<String>> {
                self.settled(user).await;
                sqlx::query_scalar("SELECT channel FROM home_channels WHERE user_id = $1 ORDER BY position, channel")
                    .bind(user.0)
                    .fetch_all(self.reader())
                    .await
                    .map_err(crate::$engine::db)
            }

            async fn add_mute(&self, user: UserId, kind: MuteKind, value: &str, now_ms: i64) -> Result<Outcome> {
                let value = match clean_text(value) {
                    Ok(v) => v,
                    Err(why) => return Ok(Outcome::Refused(why)),
                };
                limited_insert(
                    self,
                    user,
                    Key::Text(kind.as_str(), value),
                    now_ms,
                    MAX_MUTES,
                    "INSERT INTO mutes (user_id, kind, value, muted_at) SELECT $1, $2, $3, $4 \
                     WHERE (SELECT COUNT(*) FROM mutes WHERE user_id = $1) < $5 ON CONFLICT DO NOTHING",
                    "SELECT EXISTS (SELECT 1 FROM mutes WHERE user_id = $1 AND kind = $2 AND value = $3)",
                )
                .await
            }

            async fn remove_mute(&self, user: UserId, kind: MuteKind, value: &str) -> Result<bool> {
                delete(
                    self,
                    user,
                    Key::Text(kind.as_str(), value.trim()),
                    "DELETE FROM mutes WHERE user_id = $1 AND kind = $2 AND value = $3",
                )
                .await
            }

            async fn mutes(&self, user: UserId) -> Result<Vec<Mute>> {
                self.settled(user).await;
                let rows: Vec<(String, String, i64)> = sqlx::query_as(
                    "SELECT kind, value, muted_at FROM mutes WHERE user_id = $1 ORDER BY muted_at DESC, kind, value",
                )
                .bind(user.0)
                .fetch_all(self.reader())
                .await
                .map_err(crate::$engine::db)?;
                rows.into_iter()
                    .map(|(kind, value, at)| {
                        Ok(Mute {
                            kind: mute_kind(&kind)?,
                            value,
                            muted_at_ms: at,
                        })
                    })
                    .collect()
            }
        }
    };
}

mod sqlite {
    use super::*;

    reader_things!(sqlite, crate::sqlite::SqliteStore);

    /// Grouped with other readers' writes by the things writer (D275).
    async fn write(store: &crate::sqlite::SqliteStore, write: ThingWrite) -> Result<bool> {
        store.things.submit(write).await
    }
}

mod postgres {
    use super::*;

    reader_things!(postgres, crate::postgres::PgStore);

    async fn write(store: &crate::postgres::PgStore, write: ThingWrite) -> Result<bool> {
        let mut q = sqlx::query(write.sql());
        for value in write.values() {
            q = match value {
                Value::Int(n) => q.bind(n),
                Value::Text(s) => q.bind(s),
            };
        }
        let done = q.execute(&store.pool).await.map_err(crate::postgres::db)?;
        Ok(done.rows_affected() > 0)
    }
}
