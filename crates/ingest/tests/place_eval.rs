//! Geotagging measured on the team's labelled set (data/eval, not the demo corpus):
//! city-level precision and recall, printed for the whole set and for each half of the
//! split (data/eval/README.md), with floors on the whole set that keep it from regressing.

mod eval;

use eval::{VIEWS, in_view};
use ingest::place::{PublisherArea, places};

fn key(city: &str, admin: &str, country: &str) -> (String, String, String) {
    let folded = geo::fold(city);
    let folded = match folded.as_str() {
        "new york city" | "nyc" => "new york".to_string(),
        "washington d c" | "washington dc" => "washington".to_string(),
        "quebec city" | "ville de quebec" => "quebec".to_string(),
        "greater sudbury" => "sudbury".to_string(),
        _ => folded,
    };
    (folded, admin.to_string(), country.to_string())
}

#[test]
fn geotagging_precision_and_recall_on_the_labelled_set() {
    let items = eval::load();
    // (true positives, predicted, gold) per item
    let mut counts: Vec<(usize, usize, usize)> = Vec::new();
    // LW_EVAL_PREDICTIONS=FILE writes predictions for the eval's own scorer:
    // python3 data/eval/score.py FILE
    let mut predictions = String::new();
    for entry in &items {
        let item = &entry.json;
        let p = &item["publisher"];
        let area = PublisherArea {
            city: p["city"].as_str().unwrap(),
            admin_code: p["admin_code"].as_str().unwrap(),
            country: p["country"].as_str().unwrap(),
        };
        let cities = places(item["title"].as_str().unwrap(), item["text"].as_str().unwrap(), &area);
        let places_json: Vec<serde_json::Value> = cities
            .iter()
            .map(|c| serde_json::json!({"city": c.name, "admin_code": c.admin_code, "country": c.iso.iso()}))
            .collect();
        predictions.push_str(&serde_json::json!({"id": item["id"], "places": places_json}).to_string());
        predictions.push('\n');
        let got: Vec<_> = cities
            .into_iter()
            .map(|c| key(c.name, c.admin_code, c.iso.iso()))
            .collect();
        let want: Vec<_> = item["gold_places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                key(
                    g["city"].as_str().unwrap(),
                    g["admin_code"].as_str().unwrap(),
                    g["country"].as_str().unwrap(),
                )
            })
            .collect();
        if std::env::var("LW_EVAL_DEBUG").is_ok() {
            for g in got.iter().filter(|g| !want.contains(g)) {
                eprintln!("FP {} {:?} in: {}", item["id"], g, item["title"]);
            }
        }
        let tp = got.iter().filter(|g| want.contains(g)).count();
        counts.push((tp, got.len(), want.len()));
    }
    if let Ok(path) = std::env::var("LW_EVAL_PREDICTIONS") {
        std::fs::write(path, &predictions).unwrap();
    }
    let score = |keep: &dyn Fn(&eval::Item) -> bool| {
        let (mut tp, mut predicted, mut gold, mut n) = (0, 0, 0, 0);
        for (_, c) in items.iter().zip(&counts).filter(|(item, _)| keep(item)) {
            (tp, predicted, gold, n) = (tp + c.0, predicted + c.1, gold + c.2, n + 1);
        }
        let precision = tp as f64 / predicted.max(1) as f64;
        let recall = tp as f64 / gold.max(1) as f64;
        (
            precision,
            recall,
            format!(
                "{n} items): precision {precision:.3}, recall {recall:.3} ({tp} of {gold} gold, {predicted} predicted)"
            ),
        )
    };
    let mut whole = None;
    for (name, view) in VIEWS {
        let (precision, recall, line) = score(&|item| in_view(item, view));
        eprintln!("geotagging on data/eval ({name}, {line}");
        whole.get_or_insert((precision, recall));
    }
    // The news-style items (issue 16, data/eval/README.md) and the set before them.
    let (_, _, line) = score(&|item| !is_news_style(item));
    eprintln!("geotagging on data/eval (e001-e319, {line}");
    let (styles_p, styles_r, line) = score(&is_news_style);
    eprintln!("geotagging on data/eval (news styles e320-, {line}");
    let (precision, recall) = whole.unwrap();
    assert!(
        precision >= FLOOR_P && recall >= FLOOR_R,
        "precision {precision:.3}, recall {recall:.3}"
    );
    assert!(
        styles_p >= FLOOR_STYLES_P && styles_r >= FLOOR_STYLES_R,
        "news styles: precision {styles_p:.3}, recall {styles_r:.3}"
    );
}

/// Items e320 onwards: the news styles issue 16 found missed (AP abbreviations, admin
/// names read as cities, territories, Saint/St., localized admin names, longer names).
fn is_news_style(item: &eval::Item) -> bool {
    item.json["id"]
        .as_str()
        .and_then(|id| id.strip_prefix('e'))
        .and_then(|n| n.parse::<u32>().ok())
        >= Some(320)
}

/// Floors on the whole set, a little under what was measured: 0.907 / 0.904 on e001–e319
/// when issue 3 set precision ≥ 0.9, recall ≥ 0.8 (D61); 0.922 / 0.930 on all 414 items
/// after issue 16's rules (D215). Both on sets the rules were tuned on. The halves are
/// reported, not asserted: the rules were tuned on both, so the "held-out" half is not
/// truly held out for places yet (D71).
const FLOOR_P: f64 = 0.91;
const FLOOR_R: f64 = 0.91;
/// Issue 16's targets on the news-style items are precision ≥ 0.9, recall ≥ 0.85; measured
/// 0.989 / 0.989 (D215; 0.938 / 0.938 on the 15 items written after the rules, when first
/// measured).
const FLOOR_STYLES_P: f64 = 0.95;
const FLOOR_STYLES_R: f64 = 0.95;
