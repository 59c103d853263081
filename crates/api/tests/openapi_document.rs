//! The web app's API types are generated from a committed copy of `/api/openapi.json`
//! (web/src/lib/api/openapi.json → schema.d.ts, D240). This test keeps that copy equal to
//! the document the server serves, so a changed shape cannot reach the app unnoticed.

use std::path::PathBuf;

fn committed_copy() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/src/lib/api/openapi.json")
}

#[test]
fn openapi_document_matches_the_committed_copy() {
    let served = format!("{}\n", api::openapi_json());
    let path = committed_copy();
    if std::env::var_os("UPDATE_OPENAPI").is_some_and(|v| v == "1") {
        std::fs::write(&path, &served).expect("write the committed copy");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == served,
        "web/src/lib/api/openapi.json differs from the document the server serves.\n\
         Refresh it and the web app's types, then commit both:\n  \
         UPDATE_OPENAPI=1 cargo nextest run --release -p api openapi_document_matches_the_committed_copy\n  \
         (cd web && npm run api-types)"
    );
}
