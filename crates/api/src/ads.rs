//! The operator's ad client (issue 21, SPEC §9.2 "ad-client id: configured, not
//! reproduced", §3.17 ad events, §9 default adn_id 37; D345).
//!
//! Off unless the operator names a file with `--ads` / `LOCALWIRE_ADS`. The file lists
//! text ads only (sponsor, title, an https link): the app renders them itself, so nothing
//! third-party is ever loaded into our pages and the CSP stays as it is. The file is read
//! and checked once at start; a bad one stops the start with the field to fix.

use domain::locale::Locale;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// Where a creative may show: in feed lists or below an article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    Feed,
    Article,
}

/// The operator's ad client, as `GET /api/app/config` gives it to the app.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AdClient {
    /// The operator's ad-client id (§9.2).
    pub client_id: String,
    /// Sent with should_show, ping_back and ad_click (§9: default 37).
    pub adn_id: i64,
    /// At least one.
    pub creatives: Vec<Creative>,
}

/// One text ad: a sponsor, a title and the address it links to.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Creative {
    /// Unique in the file.
    pub id: String,
    pub placement: Placement,
    /// The operator's rule that chose this creative (§3.17 rule id).
    pub rule_id: String,
    pub sponsor: String,
    pub title: String,
    /// An absolute `https://` address.
    pub url: String,
    /// Reported with ping_back and ad_click (§3.17).
    pub revenue: f64,
    pub floor_price: f64,
    /// The locales it shows in (`en`, `es`, `fr`); all of them when the file gives none.
    pub langs: Vec<String>,
}

/// What is wrong with the file, naming the field (`creatives[2].url`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} {problem}")]
pub struct AdClientError {
    pub field: String,
    pub problem: String,
}

fn bad(field: impl Into<String>, problem: impl Into<String>) -> AdClientError {
    AdClientError {
        field: field.into(),
        problem: problem.into(),
    }
}

/// The longest text a field may hold: an ad is a line, not an article.
const MAX_TEXT: usize = 200;

fn only_fields(obj: &Map<String, Value>, at: &str, allowed: &[&str]) -> Result<(), AdClientError> {
    match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(bad(
            format!("{at}{k}"),
            format!("is not a field here (the fields are {})", allowed.join(", ")),
        )),
        None => Ok(()),
    }
}

fn text(obj: &Map<String, Value>, at: &str, name: &str) -> Result<String, AdClientError> {
    let field = format!("{at}{name}");
    match obj.get(name) {
        None | Some(Value::Null) => Err(bad(field, "is missing")),
        Some(Value::String(s)) => {
            let s = s.trim();
            if s.is_empty() {
                Err(bad(field, "is empty"))
            } else if s.chars().count() > MAX_TEXT {
                Err(bad(field, format!("is longer than {MAX_TEXT} characters")))
            } else {
                Ok(s.to_string())
            }
        }
        Some(_) => Err(bad(field, "must be a string")),
    }
}

fn money(obj: &Map<String, Value>, at: &str, name: &str) -> Result<f64, AdClientError> {
    let field = format!("{at}{name}");
    match obj.get(name) {
        None | Some(Value::Null) => Err(bad(field, "is missing")),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(bad(field, "must be a number of 0 or more")),
        },
        Some(_) => Err(bad(field, "must be a number of 0 or more, e.g. 0.12")),
    }
}

fn https_url(obj: &Map<String, Value>, at: &str) -> Result<String, AdClientError> {
    let raw = text(obj, at, "url")?;
    let field = format!("{at}url");
    let parsed = url::Url::parse(&raw).map_err(|e| bad(&field, format!("is not an address: {e}")))?;
    if parsed.scheme() != "https" || parsed.host_str().is_none_or(str::is_empty) {
        return Err(bad(field, "must be an absolute https:// address"));
    }
    Ok(raw)
}

fn langs(obj: &Map<String, Value>, at: &str) -> Result<Vec<String>, AdClientError> {
    let field = format!("{at}langs");
    let all = || Locale::ALL.iter().map(|l| l.code().to_string()).collect();
    match obj.get("langs") {
        None | Some(Value::Null) => Ok(all()),
        Some(Value::Array(list)) if list.is_empty() => Err(bad(field, "is empty (leave it out for every language)")),
        Some(Value::Array(list)) => {
            let mut out: Vec<String> = Vec::new();
            for (i, v) in list.iter().enumerate() {
                let code = v
                    .as_str()
                    .and_then(Locale::from_code)
                    .ok_or_else(|| bad(format!("{field}[{i}]"), "must be \"en\", \"es\" or \"fr\""))?;
                if !out.iter().any(|c| c == code.code()) {
                    out.push(code.code().to_string());
                }
            }
            Ok(out)
        }
        Some(_) => Err(bad(field, "must be a list such as [\"en\", \"fr\"]")),
    }
}

fn creative(v: &Value, i: usize) -> Result<Creative, AdClientError> {
    let at = format!("creatives[{i}].");
    let obj = v
        .as_object()
        .ok_or_else(|| bad(format!("creatives[{i}]"), "must be an object"))?;
    only_fields(
        obj,
        &at,
        &[
            "id",
            "placement",
            "rule_id",
            "sponsor",
            "title",
            "url",
            "revenue",
            "floor_price",
            "langs",
        ],
    )?;
    let id = text(obj, &at, "id")?;
    let placement = match text(obj, &at, "placement")?.as_str() {
        "feed" => Placement::Feed,
        "article" => Placement::Article,
        _ => return Err(bad(format!("{at}placement"), "must be \"feed\" or \"article\"")),
    };
    Ok(Creative {
        id,
        placement,
        rule_id: text(obj, &at, "rule_id")?,
        sponsor: text(obj, &at, "sponsor")?,
        title: text(obj, &at, "title")?,
        url: https_url(obj, &at)?,
        revenue: money(obj, &at, "revenue")?,
        floor_price: money(obj, &at, "floor_price")?,
        langs: langs(obj, &at)?,
    })
}

/// Reads and checks the operator's ad-client file (D345).
pub fn parse_ad_client(json: &str) -> Result<AdClient, AdClientError> {
    let value: Value = serde_json::from_str(json).map_err(|e| bad("the file", format!("is not JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| bad("the file", "must be a JSON object {client_id, adn_id, creatives}"))?;
    only_fields(obj, "", &["client_id", "adn_id", "creatives"])?;
    let client_id = text(obj, "", "client_id")?;
    let adn_id = match obj.get("adn_id") {
        None | Some(Value::Null) => domain::report::RULES.adn_id,
        Some(v) => v
            .as_i64()
            .filter(|n| *n >= 0)
            .ok_or_else(|| bad("adn_id", "must be a whole number of 0 or more (default 37)"))?,
    };
    let list = match obj.get("creatives") {
        None | Some(Value::Null) => return Err(bad("creatives", "is missing")),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(bad("creatives", "must be a list")),
    };
    if list.is_empty() {
        return Err(bad("creatives", "must list at least one creative"));
    }
    let mut creatives: Vec<Creative> = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let c = creative(v, i)?;
        if creatives.iter().any(|o| o.id == c.id) {
            return Err(bad(format!("creatives[{i}].id"), format!("\"{}\" is used twice", c.id)));
        }
        creatives.push(c);
    }
    Ok(AdClient {
        client_id,
        adn_id,
        creatives,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn good() -> Value {
        json!({
            "client_id": "ca-pub-local-1",
            "creatives": [
                {"id": "c1", "placement": "feed", "rule_id": "r-feed", "sponsor": "Main St Bakery",
                 "title": "Fresh bread every morning", "url": "https://bakery.example/",
                 "revenue": 0.12, "floor_price": 0.05},
                {"id": "c2", "placement": "article", "rule_id": "r-art", "sponsor": "Boulangerie",
                 "title": "Du pain frais", "url": "https://boulangerie.example/fr",
                 "revenue": 1, "floor_price": 0, "langs": ["fr", "fr"]}
            ]
        })
    }

    fn parse(v: &Value) -> Result<AdClient, AdClientError> {
        parse_ad_client(&v.to_string())
    }

    fn problem(v: Value) -> String {
        parse(&v).expect_err("refused").to_string()
    }

    #[test]
    fn d345_a_good_file_reads_with_adn_id_37_and_every_language_by_default() {
        let ads = parse(&good()).unwrap();
        assert_eq!(ads.client_id, "ca-pub-local-1");
        assert_eq!(ads.adn_id, 37, "SPEC §9 default adn_id 37");
        assert_eq!(ads.creatives.len(), 2);
        let c = &ads.creatives[0];
        assert_eq!(
            (c.placement, c.rule_id.as_str(), c.revenue, c.floor_price),
            (Placement::Feed, "r-feed", 0.12, 0.05)
        );
        assert_eq!(c.langs, ["en", "es", "fr"]);
        assert_eq!(ads.creatives[1].placement, Placement::Article);
        assert_eq!(ads.creatives[1].langs, ["fr"]);
        let mut v = good();
        v["adn_id"] = json!(52);
        assert_eq!(parse(&v).unwrap().adn_id, 52);
        let out = serde_json::to_value(parse(&good()).unwrap()).unwrap();
        assert_eq!(out["creatives"][1]["placement"], "article");
    }

    #[test]
    fn d345_a_missing_field_is_named() {
        let mut v = good();
        v.as_object_mut().unwrap().remove("client_id");
        assert_eq!(problem(v), "client_id is missing");
        let mut v = good();
        v["creatives"][1].as_object_mut().unwrap().remove("rule_id");
        assert_eq!(problem(v), "creatives[1].rule_id is missing");
        let mut v = good();
        v.as_object_mut().unwrap().remove("creatives");
        assert_eq!(problem(v), "creatives is missing");
        let mut v = good();
        v["creatives"] = json!([]);
        assert_eq!(problem(v), "creatives must list at least one creative");
        let mut v = good();
        v["creatives"][0]["title"] = json!("  ");
        assert_eq!(problem(v), "creatives[0].title is empty");
    }

    #[test]
    fn d345_a_bad_placement_is_named() {
        let mut v = good();
        v["creatives"][0]["placement"] = json!("sidebar");
        assert_eq!(problem(v), "creatives[0].placement must be \"feed\" or \"article\"");
    }

    #[test]
    fn d345_links_must_be_https() {
        for url in [
            "http://bakery.example/",
            "javascript:alert(1)",
            "//bakery.example/",
            "bakery.example",
        ] {
            let mut v = good();
            v["creatives"][1]["url"] = json!(url);
            assert!(problem(v).starts_with("creatives[1].url "), "{url}");
        }
        let mut v = good();
        v["creatives"][1]["url"] = json!("http://bakery.example/");
        assert_eq!(problem(v), "creatives[1].url must be an absolute https:// address");
    }

    #[test]
    fn d345_a_bad_number_is_named() {
        for (field, value) in [
            ("revenue", json!("0.12")),
            ("revenue", json!(-1)),
            ("floor_price", json!(true)),
        ] {
            let mut v = good();
            v["creatives"][0][field] = value;
            assert!(
                problem(v).starts_with(&format!("creatives[0].{field} must be a number")),
                "{field}"
            );
        }
        let mut v = good();
        v["adn_id"] = json!(3.5);
        assert_eq!(problem(v), "adn_id must be a whole number of 0 or more (default 37)");
    }

    #[test]
    fn d345_other_mistakes_are_named_too() {
        assert!(
            parse_ad_client("{")
                .unwrap_err()
                .to_string()
                .starts_with("the file is not JSON")
        );
        let mut v = good();
        v["creatives"][0]["titel"] = json!("x");
        assert!(problem(v).starts_with("creatives[0].titel is not a field here"));
        let mut v = good();
        v["creatives"][1]["langs"] = json!(["de"]);
        assert_eq!(problem(v), "creatives[1].langs[0] must be \"en\", \"es\" or \"fr\"");
        let mut v = good();
        v["creatives"][1]["id"] = json!("c1");
        assert_eq!(problem(v), "creatives[1].id \"c1\" is used twice");
    }
}
