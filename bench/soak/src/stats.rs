//! Latency per kind of call, in windows of time, and every answer that was not a success.

use std::sync::Mutex;
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Init,
    Info,
    Latest,
    Top,
    Local,
    Category,
    Publisher,
    Detail,
    Search,
    Save,
    Unsave,
    SavedList,
    React,
    Follow,
    Unfollow,
    Block,
    Unblock,
    Report,
    PushSettings,
    PushOn,
    PushOff,
}

pub const KINDS: [Kind; 21] = [
    Kind::Init,
    Kind::Info,
    Kind::Latest,
    Kind::Top,
    Kind::Local,
    Kind::Category,
    Kind::Publisher,
    Kind::Detail,
    Kind::Search,
    Kind::Save,
    Kind::Unsave,
    Kind::SavedList,
    Kind::React,
    Kind::Follow,
    Kind::Unfollow,
    Kind::Block,
    Kind::Unblock,
    Kind::Report,
    Kind::PushSettings,
    Kind::PushOn,
    Kind::PushOff,
];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Init => "guest init",
            Kind::Info => "user info",
            Kind::Latest => "feed: latest",
            Kind::Top => "feed: top",
            Kind::Local => "feed: local",
            Kind::Category => "feed: category",
            Kind::Publisher => "feed: publisher",
            Kind::Detail => "article detail",
            Kind::Search => "search",
            Kind::Save => "save",
            Kind::Unsave => "unsave",
            Kind::SavedList => "saved list",
            Kind::React => "reaction",
            Kind::Follow => "follow",
            Kind::Unfollow => "unfollow",
            Kind::Block => "block",
            Kind::Unblock => "unblock",
            Kind::Report => "report",
            Kind::PushSettings => "push settings",
            Kind::PushOn => "push subscribe",
            Kind::PushOff => "push unsubscribe",
        }
    }

    fn index(self) -> usize {
        KINDS.iter().position(|k| *k == self).unwrap_or(0)
    }
}

/// One window's calls of one kind.
#[derive(Default, Clone)]
pub struct KindWindow {
    /// Microseconds of every answered call (successes and errors).
    pub micros: Vec<u32>,
    pub ok: u64,
    pub limited: u64,
    pub failed: u64,
}

impl KindWindow {
    /// The q-quantile in milliseconds (nearest rank), sorting in place.
    pub fn quantile_ms(&mut self, q: f64) -> f64 {
        if self.micros.is_empty() {
            return 0.0;
        }
        self.micros.sort_unstable();
        let rank = ((q * self.micros.len() as f64).ceil() as usize).clamp(1, self.micros.len());
        f64::from(self.micros[rank - 1]) / 1000.0
    }

    pub fn calls(&self) -> u64 {
        self.ok + self.limited + self.failed
    }

    pub fn absorb(&mut self, other: &KindWindow) {
        self.micros.extend_from_slice(&other.micros);
        self.ok += other.ok;
        self.limited += other.limited;
        self.failed += other.failed;
    }
}

/// First failures kept word for word for the report.
const KEEP_FAILURES: usize = 30;

pub struct Stats {
    current: Mutex<Vec<KindWindow>>,
    pub failures: Mutex<Vec<String>>,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            current: Mutex::new(vec![KindWindow::default(); KINDS.len()]),
            failures: Mutex::default(),
        }
    }
}

impl Stats {
    /// `Err(None)`: a 429; `Err(Some(why))`: anything else that was not a success.
    pub fn record(&self, kind: Kind, started: Instant, outcome: &Result<(), Option<String>>) {
        let micros = started.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        if let Ok(mut windows) = self.current.lock() {
            let w = &mut windows[kind.index()];
            w.micros.push(micros);
            match outcome {
                Ok(()) => w.ok += 1,
                Err(None) => w.limited += 1,
                Err(Some(_)) => w.failed += 1,
            }
        }
        if let Err(Some(why)) = outcome
            && let Ok(mut failures) = self.failures.lock()
            && failures.len() < KEEP_FAILURES
        {
            failures.push(format!("{}: {why}", kind.name()));
        }
    }

    /// The window so far, starting a new one.
    pub fn take(&self) -> Vec<KindWindow> {
        match self.current.lock() {
            Ok(mut windows) => std::mem::replace(&mut *windows, vec![KindWindow::default(); KINDS.len()]),
            Err(_) => vec![KindWindow::default(); KINDS.len()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let mut w = KindWindow {
            micros: (1..=100).map(|i| i * 1000).collect(),
            ..KindWindow::default()
        };
        assert_eq!(w.quantile_ms(0.5), 50.0);
        assert_eq!(w.quantile_ms(0.99), 99.0);
        assert_eq!(KindWindow::default().quantile_ms(0.99), 0.0);
    }
}
