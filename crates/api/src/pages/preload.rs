//! What a page asks the browser to fetch before the app runs (D147).
//!
//! The app loads in steps: its entry script, then the locale's messages and the route's
//! screen, each only once the step before has run. On a slow phone each step costs a
//! round trip, and the first paint waits for all of them. Vite's build manifest
//! (`web/dist/.vite/manifest.json`, embedded, never served) names every chunk, so each
//! page's head can list the chunks its screen and locale need as `modulepreload` links
//! (and the screen's styles as `preload`), fetched in parallel with the entry.

use crate::assets::WebDist;
use domain::locale::Locale;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};

const MANIFEST: &str = ".vite/manifest.json";
const SCREENS: &str = "src/routes/screens/";

#[derive(Deserialize)]
struct Chunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default, rename = "isEntry")]
    is_entry: bool,
}

/// The head links of every screen and locale, written once at start-up.
#[derive(Default)]
pub struct Preloads {
    screens: HashMap<String, String>,
    locales: HashMap<&'static str, String>,
    entry: String,
}

impl Preloads {
    pub fn load() -> Preloads {
        match WebDist::get(MANIFEST) {
            Some(file) => Preloads::from_manifest(&file.data).unwrap_or_else(|e| {
                tracing::error!(error = %e, "the web build's manifest is unreadable; pages preload nothing");
                Preloads::default()
            }),
            None => Preloads::default(),
        }
    }

    fn from_manifest(json: &[u8]) -> Result<Preloads, serde_json::Error> {
        let chunks: HashMap<String, Chunk> = serde_json::from_slice(json)?;
        // What the entry script loads anyway needs no second mention.
        let mut loaded = BTreeSet::new();
        let mut entry = String::new();
        for (key, chunk) in &chunks {
            if chunk.is_entry {
                closure(&chunks, key, &mut loaded);
                entry = module_link(&chunk.file);
            }
        }
        let links = |key: &str| -> String {
            let mut files = BTreeSet::new();
            closure(&chunks, key, &mut files);
            let mut out = String::new();
            // Styles first: the screen cannot paint without them. Fetched only: the app
            // applies them after its own styles, in the order the cascade expects.
            for file in files.iter().filter(|f| f.ends_with(".css") && !loaded.contains(*f)) {
                out.push_str(&format!(
                    r#"<link rel="preload" as="style" crossorigin href="/{file}">"#
                ));
            }
            for file in files.iter().filter(|f| f.ends_with(".js") && !loaded.contains(*f)) {
                out.push_str(&module_link(file));
            }
            out
        };
        let screens = chunks
            .keys()
            .filter_map(|key| {
                let name = key.strip_prefix(SCREENS)?.strip_suffix(".tsx")?;
                Some((name.to_string(), links(key)))
            })
            .collect();
        let locales = Locale::ALL
            .into_iter()
            .map(|l| (l.code(), links(&format!("src/i18n/{}.json", l.code()))))
            .collect();
        Ok(Preloads {
            screens,
            locales,
            entry,
        })
    }

    /// The links for a page of `route` (a route name, or none for a 404) in `locale`:
    /// the entry first, then the locale's messages, then the screen's chunks.
    pub fn head(&self, route: Option<&str>, locale: Locale) -> String {
        let mut out = self.entry.clone();
        if let Some(links) = self.locales.get(locale.code()) {
            out.push_str(links);
        }
        if let Some(links) = route.and_then(|r| self.screens.get(r)) {
            out.push_str(links);
        }
        out
    }
}

fn module_link(file: &str) -> String {
    format!(r#"<link rel="modulepreload" crossorigin href="/{file}">"#)
}

/// `key`'s file, css and static imports, recursively (dynamic imports load later).
fn closure(chunks: &HashMap<String, Chunk>, key: &str, out: &mut BTreeSet<String>) {
    let Some(chunk) = chunks.get(key) else { return };
    if !out.insert(chunk.file.clone()) {
        return;
    }
    out.extend(chunk.css.iter().cloned());
    for import in &chunk.imports {
        closure(chunks, import, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"{
      "index.html": {"file": "assets/index-A.js", "isEntry": true, "imports": ["_shared-B.js"],
                     "css": ["assets/index-A.css"], "dynamicImports": ["src/routes/screens/home.tsx"]},
      "_shared-B.js": {"file": "assets/shared-B.js"},
      "_card-C.js": {"file": "assets/card-C.js", "imports": ["_shared-B.js"], "css": ["assets/card-C.css"]},
      "src/routes/screens/home.tsx": {"file": "assets/home-D.js", "imports": ["_card-C.js", "_shared-B.js"],
                     "isDynamicEntry": true},
      "src/i18n/fr.json": {"file": "assets/fr-E.js", "isDynamicEntry": true}
    }"#;

    #[test]
    fn a_screen_preloads_its_chunks_and_styles_but_not_what_the_entry_loads() {
        let p = Preloads::from_manifest(MANIFEST.as_bytes()).unwrap();
        assert_eq!(
            p.head(Some("home"), Locale::Fr),
            concat!(
                r#"<link rel="modulepreload" crossorigin href="/assets/index-A.js">"#,
                r#"<link rel="modulepreload" crossorigin href="/assets/fr-E.js">"#,
                r#"<link rel="preload" as="style" crossorigin href="/assets/card-C.css">"#,
                r#"<link rel="modulepreload" crossorigin href="/assets/card-C.js">"#,
                r#"<link rel="modulepreload" crossorigin href="/assets/home-D.js">"#,
            )
        );
    }

    #[test]
    fn unknown_screens_and_locales_preload_only_the_entry() {
        let p = Preloads::from_manifest(MANIFEST.as_bytes()).unwrap();
        assert_eq!(
            p.head(None, Locale::En),
            r#"<link rel="modulepreload" crossorigin href="/assets/index-A.js">"#
        );
        assert_eq!(Preloads::default().head(Some("home"), Locale::En), "");
    }

    #[test]
    fn a_broken_manifest_is_an_error_not_a_panic() {
        assert!(Preloads::from_manifest(b"{not json").is_err());
    }
}
