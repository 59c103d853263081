//! Request counters and latency histograms, rendered in the Prometheus text format
//! at `/metrics`. Plain atomics: cheap enough for every request.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const KINDS: [&str; 4] = ["api", "page", "asset", "other"];
const CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];
/// Upper bounds in seconds.
const BUCKETS: [f64; 10] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5];

#[derive(Default)]
pub struct Metrics {
    requests: [[AtomicU64; 5]; 4],
    buckets: [[AtomicU64; 10]; 4],
    /// Sum of durations in microseconds.
    sum_us: [AtomicU64; 4],
    count: [AtomicU64; 4],
    /// Public read answers served from the read cache, and made (D140).
    read_cache: [AtomicU64; 3],
    /// Requests handed to the app, and answers it made: equal once the server has
    /// stopped, unless a request was dropped unanswered (D398).
    started: AtomicU64,
    answered: AtomicU64,
}

fn kind_of(path: &str) -> usize {
    if path.starts_with("/api/") || path == "/api" {
        0
    } else if path.starts_with("/assets/") || path.starts_with("/static/") {
        2
    } else if path == "/metrics" || path == "/healthz" || path.starts_with("/_app/") {
        3
    } else {
        1
    }
}

impl Metrics {
    pub fn record(&self, path: &str, status: u16, seconds: f64) {
        self.record_kind(kind_of(path), status, seconds);
    }

    fn record_kind(&self, k: usize, status: u16, seconds: f64) {
        let class = usize::from(status / 100).clamp(1, 5) - 1;
        self.requests[k][class].fetch_add(1, Relaxed);
        if let Some(b) = BUCKETS.iter().position(|le| seconds <= *le) {
            self.buckets[k][b].fetch_add(1, Relaxed);
        }
        // Saturating float-to-int conversion is the intent here.
        self.sum_us[k].fetch_add((seconds * 1e6) as u64, Relaxed);
        self.count[k].fetch_add(1, Relaxed);
    }

    pub fn read_cache(&self, lookup: crate::read_cache::Lookup) {
        let i = match lookup {
            crate::read_cache::Lookup::Hit => 0,
            crate::read_cache::Lookup::Stale => 1,
            crate::read_cache::Lookup::Miss => 2,
        };
        self.read_cache[i].fetch_add(1, Relaxed);
    }

    /// (requests handed to the app, answers it made) since the start.
    pub fn started_and_answered(&self) -> (u64, u64) {
        (self.started.load(Relaxed), self.answered.load(Relaxed))
    }

    pub fn render(&self, build_id: &str, engine: &str) -> String {
        let mut out = String::with_capacity(4096);
        out.push_str("# HELP localwire_build_info Build id of the embedded web app and the storage engine.\n");
        out.push_str("# TYPE localwire_build_info gauge\n");
        out.push_str(&format!(
            "localwire_build_info{{build_id=\"{build_id}\",engine=\"{engine}\"}} 1\n"
        ));
        out.push_str("# HELP localwire_http_requests_total HTTP requests by kind and status class.\n");
        out.push_str("# TYPE localwire_http_requests_total counter\n");
        for (k, kind) in KINDS.iter().enumerate() {
            for (c, class) in CLASSES.iter().enumerate() {
                let n = self.requests[k][c].load(Relaxed);
                out.push_str(&format!(
                    "localwire_http_requests_total{{kind=\"{kind}\",status=\"{class}\"}} {n}\n"
                ));
            }
        }
        out.push_str("# HELP localwire_http_request_duration_seconds Time to answer, by kind.\n");
        out.push_str("# TYPE localwire_http_request_duration_seconds histogram\n");
        for (k, kind) in KINDS.iter().enumerate() {
            let mut cumulative = 0;
            for (b, le) in BUCKETS.iter().enumerate() {
                cumulative += self.buckets[k][b].load(Relaxed);
                out.push_str(&format!(
                    "localwire_http_request_duration_seconds_bucket{{kind=\"{kind}\",le=\"{le}\"}} {cumulative}\n"
                ));
            }
            let count = self.count[k].load(Relaxed);
            let sum = self.sum_us[k].load(Relaxed) as f64 / 1e6;
            out.push_str(&format!(
                "localwire_http_request_duration_seconds_bucket{{kind=\"{kind}\",le=\"+Inf\"}} {count}\n"
            ));
            out.push_str(&format!(
                "localwire_http_request_duration_seconds_sum{{kind=\"{kind}\"}} {sum}\n"
            ));
            out.push_str(&format!(
                "localwire_http_request_duration_seconds_count{{kind=\"{kind}\"}} {count}\n"
            ));
        }
        out.push_str(
            "# HELP localwire_read_cache_total Public read answers served from memory (hit), served stale while another request makes the new one (stale), or made (miss).\n",
        );
        out.push_str("# TYPE localwire_read_cache_total counter\n");
        for (i, result) in ["hit", "stale", "miss"].iter().enumerate() {
            let n = self.read_cache[i].load(Relaxed);
            out.push_str(&format!("localwire_read_cache_total{{result=\"{result}\"}} {n}\n"));
        }
        let (started, answered) = self.started_and_answered();
        out.push_str("# HELP localwire_http_requests_in_flight Requests being answered now.\n");
        out.push_str("# TYPE localwire_http_requests_in_flight gauge\n");
        out.push_str(&format!(
            "localwire_http_requests_in_flight {}\n",
            started.saturating_sub(answered)
        ));
        out
    }
}

/// A request handed to the app, counted as answered when this is dropped: answered,
/// panicked (the panic layer answers it) or dropped with its connection alike, so the
/// in-flight gauge never creeps (D398). The gate (`call_limit::layer`) holds one per request.
pub struct Ended<'a>(&'a Metrics);

impl Metrics {
    pub fn start(&self) -> Ended<'_> {
        self.started.fetch_add(1, Relaxed);
        Ended(self)
    }
}

impl Drop for Ended<'_> {
    fn drop(&mut self) {
        self.0.answered.fetch_add(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_kind_and_class_and_renders_prometheus_text() {
        let m = Metrics::default();
        m.record("/api/user/init", 200, 0.0007);
        m.record("/api/nope", 404, 0.0001);
        m.record("/latest", 200, 0.003);
        m.read_cache(crate::read_cache::Lookup::Hit);
        m.read_cache(crate::read_cache::Lookup::Hit);
        let text = m.render("abc", "sqlite");
        assert!(text.contains("localwire_http_requests_total{kind=\"api\",status=\"2xx\"} 1\n"));
        assert!(text.contains("localwire_http_requests_total{kind=\"api\",status=\"4xx\"} 1\n"));
        assert!(text.contains("localwire_http_requests_total{kind=\"page\",status=\"2xx\"} 1\n"));
        assert!(text.contains("localwire_http_request_duration_seconds_bucket{kind=\"api\",le=\"0.001\"} 2\n"));
        assert!(text.contains("localwire_http_request_duration_seconds_count{kind=\"page\"} 1\n"));
        assert!(text.contains("build_id=\"abc\""));
        assert!(text.contains("localwire_read_cache_total{result=\"hit\"} 2\n"));
        assert!(text.contains("localwire_read_cache_total{result=\"miss\"} 0\n"));
    }
}
