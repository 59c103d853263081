//! The notification rules of issue 19, as pure functions: which stories are breaking for a
//! reader (D311), and whether a reader may get a push now: their switch, quiet hours in
//! their city's time zone, their daily budget, or their daily digest (D313). The notifier
//! (`push::notifier`) reads the stories and the readers; everything it decides is here.

/// Milliseconds in a minute and in a day.
const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

/// Stories older than this (by their newest item) are never pushed.
pub const BREAKING_WINDOW_MS: i64 = 12 * 3_600_000;
/// A story's score halves every this many milliseconds.
pub const HALF_LIFE_MS: f64 = 6.0 * 3_600_000.0;
/// The score a story needs, for a reader, to be pushed.
pub const BREAKING_SCORE: f64 = 5.0;
/// How much more a story counts when the reader follows its publisher or one of its topics.
pub const FOLLOWED_WEIGHT: f64 = 1.5;
/// Most stories in one digest.
pub const DIGEST_MAX: usize = 5;

/// What a story's cluster says about it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StorySignals {
    /// Items in the story's cluster.
    pub size: i64,
    /// Distinct publishers among them.
    pub publishers: i64,
    /// The newest item's publish time.
    pub newest_ms: i64,
}

/// How breaking a story is at `now_ms`, before a reader's follows: publishers count twice
/// as much as items (diversity beats one publisher's repeats), halving every
/// [`HALF_LIFE_MS`]; zero past [`BREAKING_WINDOW_MS`] or from the future's far side.
pub fn story_score(s: StorySignals, now_ms: i64) -> f64 {
    let age = (now_ms - s.newest_ms).max(0);
    if age > BREAKING_WINDOW_MS {
        return 0.0;
    }
    let base = s.size.max(1) as f64 + 2.0 * s.publishers.max(1) as f64;
    base * 0.5f64.powf(age as f64 / HALF_LIFE_MS)
}

/// A story's score for a reader: [`FOLLOWED_WEIGHT`] times more when they follow its
/// publisher or one of its topics. Hidden stories (blocked, muted, switched off) never
/// reach this: the notifier drops them first.
pub fn reader_score(base: f64, followed: bool) -> f64 {
    if followed { base * FOLLOWED_WEIGHT } else { base }
}

/// Whether a score is breaking news.
pub fn is_breaking(score: f64) -> bool {
    score >= BREAKING_SCORE
}

/// A moment in a reader's city: minutes after local midnight, and when (UTC ms) their
/// local day began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalTime {
    pub minute_of_day: u32,
    pub day_start_ms: i64,
}

/// `now_ms` in a zone `offset_minutes` from UTC.
pub fn local_time(now_ms: i64, offset_minutes: i32) -> LocalTime {
    let local = now_ms + i64::from(offset_minutes) * MINUTE_MS;
    let into_day = local.rem_euclid(DAY_MS);
    LocalTime {
        minute_of_day: (into_day / MINUTE_MS) as u32,
        day_start_ms: now_ms - into_day,
    }
}

/// Whether a minute of the day is in quiet hours from `start` to `end` (minutes after
/// midnight, end excluded). Over midnight when start > end (22:00–07:00); none when equal.
pub fn in_quiet_hours(minute: u32, start: u32, end: u32) -> bool {
    use std::cmp::Ordering::*;
    match start.cmp(&end) {
        Equal => false,
        Less => minute >= start && minute < end,
        Greater => minute >= start || minute < end,
    }
}

/// A reader's settings as the rules need them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub enabled: bool,
    pub daily_budget: u32,
    pub quiet_start: u32,
    pub quiet_end: u32,
    pub digest_hour: Option<u32>,
}

/// What may go to a reader now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowance {
    /// Up to this many single pushes.
    Singles(u32),
    /// Their daily digest is due.
    Digest,
    /// Nothing now: why.
    Nothing(Hold),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    Off,
    Quiet,
    BudgetSpent,
    /// A digest reader outside their hour, or whose digest went out today.
    NotDigestTime,
}

/// What a reader may get at local time `at`, having had `singles_today` single pushes and
/// `digests_today` digest stories since their local midnight. A digest reader gets one
/// digest a day, in the hour they chose (quiet hours do not hold back the hour they
/// picked themselves); everyone else gets single pushes outside quiet hours until the
/// day's budget is spent.
pub fn allowance(b: Budget, at: LocalTime, singles_today: u32, digests_today: u32) -> Allowance {
    if !b.enabled {
        return Allowance::Nothing(Hold::Off);
    }
    if let Some(hour) = b.digest_hour {
        return if at.minute_of_day / 60 == hour && digests_today == 0 {
            Allowance::Digest
        } else {
            Allowance::Nothing(Hold::NotDigestTime)
        };
    }
    if in_quiet_hours(at.minute_of_day, b.quiet_start, b.quiet_end) {
        return Allowance::Nothing(Hold::Quiet);
    }
    match b.daily_budget.saturating_sub(singles_today) {
        0 => Allowance::Nothing(Hold::BudgetSpent),
        n => Allowance::Singles(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3_600_000;

    fn budget() -> Budget {
        Budget {
            enabled: true,
            daily_budget: 3,
            quiet_start: 22 * 60,
            quiet_end: 7 * 60,
            digest_hour: None,
        }
    }

    #[test]
    fn d311_publisher_diversity_and_recency_make_a_story_breaking() {
        let now = 1_760_000_000_000;
        let two_publishers = StorySignals {
            size: 2,
            publishers: 2,
            newest_ms: now,
        };
        let one_publisher_repeating = StorySignals {
            size: 2,
            publishers: 1,
            newest_ms: now,
        };
        assert!(is_breaking(story_score(two_publishers, now)));
        assert!(!is_breaking(story_score(one_publisher_repeating, now)));
        assert!(
            is_breaking(reader_score(story_score(one_publisher_repeating, now), true)),
            "a followed publisher or topic weighs more"
        );
        let old = story_score(two_publishers, now + 6 * H);
        assert!(
            (old - story_score(two_publishers, now) / 2.0).abs() < 1e-9,
            "halves in 6 h"
        );
        assert_eq!(story_score(two_publishers, now + 13 * H), 0.0, "past 12 h: never");
    }

    #[test]
    fn d313_quiet_hours_hold_on_both_sides_of_midnight() {
        for m in [22 * 60, 23 * 60 + 59, 0, 3 * 60, 7 * 60 - 1] {
            assert!(in_quiet_hours(m, 22 * 60, 7 * 60), "{m}");
        }
        for m in [7 * 60, 12 * 60, 22 * 60 - 1] {
            assert!(!in_quiet_hours(m, 22 * 60, 7 * 60), "{m}");
        }
        assert!(in_quiet_hours(13 * 60, 12 * 60, 14 * 60), "within a day");
        assert!(!in_quiet_hours(14 * 60, 12 * 60, 14 * 60));
        assert!(!in_quiet_hours(5, 300, 300), "equal: no quiet hours");
    }

    #[test]
    fn d313_the_local_day_and_minute_follow_the_zone_offset() {
        // 2025-10-09T03:30Z: 23:30 the day before in New York (-4 h), 05:30 at UTC+2.
        let now = 1_759_980_600_000;
        let ny = local_time(now, -240);
        assert_eq!(ny.minute_of_day, 23 * 60 + 30);
        assert_eq!(ny.day_start_ms, now - (23 * 60 + 30) * 60_000);
        let east = local_time(now, 120);
        assert_eq!(east.minute_of_day, 5 * 60 + 30);
        assert_eq!(local_time(now, -210).minute_of_day, 0, "St. John's: midnight");
    }

    #[test]
    fn d313_the_budget_counts_single_pushes_of_the_local_day() {
        let noon = LocalTime {
            minute_of_day: 12 * 60,
            day_start_ms: 0,
        };
        assert_eq!(allowance(budget(), noon, 0, 0), Allowance::Singles(3));
        assert_eq!(allowance(budget(), noon, 2, 0), Allowance::Singles(1));
        assert_eq!(allowance(budget(), noon, 3, 0), Allowance::Nothing(Hold::BudgetSpent));
        let night = LocalTime {
            minute_of_day: 23 * 60,
            day_start_ms: 0,
        };
        assert_eq!(allowance(budget(), night, 0, 0), Allowance::Nothing(Hold::Quiet));
        let off = Budget {
            enabled: false,
            ..budget()
        };
        assert_eq!(allowance(off, noon, 0, 0), Allowance::Nothing(Hold::Off));
    }

    #[test]
    fn d313_a_digest_reader_gets_one_digest_in_their_hour_and_no_single_pushes() {
        let digest = Budget {
            digest_hour: Some(8),
            ..budget()
        };
        let at = |h: u32| LocalTime {
            minute_of_day: h * 60 + 10,
            day_start_ms: 0,
        };
        assert_eq!(allowance(digest, at(8), 0, 0), Allowance::Digest);
        assert_eq!(allowance(digest, at(8), 0, 3), Allowance::Nothing(Hold::NotDigestTime));
        assert_eq!(allowance(digest, at(12), 0, 0), Allowance::Nothing(Hold::NotDigestTime));
        let late = Budget {
            digest_hour: Some(23),
            ..budget()
        };
        assert_eq!(
            allowance(late, at(23), 0, 0),
            Allowance::Digest,
            "their own hour beats quiet hours"
        );
    }
}
