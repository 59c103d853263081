//! Usage reports on PostgreSQL (issue 21, D332): the same columns and sums as SQLite's
//! `report_writer.rs`. A call's events go in one statement (arrays unnested); the server
//! groups concurrent commits itself.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;
use store::reports::{Count, DAY_MS, DayUsage, ReportEvent, TOP, Usage};
use store::{ReportStore, Result};

use crate::{PgStore, db};

fn event_from_row(r: &PgRow) -> std::result::Result<ReportEvent, sqlx::Error> {
    Ok(ReportEvent {
        id: r.try_get(0)?,
        received_at_ms: r.try_get(1)?,
        time_ms: r.try_get(2)?,
        event: r.try_get(3)?,
        device_id: r.try_get(4)?,
        country: r.try_get(5)?,
        lang: r.try_get(6)?,
        channel: r.try_get(7)?,
        subject: r.try_get(8)?,
        detail: r.try_get(9)?,
        label: r.try_get(10)?,
        ip: r.try_get(11)?,
        user_agent: r.try_get(12)?,
        fields: r.try_get(13)?,
        property: r.try_get(14)?,
    })
}

impl PgStore {
    async fn counts(&self, sql: &'static str, from: i64, to: i64) -> Result<Vec<Count>> {
        let rows = sqlx::query(sql)
            .bind(from)
            .bind(to)
            .bind(TOP)
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        rows.iter()
            .map(|r| {
                Ok(Count {
                    key: r.try_get(0)?,
                    label: r.try_get(1)?,
                    count: r.try_get(2)?,
                })
            })
            .collect::<std::result::Result<_, sqlx::Error>>()
            .map_err(db)
    }
}

#[async_trait]
impl ReportStore for PgStore {
    async fn append_report_events(&self, events: Vec<ReportEvent>) -> Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        macro_rules! column {
            ($field:ident) => {
                events.iter().map(|e| e.$field.clone()).collect::<Vec<_>>()
            };
        }
        sqlx::query(
            "INSERT INTO report_events (received_at, event_time, event, device_id, country, lang, channel, \
             subject, detail, label, ip, user_agent, fields, property) \
             SELECT * FROM UNNEST($1::BIGINT[], $2::BIGINT[], $3::TEXT[], $4::TEXT[], $5::TEXT[], $6::TEXT[], \
             $7::TEXT[], $8::TEXT[], $9::TEXT[], $10::TEXT[], $11::TEXT[], $12::TEXT[], $13::TEXT[], $14::TEXT[])",
        )
        .bind(column!(received_at_ms))
        .bind(column!(time_ms))
        .bind(column!(event))
        .bind(column!(device_id))
        .bind(column!(country))
        .bind(column!(lang))
        .bind(column!(channel))
        .bind(column!(subject))
        .bind(column!(detail))
        .bind(column!(label))
        .bind(column!(ip))
        .bind(column!(user_agent))
        .bind(column!(fields))
        .bind(column!(property))
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn delete_report_events_before(&self, before_ms: i64) -> Result<u64> {
        let done = sqlx::query("DELETE FROM report_events WHERE received_at < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(done.rows_affected())
    }

    async fn report_events(&self, from_ms: i64, to_ms: i64, after_id: i64, limit: i64) -> Result<Vec<ReportEvent>> {
        let rows = sqlx::query(
            "SELECT id, received_at, event_time, event, device_id, country, lang, channel, subject, detail, label, \
             ip, user_agent, fields, property FROM report_events \
             WHERE received_at >= $1 AND received_at < $2 AND id > $3 ORDER BY id LIMIT $4",
        )
        .bind(from_ms)
        .bind(to_ms)
        .bind(after_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter()
            .map(event_from_row)
            .collect::<std::result::Result<_, _>>()
            .map_err(db)
    }

    async fn usage(&self, from_ms: i64, to_ms: i64) -> Result<Usage> {
        let rows = sqlx::query(
            "SELECT received_at / $3, COUNT(DISTINCT CASE WHEN device_id <> '' THEN device_id END), \
             SUM(CASE WHEN event = 'pageView' THEN 1 ELSE 0 END)::BIGINT, COUNT(*) \
             FROM report_events WHERE received_at >= $1 AND received_at < $2 GROUP BY 1 ORDER BY 1",
        )
        .bind(from_ms)
        .bind(to_ms)
        .bind(DAY_MS)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        let days = rows
            .iter()
            .map(|r| {
                Ok(DayUsage {
                    day: r.try_get(0)?,
                    readers: r.try_get(1)?,
                    page_views: r.try_get(2)?,
                    events: r.try_get(3)?,
                })
            })
            .collect::<std::result::Result<_, sqlx::Error>>()
            .map_err(db)?;
        Ok(Usage {
            days,
            core_functions: self
                .counts(
                    "SELECT subject, '', COUNT(*) FROM report_events WHERE received_at >= $1 AND received_at < $2 \
                     AND event = 'coreBehavior' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3",
                    from_ms,
                    to_ms,
                )
                .await?,
            top_stories: self
                .counts(
                    "SELECT detail, MAX(label), COUNT(*) FROM report_events WHERE received_at >= $1 \
                     AND received_at < $2 AND event = 'pageView' AND detail <> '' GROUP BY 1 ORDER BY 3 DESC, 1 \
                     LIMIT $3",
                    from_ms,
                    to_ms,
                )
                .await?,
            search_terms: self
                .counts(
                    "SELECT lower(subject), '', COUNT(*) FROM report_events WHERE received_at >= $1 \
                     AND received_at < $2 AND event = 'search' AND subject <> '' GROUP BY 1 ORDER BY 3 DESC, 1 \
                     LIMIT $3",
                    from_ms,
                    to_ms,
                )
                .await?,
            channels: self
                .counts(
                    "SELECT channel, '', COUNT(DISTINCT device_id) FROM report_events WHERE received_at >= $1 \
                     AND received_at < $2 GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3",
                    from_ms,
                    to_ms,
                )
                .await?,
            countries: self
                .counts(
                    "SELECT country, '', COUNT(DISTINCT device_id) FROM report_events WHERE received_at >= $1 \
                     AND received_at < $2 GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3",
                    from_ms,
                    to_ms,
                )
                .await?,
            languages: self
                .counts(
                    "SELECT lang, '', COUNT(DISTINCT device_id) FROM report_events WHERE received_at >= $1 \
                     AND received_at < $2 GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3",
                    from_ms,
                    to_ms,
                )
                .await?,
        })
    }
}
