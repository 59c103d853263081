//! The labelled set in data/eval and its deterministic split (data/eval/README.md, "Halves"):
//! an item is in the tuning half when FNV-1a 32 of its `gold_cluster` is even, else in the
//! held-out half, so all items about one event fall on the same side.

#![allow(dead_code)]

pub struct Item {
    pub json: serde_json::Value,
    pub half: Half,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    Tune,
    HeldOut,
}

/// The three ways a metric is reported: all items, then each half.
pub const VIEWS: [(&str, Option<Half>); 3] = [
    ("all", None),
    ("tune", Some(Half::Tune)),
    ("held-out", Some(Half::HeldOut)),
];

pub fn in_view(item: &Item, view: Option<Half>) -> bool {
    view.is_none_or(|h| h == item.half)
}

pub fn fnv1a32(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in text.as_bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

pub fn half(gold_cluster: &str) -> Half {
    if fnv1a32(gold_cluster).is_multiple_of(2) {
        Half::Tune
    } else {
        Half::HeldOut
    }
}

pub fn load() -> Vec<Item> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/eval/geotag-cluster.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let json: serde_json::Value = serde_json::from_str(line).unwrap();
            let half = half(json["gold_cluster"].as_str().unwrap());
            Item { json, half }
        })
        .collect()
}
