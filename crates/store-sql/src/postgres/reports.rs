//! Usage reports on PostgreSQL (issue 21, D332): the same tables and sums as SQLite's
//! `report_writer.rs`. A call and its events go in one statement (the call row, then its
//! events' arrays unnested with ids call × 128 + place, D365); the server groups concurrent
//! commits itself.

use async_trait::async_trait;
use store::reports::{Count, DAY_MS, EVENT_IDS_PER_CALL, ReportCall, ReportEvent, TOP, Usage};
use store::{ReportStore, Result};

use crate::postgres::{PgStore, db};
use crate::reports;

impl PgStore {
    /// The bytes the report tables take with their indexes and TOAST (issue 29's
    /// amplification tests).
    pub async fn report_table_bytes(&self) -> Result<i64> {
        sqlx::query_scalar(
            "SELECT (pg_total_relation_size('report_calls') + pg_total_relation_size('report_events'))::BIGINT",
        )
        .fetch_one(&self.pool)
        .await
        .map_err(db)
    }

    async fn counts(&self, sql: &'static str, from: i64, to: i64) -> Result<Vec<Count>> {
        let rows = sqlx::query(sql)
            .bind(from)
            .bind(to)
            .bind(TOP)
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        rows.iter()
            .map(reports::count_row)
            .collect::<std::result::Result<_, sqlx::Error>>()
            .map_err(db)
    }
}

#[async_trait]
impl ReportStore for PgStore {
    async fn append_report_call(&self, call: ReportCall) -> Result<()> {
        if call.events.len() as i64 > EVENT_IDS_PER_CALL {
            return Err(store::StoreError::Database(format!(
                "a report call holds at most {EVENT_IDS_PER_CALL} events"
            )));
        }
        macro_rules! column {
            ($field:ident) => {
                call.events.iter().map(|e| e.$field.clone()).collect::<Vec<_>>()
            };
        }
        sqlx::query(
            "WITH c AS (INSERT INTO report_calls (received_at, bytes, ip, user_agent, property, device_id, country, \
             lang, channel) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id) \
             INSERT INTO report_events (id, event_time, event, subject, detail, label, fields) \
             SELECT c.id * 128 + u.place - 1, u.t, u.e, u.s, u.d, u.l, u.f FROM c, \
             UNNEST($10::BIGINT[], $11::TEXT[], $12::TEXT[], $13::TEXT[], $14::TEXT[], $15::TEXT[]) \
             WITH ORDINALITY AS u(t, e, s, d, l, f, place)",
        )
        .bind(call.received_at_ms)
        .bind(call.stored_bytes())
        .bind(&call.ip)
        .bind(&call.user_agent)
        .bind(&call.property)
        .bind(&call.device_id)
        .bind(&call.country)
        .bind(&call.lang)
        .bind(&call.channel)
        .bind(column!(time_ms))
        .bind(column!(event))
        .bind(column!(subject))
        .bind(column!(detail))
        .bind(column!(label))
        .bind(column!(fields))
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn delete_report_events_before(&self, before_ms: i64) -> Result<u64> {
        let deleted: i64 = sqlx::query_scalar(
            "WITH gone AS (DELETE FROM report_calls WHERE received_at < $1 RETURNING id), \
             events AS (DELETE FROM report_events e USING gone \
             WHERE e.id >= gone.id * 128 AND e.id < gone.id * 128 + 128 RETURNING 1) \
             SELECT COUNT(*) FROM events",
        )
        .bind(before_ms)
        .fetch_one(&self.pool)
        .await
        .map_err(db)?;
        Ok(deleted as u64)
    }

    async fn report_stored_bytes(&self) -> Result<i64> {
        sqlx::query_scalar("SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM report_calls")
            .fetch_one(&self.pool)
            .await
            .map_err(db)
    }

    async fn report_events(&self, from_ms: i64, to_ms: i64, after_id: i64, limit: i64) -> Result<Vec<ReportEvent>> {
        let rows = sqlx::query(reports::EVENTS)
            .bind(from_ms)
            .bind(to_ms)
            .bind(after_id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        rows.iter()
            .map(reports::event_row)
            .collect::<std::result::Result<_, _>>()
            .map_err(db)
    }

    async fn usage(&self, from_ms: i64, to_ms: i64) -> Result<Usage> {
        let days = sqlx::query(reports::DAYS)
            .bind(DAY_MS)
            .bind(from_ms)
            .bind(to_ms)
            .fetch_all(&self.pool)
            .await
            .map_err(db)?
            .iter()
            .map(reports::day_row)
            .collect::<std::result::Result<_, sqlx::Error>>()
            .map_err(db)?;
        Ok(Usage {
            days,
            core_functions: self.counts(reports::CORE_FUNCTIONS, from_ms, to_ms).await?,
            top_stories: self.counts(reports::TOP_STORIES, from_ms, to_ms).await?,
            search_terms: self.counts(reports::SEARCH_TERMS, from_ms, to_ms).await?,
            channels: self.counts(reports::CHANNELS, from_ms, to_ms).await?,
            countries: self.counts(reports::COUNTRIES, from_ms, to_ms).await?,
            languages: self.counts(reports::LANGUAGES, from_ms, to_ms).await?,
        })
    }
}
