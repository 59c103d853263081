//! Geotagging measured on the team's labelled set (data/eval, not the demo corpus):
//! city-level precision and recall, printed, with floors that keep it from regressing.

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
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/eval/geotag-cluster.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut tp, mut predicted, mut gold) = (0usize, 0usize, 0usize);
    // LW_EVAL_PREDICTIONS=FILE writes predictions for the eval's own scorer:
    // python3 data/eval/score.py FILE
    let mut predictions = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let item: serde_json::Value = serde_json::from_str(line).unwrap();
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
        tp += got.iter().filter(|g| want.contains(g)).count();
        predicted += got.len();
        gold += want.len();
    }
    if let Ok(path) = std::env::var("LW_EVAL_PREDICTIONS") {
        std::fs::write(path, &predictions).unwrap();
    }
    let precision = tp as f64 / predicted.max(1) as f64;
    let recall = tp as f64 / gold.max(1) as f64;
    eprintln!(
        "geotagging on data/eval: precision {precision:.3}, recall {recall:.3} ({tp} of {gold} gold, {predicted} predicted)"
    );
    assert!(
        precision >= FLOOR_P && recall >= FLOOR_R,
        "precision {precision:.3}, recall {recall:.3}"
    );
}

/// Issue 3's targets: city precision ≥ 0.9, recall ≥ 0.8. Measured when written:
/// 0.907 / 0.904 — on the same set the rules were tuned on (see docs/decisions.md D61).
const FLOOR_P: f64 = 0.90;
const FLOOR_R: f64 = 0.80;
