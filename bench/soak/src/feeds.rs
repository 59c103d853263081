//! Loopback publishers: `GET /feed/{i}.xml` is publisher i's RSS feed, which gains an item
//! every few minutes while the soak runs, so `serve`'s ingestion has new stories to fetch,
//! clean, place and cluster the whole time. A city's publishers fall in groups of about six
//! (a city's paper, TV and radio newsrooms covering the same beat); a group writes about the
//! same event in the same ten minutes, so stories cluster across publishers, as a local story
//! does, and some become breaking news for the notifier. Deterministic: an item is a function
//! of its publisher, its number and the soak's start.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// (city, state or province, country, language of its publishers).
pub const CITIES: &[(&str, &str, &str, &str)] = &[
    ("Portland", "OR", "US", "en"),
    ("Austin", "TX", "US", "en"),
    ("Denver", "CO", "US", "en"),
    ("Boston", "MA", "US", "en"),
    ("Seattle", "WA", "US", "en"),
    ("Chicago", "IL", "US", "en"),
    ("Miami", "FL", "US", "es"),
    ("El Paso", "TX", "US", "es"),
    ("Phoenix", "AZ", "US", "en"),
    ("Nashville", "TN", "US", "en"),
    ("Toronto", "ON", "CA", "en"),
    ("Vancouver", "BC", "CA", "en"),
    ("Calgary", "AB", "CA", "en"),
    ("Halifax", "NS", "CA", "en"),
    ("Montréal", "QC", "CA", "fr"),
    ("Québec", "QC", "CA", "fr"),
];

const TOPICS_EN: &[&str] = &[
    "council budget vote",
    "school board meeting",
    "transit fare increase",
    "river flood warning",
    "downtown housing plan",
    "hospital expansion",
    "wildfire smoke advisory",
    "police chief search",
    "library renovation",
    "stadium funding deal",
    "water main break",
    "snow removal crews",
    "farmers market opening",
    "bridge repair closure",
    "teachers contract talks",
    "election turnout",
];
const TOPICS_ES: &[&str] = &[
    "presupuesto del concejo",
    "reunión de la junta escolar",
    "aumento de tarifas del tránsito",
    "alerta de inundación",
    "plan de vivienda en el centro",
    "ampliación del hospital",
    "cierre del puente",
    "contrato de maestros",
];
const TOPICS_FR: &[&str] = &[
    "budget du conseil municipal",
    "réunion du conseil scolaire",
    "hausse des tarifs du transport",
    "avis d'inondation",
    "plan de logement au centre-ville",
    "agrandissement de l'hôpital",
    "fermeture du pont",
    "négociations des enseignants",
];

/// Minutes of news each feed already holds when the soak starts.
const ITEMS_SHOWN: u64 = 20;
/// Events in one city last this long: items of one city in the same slot tell one story.
const SLOT_MS: u64 = 10 * 60_000;

pub struct Publishers {
    pub count: usize,
    /// Items are numbered from here (ms since the epoch): item k of publisher i is published
    /// at `epoch + offset(i) + k * gap(i)`.
    epoch_ms: u64,
    /// Feed requests answered.
    pub fetches: AtomicU64,
}

impl Publishers {
    pub fn new(count: usize, now_ms: u64) -> Publishers {
        // Every feed holds about ITEMS_SHOWN items at the start.
        Publishers {
            count,
            epoch_ms: now_ms - ITEMS_SHOWN * max_gap_ms(),
            fetches: AtomicU64::new(0),
        }
    }

    pub fn city(&self, i: usize) -> (&'static str, &'static str, &'static str, &'static str) {
        CITIES[i % CITIES.len()]
    }

    /// The OPML listing every publisher with its city and language.
    pub fn opml(&self, base_url: &str) -> String {
        let mut out = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\" xmlns:localwire=\"https://localwire.invalid/ns/opml\">\n<head><title>Soak publishers</title></head>\n<body>\n",
        );
        for i in 0..self.count {
            let (city, state, country, lang) = self.city(i);
            out.push_str(&format!(
                "<outline type=\"rss\" text=\"{city} Courier {i}\" title=\"{city} Courier {i}\" xmlUrl=\"{base_url}/feed/{i}.xml\" htmlUrl=\"{base_url}/site/{i}\" localwire:country=\"{country}\" localwire:state=\"{state}\" localwire:city=\"{city}\" localwire:lang=\"{lang}\"/>\n"
            ));
        }
        out.push_str("</body>\n</opml>\n");
        out
    }

    fn rss(&self, i: usize, base_url: &str, now_ms: u64) -> String {
        let (city, _, _, lang) = self.city(i);
        let gap = gap_ms(i);
        let newest = (now_ms.saturating_sub(self.epoch_ms + offset_ms(i))) / gap;
        let oldest = newest.saturating_sub(ITEMS_SHOWN - 1);
        let mut items = String::new();
        for k in (oldest..=newest).rev() {
            let published = self.epoch_ms + offset_ms(i) + k * gap;
            let slot = published / SLOT_MS;
            let topic = topic(lang, city, slot, beat(i));
            // A story's items share its city, its topic and its own case number; the rest of
            // the text is the item's own, so different stories of one city stay apart. The
            // number matters: a city's name is in every story of the city, so clustering
            // counts it as a plain word (D152), and items join only on an anchor that is
            // rarer, as a name or a number in a real story is.
            let case = 1000 + mix(slot ^ (beat(i) << 40) ^ mix(city.len() as u64 ^ (i % CITIES.len()) as u64)) % 9000;
            let words = filler(i as u64, k);
            let title = match lang {
                "es" | "fr" => format!("{city} : {topic} ({case})"),
                _ => format!("{city} {topic} ({case})"),
            };
            let body = format!(
                "<p><strong>{city}</strong> {topic}, {case}.</p><p>{words} (<a href=\"{base_url}/site/{i}/{k}\">more</a>).</p>"
            );
            items.push_str(&format!(
                "<item><title>{}</title><link>{base_url}/site/{i}/{k}</link><guid>{base_url}/site/{i}/{k}</guid><pubDate>{}</pubDate><description>{}</description></item>\n",
                escape(&title),
                rfc2822(published),
                escape(&body)
            ));
        }
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>{city} Courier {i}</title><link>{base_url}/site/{i}</link><description>News of {city}</description><language>{lang}</language>\n{items}</channel></rss>\n"
        )
    }
}

/// Publishers post every 2 to 5 minutes, so `serve` polls each every 5 minutes (its
/// shortest interval) and finds one to three new items each time.
fn gap_ms(i: usize) -> u64 {
    120_000 + (mix(i as u64) % 180_000)
}

fn max_gap_ms() -> u64 {
    300_000
}

fn offset_ms(i: usize) -> u64 {
    mix(i as u64 ^ 0x5bd1_e995) % 120_000
}

/// Words every item draws a few of, so items share little beyond their story's topic.
const FILLER: &[&str] = &[
    "morning",
    "evening",
    "weekend",
    "neighbors",
    "volunteers",
    "downtown",
    "district",
    "parents",
    "students",
    "drivers",
    "merchants",
    "crews",
    "survey",
    "petition",
    "hearing",
    "forecast",
    "schedule",
    "detour",
    "funding",
    "proposal",
    "inspection",
    "permit",
    "audit",
    "grant",
    "ordinance",
    "staffing",
    "shelter",
    "pantry",
    "clinic",
    "museum",
    "harbor",
    "airport",
    "ballot",
    "zoning",
    "recycling",
    "sidewalk",
    "lighting",
    "garden",
    "festival",
    "parade",
];

fn filler(publisher: u64, item: u64) -> String {
    let mut h = mix(publisher << 32 ^ item);
    let mut out = Vec::with_capacity(6);
    for _ in 0..6 {
        out.push(FILLER[(h % FILLER.len() as u64) as usize]);
        h = mix(h);
    }
    out.join(" ")
}

/// Publishers per beat: a story is covered by about this many of a city's publishers.
const PER_BEAT: usize = 6;

/// Which of its city's beats publisher i covers.
fn beat(i: usize) -> u64 {
    (i / CITIES.len() / PER_BEAT) as u64
}

fn topic(lang: &str, city: &str, slot: u64, beat: u64) -> &'static str {
    let list = match lang {
        "es" => TOPICS_ES,
        "fr" => TOPICS_FR,
        _ => TOPICS_EN,
    };
    let h = city
        .bytes()
        .fold(mix(slot ^ (beat << 40)), |h, b| mix(h ^ u64::from(b)));
    list[(h % list.len() as u64) as usize]
}

/// SplitMix64's finaliser: a cheap, well-spread hash of a number.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn rfc2822(ms: u64) -> String {
    fake_providers::feed_date::rfc2822(ms / 1000)
}

/// Serve the feeds on a loopback port; answers the base URL.
pub async fn serve(publishers: Arc<Publishers>) -> anyhow::Result<String> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    let state = (publishers, base_url.clone());
    let app = Router::new().route("/feed/{file}", get(feed)).with_state(state);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(base_url)
}

async fn feed(State((publishers, base_url)): State<(Arc<Publishers>, String)>, Path(file): Path<String>) -> Response {
    let Some(i) = file.strip_suffix(".xml").and_then(|n| n.parse::<usize>().ok()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if i >= publishers.count {
        return StatusCode::NOT_FOUND.into_response();
    }
    publishers.fetches.fetch_add(1, Ordering::Relaxed);
    let body = publishers.rss(i, &base_url, crate::now_ms());
    ([(header::CONTENT_TYPE, "application/rss+xml; charset=utf-8")], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_holds_the_items_published_so_far() {
        let p = Publishers::new(3, 1_795_000_000_000);
        let now = 1_795_000_000_000;
        let feed = p.rss(1, "http://x", now);
        let items = feed.matches("<item>").count();
        assert!((10..=20).contains(&items), "{items}");
        let later = p.rss(1, "http://x", now + 10 * 60_000);
        assert_ne!(feed, later, "ten minutes later the feed has news");
    }
}
