//! The OpenAPI document, generated from the handlers' annotations.

use crate::encrypted_answers::FIELD;
use utoipa::openapi::path::Operation;
use utoipa::openapi::{OpenApi as Document, RefOr};
use utoipa::{OpenApi, ToSchema};

/// Documented on every signed operation; `signed.rs` parses the headers into it.
pub use crate::signed::SignedHeaders;

#[derive(OpenApi)]
#[openapi(
    info(title = "Localwire API", description = "Every answer is an envelope `{code, data, message}`; code 0 means ok, \
        otherwise code is the HTTP status. Non-GET calls are signed (headers base, timestamp, nonce, sign, token). \
        When the server runs with `--encrypt-responses`, a successful non-GET answer carries its data encrypted in \
        `edata` instead (schema EncryptedAnswer)."),
    components(schemas(EncryptedAnswer)),
    tags((name = "user", description = "Guest identity, sessions, location"),
        (name = "reader", description = "The reader's own things: saved stories, history, reactions, followed and blocked publishers (guests too)"),
        (name = "app", description = "Start-up configuration"),
        (name = "geo", description = "Countries and cities"),
        (name = "news", description = "News feeds, items, publishers and categories (public, cacheable)"),
        (name = "search", description = "News and publisher search (public, cacheable)"),
        (name = "history", description = "Today in history from Wikipedia's on-this-day feed (public, cacheable)"),
        (name = "weather", description = "The forecast for a city (public, cacheable; Open-Meteo data)"),
        (name = "notifications", description = "Web Push: this server's key, subscriptions, the reader's notification budget and what was sent (guests too)"),
        (name = "report", description = "Usage and page-view reports (unsigned so a beacon can send them; rate limited per address)"),
        (name = "admin", description = "The operator's views: usage and its export, the feeds (accounts listed in --admin-emails)"))
)]
pub struct ApiDoc;

/// A successful non-GET answer when the server runs with `--encrypt-responses`
/// (`LOCALWIRE_ENCRYPT_RESPONSES`; SPEC §7.22, D220): `data` is null and the data travels
/// in `edata`, base64url without padding of nonce (12 bytes) ‖ ciphertext ‖ tag (16
/// bytes), AES-256-GCM over the JSON text of the data, no associated data, with the key
/// SHA-256("localwire-response-key" + sign word). The sign word is in every page, so this
/// is an anti-scraping measure, not a security boundary. Error answers (code ≠ 0) and GET
/// answers are never encrypted.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct EncryptedAnswer {
    /// Always 0: only successes are encrypted.
    code: i32,
    /// Always null: the data is in `edata`.
    #[schema(value_type = Option<Object>)]
    data: (),
    /// base64url(nonce ‖ ciphertext ‖ tag); decrypts to the JSON the `data` field would hold.
    edata: String,
    /// "ok".
    message: String,
}

/// Say on every non-GET operation's success answer that its data may come encrypted (D220).
pub fn describe_encrypted_answers(doc: &mut Document) {
    let note = format!(
        " With `--encrypt-responses`, `data` is null and the data is encrypted in `{FIELD}` \
         (schema EncryptedAnswer)."
    );
    for item in doc.paths.paths.values_mut() {
        let non_get = [&mut item.post, &mut item.put, &mut item.patch, &mut item.delete];
        for operation in non_get.into_iter().flatten() {
            note_on_success(operation, &note);
        }
    }
}

fn note_on_success(operation: &mut Operation, note: &str) {
    if let Some(RefOr::T(answer)) = operation.responses.responses.get_mut("200") {
        answer.description.push_str(note);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    #[test]
    fn spec_7_22_the_document_describes_the_encrypted_field_on_non_get_answers() {
        let doc: Value = serde_json::from_str(crate::openapi_json()).expect("json");
        let schema = &doc["components"]["schemas"]["EncryptedAnswer"];
        assert!(schema["properties"]["edata"].is_object(), "{schema}");
        assert!(schema["properties"]["data"].is_object(), "{schema}");
        let text = schema["description"].as_str().unwrap_or_default();
        assert!(
            text.contains("AES-256-GCM") && text.contains("not a security boundary"),
            "{text}"
        );
        for path in [
            "/api/user/init",
            "/api/user/info",
            "/api/user/logout",
            "/api/user/location/update",
        ] {
            let answer = doc["paths"][path]["post"]["responses"]["200"]["description"]
                .as_str()
                .unwrap_or_default();
            assert!(
                answer.contains("`edata`") && answer.contains("EncryptedAnswer"),
                "{path}: {answer}"
            );
        }
        let feed = doc["paths"]["/api/news/feed"]["get"]["responses"]["200"]["description"]
            .as_str()
            .unwrap_or_default();
        assert!(!feed.contains("edata"), "GET answers are never encrypted: {feed}");
    }
}
