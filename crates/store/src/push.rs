//! Notifications by Web Push (issue 19): the browsers' push subscriptions, each reader's
//! notification settings (budget, quiet hours, switches, digest) and the log of what was
//! sent. All three tables belong to a user and are in [`crate::user_data::USER_TABLES`]:
//! a guest's subscription and settings follow them into their account (D250), and
//! download and deletion cover them.
//!
//! The sent log is keyed by `(user, story)`: a notifier *claims* a story for a reader
//! with an insert that does nothing on a clash before it sends anything, so a story is
//! pushed to a reader at most once, also with several `serve` processes on PostgreSQL
//! (D312).

use std::collections::HashMap;

use async_trait::async_trait;
use domain::ids::{CityId, MediaId, NewsId, UserId};

use crate::Result;
use crate::things::{Cursor, MAX_TEXT_CHARS, Page, Paged};

/// Most push subscriptions (browsers, devices) one reader may have.
pub const MAX_SUBSCRIPTIONS: usize = 20;
/// Longest endpoint URL a push service may hand a browser that we keep.
pub const MAX_ENDPOINT_CHARS: usize = 1024;
/// The daily budget a reader starts with (issue 19: at most 3 pushes a day).
pub const DEFAULT_DAILY_BUDGET: u32 = 3;
/// The largest daily budget a reader may set.
pub const MAX_DAILY_BUDGET: u32 = 24;
/// Quiet hours a reader starts with, in minutes after local midnight: 22:00–07:00.
pub const DEFAULT_QUIET_START: u32 = 22 * 60;
pub const DEFAULT_QUIET_END: u32 = 7 * 60;
/// Most publishers and topics a reader may switch off.
pub const MAX_SWITCHES: usize = 200;

/// A subscription as the browser hands it over (`PushSubscription.toJSON()`), with the
/// reader, their city and language at the time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSubscription {
    pub user: UserId,
    pub endpoint: String,
    /// The browser's P-256 public key, base64url (RFC 8291 `ua_public`).
    pub p256dh: String,
    /// The 16-byte authentication secret, base64url.
    pub auth: String,
    pub city_id: CityId,
    pub lang: String,
}

/// A stored subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscription {
    pub id: i64,
    pub user: UserId,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub city_id: CityId,
    pub lang: String,
    pub created_at_ms: i64,
    /// Failed deliveries in a row (reset by a delivery that works).
    pub failures: i32,
}

/// A reader's notification settings. Times of day are minutes after local midnight in
/// their city's time zone; quiet hours may go over midnight (start > end) and are off
/// when start equals end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationSettings {
    pub enabled: bool,
    pub daily_budget: u32,
    pub quiet_start: u32,
    pub quiet_end: u32,
    /// One digest a day at this local hour instead of single pushes; `None`: single pushes.
    pub digest_hour: Option<u32>,
    /// Publishers switched off.
    pub media_off: Vec<MediaId>,
    /// Topics (tag or category names) switched off.
    pub topics_off: Vec<String>,
}

impl Default for NotificationSettings {
    fn default() -> Self {
        NotificationSettings {
            enabled: true,
            daily_budget: DEFAULT_DAILY_BUDGET,
            quiet_start: DEFAULT_QUIET_START,
            quiet_end: DEFAULT_QUIET_END,
            digest_hour: None,
            media_off: Vec::new(),
            topics_off: Vec::new(),
        }
    }
}

/// Why settings were refused; the API turns each into a message a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsProblem {
    Budget,
    QuietHours,
    DigestHour,
    TooManySwitches,
    TopicText,
}

impl NotificationSettings {
    /// The settings kept within their limits, topics trimmed, switches sorted without
    /// repeats; or what is wrong with them.
    pub fn checked(mut self) -> std::result::Result<NotificationSettings, SettingsProblem> {
        if self.daily_budget > MAX_DAILY_BUDGET {
            return Err(SettingsProblem::Budget);
        }
        if self.quiet_start >= 24 * 60 || self.quiet_end >= 24 * 60 {
            return Err(SettingsProblem::QuietHours);
        }
        if self.digest_hour.is_some_and(|h| h > 23) {
            return Err(SettingsProblem::DigestHour);
        }
        self.media_off.sort();
        self.media_off.dedup();
        let mut topics = Vec::with_capacity(self.topics_off.len());
        for t in &self.topics_off {
            let t = t.trim();
            if t.is_empty() || t.chars().count() > MAX_TEXT_CHARS || t.contains('\n') {
                return Err(SettingsProblem::TopicText);
            }
            topics.push(t.to_string());
        }
        topics.sort();
        topics.dedup();
        self.topics_off = topics;
        if self.media_off.len() > MAX_SWITCHES || self.topics_off.len() > MAX_SWITCHES {
            return Err(SettingsProblem::TooManySwitches);
        }
        Ok(self)
    }

    /// Publishers switched off as stored: ids joined by commas.
    pub fn media_off_text(&self) -> String {
        let ids: Vec<String> = self.media_off.iter().map(|m| m.0.to_string()).collect();
        ids.join(",")
    }

    /// Topics switched off as stored: one a line ([`Self::checked`] refuses line breaks).
    pub fn topics_off_text(&self) -> String {
        self.topics_off.join("\n")
    }

    /// Read back what [`Self::media_off_text`] wrote (anything else is skipped).
    pub fn parse_media_off(text: &str) -> Vec<MediaId> {
        text.split(',')
            .filter_map(|s| s.trim().parse().ok())
            .map(MediaId)
            .collect()
    }

    /// Read back what [`Self::topics_off_text`] wrote.
    pub fn parse_topics_off(text: &str) -> Vec<String> {
        text.split('\n').filter(|s| !s.is_empty()).map(str::to_string).collect()
    }
}

/// A subscription with its reader's settings, as the notifier reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushTarget {
    pub subscription: PushSubscription,
    pub settings: NotificationSettings,
}

/// A story sent to a reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SentPush {
    /// The story: its first stored item, whatever its cluster gained since.
    pub story_id: NewsId,
    /// The item that was pushed.
    pub news_id: NewsId,
    pub sent_at_ms: i64,
    /// Sent as part of the daily digest.
    pub digest: bool,
}

impl SentPush {
    pub fn cursor(&self) -> Cursor {
        Cursor {
            at_ms: self.sent_at_ms,
            id: self.story_id.0,
        }
    }
}

/// What a reader was sent since a time: single pushes, and stories in digests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PushCounts {
    pub singles: u32,
    pub digests: u32,
}

/// What a subscription write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subscribed {
    /// Stored (new, or this reader's again with its keys, city or language changed).
    Stored,
    /// The reader already has [`MAX_SUBSCRIPTIONS`] other subscriptions.
    TooMany,
    /// Another reader holds this endpoint; it is not moved (D356).
    Taken,
}

#[async_trait]
pub trait Notifications: Send + Sync {
    /// Store a subscription. An endpoint is one browser's: this reader's known endpoint
    /// takes its new keys, city and language (its failure count starts over); another
    /// reader's is left alone and answered [`Subscribed::Taken`] (D356). A guest's
    /// endpoints still move with the guest into an account (merge).
    async fn put_push_subscription(&self, sub: &NewSubscription, now_ms: i64) -> Result<Subscribed>;

    /// Remove a reader's subscription by endpoint. `true` when there was one.
    async fn remove_push_subscription(&self, user: UserId, endpoint: &str) -> Result<bool>;

    /// Remove an endpoint whoever has it (the push service said it is gone).
    async fn remove_push_endpoint(&self, endpoint: &str) -> Result<bool>;

    /// Record a delivery: `ok` resets the failure count, otherwise it grows by one.
    /// Returns the count after.
    async fn record_push_delivery(&self, endpoint: &str, ok: bool) -> Result<i32>;

    /// A reader's subscriptions, oldest first.
    async fn push_subscriptions_of(&self, user: UserId) -> Result<Vec<PushSubscription>>;

    /// Subscriptions of one city with their readers' settings (defaults for readers who
    /// never set any), by id after `after_id`, at most `limit`.
    async fn push_targets(&self, city_id: CityId, after_id: i64, limit: u32) -> Result<Vec<PushTarget>>;

    /// The cities that have at least one subscription.
    async fn push_cities(&self) -> Result<Vec<CityId>>;

    /// A reader's settings (the defaults when they never set any).
    async fn notification_settings(&self, user: UserId) -> Result<NotificationSettings>;

    /// Replace a reader's settings (already [`NotificationSettings::checked`]).
    async fn put_notification_settings(&self, user: UserId, settings: &NotificationSettings, now_ms: i64)
    -> Result<()>;

    /// Claim `story` for each reader of `claims`, with the item to push them (an insert
    /// that does nothing when the reader already had the story); returns the readers
    /// claimed now, who are the ones to send to.
    async fn claim_pushes(
        &self,
        story: NewsId,
        claims: &[(UserId, NewsId)],
        now_ms: i64,
        digest: bool,
    ) -> Result<Vec<UserId>>;

    /// Give back a claim whose push was never sent (nothing was delivered).
    async fn release_push(&self, user: UserId, story: NewsId) -> Result<()>;

    /// What each of `users` was sent at or after `since_ms`.
    async fn push_counts(&self, users: &[UserId], since_ms: i64) -> Result<HashMap<UserId, PushCounts>>;

    /// What was sent to a reader, newest first.
    async fn sent_pushes(&self, user: UserId, page: Page) -> Result<Paged<SentPush>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d310_settings_are_checked_trimmed_and_round_trip_as_stored() {
        let s = NotificationSettings {
            media_off: vec![MediaId(3), MediaId(1), MediaId(3)],
            topics_off: vec![" Sports ".into(), "sports".into(), "Sports".into()],
            ..NotificationSettings::default()
        }
        .checked()
        .unwrap();
        assert_eq!(s.media_off, [MediaId(1), MediaId(3)]);
        assert_eq!(s.topics_off, ["Sports", "sports"]);
        assert_eq!(NotificationSettings::parse_media_off(&s.media_off_text()), s.media_off);
        assert_eq!(
            NotificationSettings::parse_topics_off(&s.topics_off_text()),
            s.topics_off
        );
        assert_eq!(NotificationSettings::parse_media_off(""), []);
        assert!(NotificationSettings::parse_topics_off("").is_empty());
        let bad = |f: fn(&mut NotificationSettings)| {
            let mut s = NotificationSettings::default();
            f(&mut s);
            s.checked().unwrap_err()
        };
        assert_eq!(bad(|s| s.daily_budget = 25), SettingsProblem::Budget);
        assert_eq!(bad(|s| s.quiet_end = 1440), SettingsProblem::QuietHours);
        assert_eq!(bad(|s| s.digest_hour = Some(24)), SettingsProblem::DigestHour);
        assert_eq!(bad(|s| s.topics_off = vec!["a\nb".into()]), SettingsProblem::TopicText);
        assert_eq!(bad(|s| s.topics_off = vec!["  ".into()]), SettingsProblem::TopicText);
        assert_eq!(
            bad(|s| s.media_off = (0..201).map(MediaId).collect()),
            SettingsProblem::TooManySwitches
        );
    }
}
