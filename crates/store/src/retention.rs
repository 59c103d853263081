//! Story retention (D414). Stories are kept for ever by default: an article from a year
//! ago still opens. An operator who wants less sets a number of days; stories published
//! before that are deleted in steps, except stories some reader saved.

use crate::Result;
use crate::Store;
use crate::content::After;
use domain::ids::NewsId;
use std::num::NonZeroU32;

const DAY_MS: i64 = 86_400_000;

/// Stories deleted per transaction: a step holds the content writer for milliseconds,
/// so ingestion and reads go on between steps.
pub const PRUNE_STEP: i64 = 1_000;

/// How long stories are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StoryRetention {
    /// Every story stays (the default).
    #[default]
    KeepAll,
    /// Stories published more than this many days ago go.
    Days(NonZeroU32),
}

impl StoryRetention {
    /// 0 keeps every story.
    pub fn from_days(days: u32) -> StoryRetention {
        NonZeroU32::new(days).map_or(StoryRetention::KeepAll, StoryRetention::Days)
    }

    /// Stories published before this are past the retention at `now_ms`; None keeps all.
    pub fn cut_ms(self, now_ms: i64) -> Option<i64> {
        match self {
            StoryRetention::KeepAll => None,
            StoryRetention::Days(days) => Some(now_ms.saturating_sub(i64::from(days.get()) * DAY_MS)),
        }
    }
}

/// Delete the stories published before `cut_ms`, oldest first, [`PRUNE_STEP`] at a time;
/// a story some reader saved stays (their saved list would lose it otherwise). How many
/// went. A story saved while this runs may still go: the saved list then leaves it out,
/// as it does for a story whose feed was removed.
pub async fn prune_stories(store: &dyn Store, cut_ms: i64) -> Result<u64> {
    let saved = store.saved_by_anyone().await?;
    let mut after: Option<After> = None;
    let mut deleted = 0;
    loop {
        let step = store.published_before(cut_ms, after, PRUNE_STEP).await?;
        let Some(last) = step.last() else { break };
        after = Some(*last);
        let ids: Vec<NewsId> = step
            .iter()
            .map(|k| k.news_id)
            .filter(|id| !saved.contains(id))
            .collect();
        if !ids.is_empty() {
            deleted += store.delete_news(&ids).await?;
        }
        if (step.len() as i64) < PRUNE_STEP {
            break;
        }
    }
    Ok(deleted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_days_keeps_every_story_and_days_cut_that_many_days_back() {
        assert_eq!(StoryRetention::from_days(0), StoryRetention::KeepAll);
        assert_eq!(StoryRetention::from_days(0).cut_ms(10 * DAY_MS), None);
        assert_eq!(StoryRetention::from_days(3).cut_ms(10 * DAY_MS), Some(7 * DAY_MS));
    }
}
