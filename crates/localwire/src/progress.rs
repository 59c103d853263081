//! Progress of the long operator commands (`ingest --once`, `import-opml`, `backup`,
//! `restore`; issue 33): a bar on a terminal, and on anything else (a log, a pipe, cron)
//! a plain line at every tenth of the way, so a log stays readable. Both go to stderr;
//! stdout keeps each command's summary.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// One long task, counted in `unit`s (feeds, publishers, bytes).
pub struct Progress {
    what: &'static str,
    unit: Unit,
    shown: Shown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Feeds,
    Publishers,
    Bytes,
}

enum Shown {
    Bar(ProgressBar),
    Lines(Mutex<Lines>),
}

struct Lines {
    out: Box<dyn Write + Send>,
    done: u64,
    total: u64,
    /// The last tenth a line was written for.
    tenth: u64,
}

impl Progress {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn new(what: &'static str, unit: Unit, total: u64) -> Progress {
        if std::io::stderr().is_terminal() {
            Progress::bar(what, unit, total, ProgressDrawTarget::stderr())
        } else {
            Progress::lines(what, unit, total, Box::new(std::io::stderr()))
        }
    }

    pub fn bar(what: &'static str, unit: Unit, total: u64, target: ProgressDrawTarget) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), target);
        let count = match unit {
            Unit::Bytes => "{bytes}/{total_bytes}",
            Unit::Feeds | Unit::Publishers => "{human_pos}/{human_len} {msg}",
        };
        let template = format!("{{prefix}} [{{bar:30}}] {count} {{percent}}% ({{elapsed}}, {{eta}} left)");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(what);
        if unit != Unit::Bytes {
            bar.set_message(unit.name());
        }
        Progress {
            what,
            unit,
            shown: Shown::Bar(bar),
        }
    }

    pub fn lines(what: &'static str, unit: Unit, total: u64, out: Box<dyn Write + Send>) -> Progress {
        Progress {
            what,
            unit,
            shown: Shown::Lines(Mutex::new(Lines {
                out,
                done: 0,
                total,
                tenth: 0,
            })),
        }
    }

    /// The total is known only now (feeds claimed, a file's size).
    pub fn set_total(&self, total: u64) {
        match &self.shown {
            Shown::Bar(bar) => bar.set_length(total),
            Shown::Lines(lines) => {
                if let Ok(mut l) = lines.lock() {
                    l.total = total;
                }
            }
        }
    }

    /// The task grew by `n` (a round claimed more feeds).
    pub fn grow(&self, n: u64) {
        match &self.shown {
            Shown::Bar(bar) => bar.inc_length(n),
            Shown::Lines(lines) => {
                if let Ok(mut l) = lines.lock() {
                    l.total += n;
                }
            }
        }
    }

    pub fn add(&self, n: u64) {
        match &self.shown {
            Shown::Bar(bar) => bar.inc(n),
            Shown::Lines(lines) => {
                if let Ok(mut l) = lines.lock() {
                    let done = l.done + n;
                    self.lines_to(&mut l, done);
                }
            }
        }
    }

    /// Where the task is, for work measured from outside (bytes a copy has written).
    pub fn set(&self, done: u64) {
        match &self.shown {
            Shown::Bar(bar) => bar.set_position(done),
            Shown::Lines(lines) => {
                if let Ok(mut l) = lines.lock() {
                    self.lines_to(&mut l, done);
                }
            }
        }
    }

    /// Done: the bar is cleared (the command prints its summary); the lines end at 100%.
    pub fn finish(&self) {
        match &self.shown {
            Shown::Bar(bar) => bar.finish_and_clear(),
            Shown::Lines(lines) => {
                if let Ok(mut l) = lines.lock() {
                    let end = l.total.max(l.done);
                    self.lines_to(&mut l, end);
                }
            }
        }
    }

    fn lines_to(&self, l: &mut Lines, done: u64) {
        l.done = done;
        let tenth = (done.saturating_mul(10)).checked_div(l.total).unwrap_or(10).min(10);
        if tenth > l.tenth {
            l.tenth = tenth;
            let (done, total) = match self.unit {
                Unit::Bytes => (mb(done), format!("{} MB", mb(l.total))),
                Unit::Feeds | Unit::Publishers => (done.to_string(), format!("{} {}", l.total, self.unit.name())),
            };
            let _ = writeln!(l.out, "{}: {done}/{total} ({}%)", self.what, tenth * 10);
        }
    }
}

impl Unit {
    fn name(self) -> &'static str {
        match self {
            Unit::Feeds => "feeds",
            Unit::Publishers => "publishers",
            Unit::Bytes => "bytes",
        }
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1_000_000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn off_a_terminal_a_plain_line_at_every_tenth_and_one_at_the_end() {
        let out = Captured::default();
        let p = Progress::lines("ingest", Unit::Feeds, 0, Box::new(out.clone()));
        p.set_total(20);
        for _ in 0..19 {
            p.add(1);
        }
        p.finish();
        let text = out.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10, "{text}");
        assert_eq!(lines[0], "ingest: 2/20 feeds (10%)");
        assert_eq!(lines[4], "ingest: 10/20 feeds (50%)");
        assert_eq!(lines[9], "ingest: 20/20 feeds (100%)");
    }

    #[test]
    fn bytes_are_shown_in_megabytes_and_an_empty_task_ends_at_once() {
        let out = Captured::default();
        let p = Progress::lines("backup", Unit::Bytes, 4_000_000, Box::new(out.clone()));
        p.set(2_100_000);
        assert_eq!(out.text(), "backup: 2.1/4.0 MB (50%)\n");
        let empty = Captured::default();
        let none = Progress::lines("import", Unit::Publishers, 0, Box::new(empty.clone()));
        none.finish();
        assert_eq!(empty.text(), "import: 0/0 publishers (100%)\n");
    }

    #[test]
    fn on_a_terminal_a_bar_with_counts_and_percent() {
        let term = indicatif::InMemoryTerm::new(4, 120);
        let p = Progress::bar(
            "ingest",
            Unit::Feeds,
            40,
            ProgressDrawTarget::term_like(Box::new(term.clone())),
        );
        p.add(10);
        if let Shown::Bar(bar) = &p.shown {
            bar.tick();
        }
        let screen = term.contents();
        assert!(screen.starts_with("ingest [=======>"), "{screen}");
        assert!(screen.contains("10/40 feeds 25%"), "{screen}");
    }
}
