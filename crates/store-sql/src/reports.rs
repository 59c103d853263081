//! Usage reports (issue 21, D332): the operator's reads, one SQL each for both engines.
//! SQLite keeps reports in a file of their own, read and written by one thread on a
//! plain connection (`sqlite/report_writer.rs`); PostgreSQL runs them on its pool
//! (`postgres/reports.rs`). Each statement numbers its parameters in the order they
//! first appear, so rusqlite's positional binding (which numbers `$n` by appearance)
//! and sqlx agree; a test checks it.

use store::reports::{Count, DayUsage, ReportEvent, full_fields};

use crate::rows::Columns;

/// Events joined to their calls (D365): the range finds a call's events by the primary
/// key, and `c.id = e.id / 128` the call of an event.
macro_rules! joined {
    () => {
        "report_calls c JOIN report_events e ON e.id >= c.id * 128 AND e.id < c.id * 128 + 128 AND c.id = e.id / 128"
    };
}

/// Events received in [$1, $2) after id $3, at most $4, read by [`event_row`].
pub(crate) const EVENTS: &str = concat!(
    "SELECT e.id, c.received_at, e.event_time, e.event, c.device_id, c.country, c.lang, c.channel, \
     e.subject, e.detail, e.label, c.ip, c.user_agent, e.fields, c.property FROM ",
    joined!(),
    " WHERE c.received_at >= $1 AND c.received_at < $2 AND e.id > $3 ORDER BY e.id LIMIT $4"
);

/// Per day ($1 = the day's length) of [$2, $3): readers, page views and events, read by [`day_row`].
pub(crate) const DAYS: &str = concat!(
    "SELECT c.received_at / $1, COUNT(DISTINCT CASE WHEN c.device_id <> '' THEN c.device_id END), \
     CAST(SUM(CASE WHEN e.event = 'pageView' THEN 1 ELSE 0 END) AS BIGINT), COUNT(*) FROM ",
    joined!(),
    " WHERE c.received_at >= $2 AND c.received_at < $3 GROUP BY 1 ORDER BY 1"
);

/// The counts of the operator's usage page: each over [$1, $2), the top $3, read by
/// [`count_row`].
pub(crate) const CORE_FUNCTIONS: &str = concat!(
    "SELECT e.subject, '', COUNT(*) FROM ",
    joined!(),
    " WHERE c.received_at >= $1 AND c.received_at < $2 AND e.event = 'coreBehavior' \
     GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3"
);
pub(crate) const TOP_STORIES: &str = concat!(
    "SELECT e.detail, MAX(e.label), COUNT(*) FROM ",
    joined!(),
    " WHERE c.received_at >= $1 AND c.received_at < $2 AND e.event = 'pageView' \
     AND e.detail <> '' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3"
);
pub(crate) const SEARCH_TERMS: &str = concat!(
    "SELECT lower(e.subject), '', COUNT(*) FROM ",
    joined!(),
    " WHERE c.received_at >= $1 AND c.received_at < $2 AND e.event = 'search' \
     AND e.subject <> '' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3"
);
// Every call has an event, so distinct devices by call are distinct devices by event.
pub(crate) const CHANNELS: &str = "SELECT channel, '', COUNT(DISTINCT device_id) FROM report_calls \
     WHERE received_at >= $1 AND received_at < $2 GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3";
pub(crate) const COUNTRIES: &str = "SELECT country, '', COUNT(DISTINCT device_id) FROM report_calls \
     WHERE received_at >= $1 AND received_at < $2 GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3";
pub(crate) const LANGUAGES: &str = "SELECT lang, '', COUNT(DISTINCT device_id) FROM report_calls \
     WHERE received_at >= $1 AND received_at < $2 GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT $3";

/// A row of [`EVENTS`].
pub(crate) fn event_row<R: Columns>(r: &R) -> Result<ReportEvent, R::Error> {
    let (event, subject, detail, label, fields) = (r.text(3)?, r.text(8)?, r.text(9)?, r.text(10)?, r.text(13)?);
    Ok(ReportEvent {
        id: r.int(0)?,
        received_at_ms: r.int(1)?,
        time_ms: r.int(2)?,
        fields: full_fields(&event, &subject, &detail, &label, &fields),
        event,
        device_id: r.text(4)?,
        country: r.text(5)?,
        lang: r.text(6)?,
        channel: r.text(7)?,
        subject,
        detail,
        label,
        ip: r.text(11)?,
        user_agent: r.text(12)?,
        property: r.text(14)?,
    })
}

/// A row of [`DAYS`].
pub(crate) fn day_row<R: Columns>(r: &R) -> Result<DayUsage, R::Error> {
    Ok(DayUsage {
        day: r.int(0)?,
        readers: r.int(1)?,
        page_views: r.int(2)?,
        events: r.int(3)?,
    })
}

/// A row of the counts ([`CORE_FUNCTIONS`] …).
pub(crate) fn count_row<R: Columns>(r: &R) -> Result<Count, R::Error> {
    Ok(Count {
        key: r.text(0)?,
        label: r.text(1)?,
        count: r.int(2)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rusqlite binds by position and SQLite numbers a `$n` by where it first appears, so
    /// a statement read by both engines must name `$1`, `$2`… in that order.
    #[test]
    fn d422_shared_report_statements_number_their_parameters_in_order() {
        for sql in [
            EVENTS,
            DAYS,
            CORE_FUNCTIONS,
            TOP_STORIES,
            SEARCH_TERMS,
            CHANNELS,
            COUNTRIES,
            LANGUAGES,
        ] {
            let mut next = 1;
            for (i, _) in sql.match_indices('$') {
                let n: u32 = sql[i + 1..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
                    .parse()
                    .unwrap();
                assert!(n <= next, "{sql}: ${n} before ${next}");
                if n == next {
                    next += 1;
                }
            }
            assert!(next > 1, "{sql} has parameters");
        }
    }
}
