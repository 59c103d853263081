//! What a page's app needs, named in its head (D147, D156).
//!
//! The app loads in steps: its entry script, then the locale's messages and the route's
//! screen, each only once the step before has run. On a slow phone each step costs a
//! round trip. Vite's build manifest (`web/dist/.vite/manifest.json`, embedded, never
//! served) names every chunk, so each page's head lists what its screen and locale need:
//! the screen's styles as stylesheets (the server-written first screen paints with them),
//! and the scripts in `<meta name="lw-load">`, which the boot script (`web/src/boot.ts`)
//! starts fetching, all in parallel, once that first screen has painted.

use crate::assets::WebDist;
use domain::locale::Locale;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};

const MANIFEST: &str = ".vite/manifest.json";
const SCREENS: &str = "src/routes/screens/";
/// The app's entry in the manifest (the boot script is an entry too).
const APP_ENTRY: &str = "index.html";

#[derive(Deserialize)]
struct Chunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    css: Vec<String>,
}

/// A screen's or locale's files beyond what the entry loads itself.
#[derive(Default)]
struct Files {
    styles: Vec<String>,
    scripts: Vec<String>,
}

/// The head lines of every screen and locale, found once at start-up.
#[derive(Default)]
pub struct Preloads {
    screens: HashMap<String, Files>,
    locales: HashMap<&'static str, Files>,
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
        closure(&chunks, APP_ENTRY, &mut loaded);
        let entry = chunks
            .get(APP_ENTRY)
            .map(|c| format!("/{}", c.file))
            .unwrap_or_default();
        let files = |key: &str| -> Files {
            let mut all = BTreeSet::new();
            closure(&chunks, key, &mut all);
            let new = |ext: &str| -> Vec<String> {
                all.iter()
                    .filter(|f| f.ends_with(ext) && !loaded.contains(*f))
                    .map(|f| format!("/{f}"))
                    .collect()
            };
            Files {
                styles: new(".css"),
                scripts: new(".js"),
            }
        };
        let screens = chunks
            .keys()
            .filter_map(|key| {
                let name = key.strip_prefix(SCREENS)?.strip_suffix(".tsx")?;
                Some((name.to_string(), files(key)))
            })
            .collect();
        let locales = Locale::ALL
            .into_iter()
            .map(|l| (l.code(), files(&format!("src/i18n/{}.json", l.code()))))
            .collect();
        Ok(Preloads {
            screens,
            locales,
            entry,
        })
    }

    /// The head lines for a page of `route` (a route name, or none for a 404) in
    /// `locale`: the screen's stylesheets, then the scripts for the boot script to load
    /// (the entry first, then the locale's messages, then the screen's chunks).
    pub fn head(&self, route: Option<&str>, locale: Locale) -> String {
        let screen = route.and_then(|r| self.screens.get(r));
        let messages = self.locales.get(locale.code());
        let mut out = String::new();
        for file in screen.map_or(&[][..], |f| &f.styles) {
            // The app's own loader finds these by href and does not add them again.
            out.push_str(&format!(r#"<link rel="stylesheet" crossorigin href="{file}">"#));
        }
        if self.entry.is_empty() {
            return out;
        }
        let scripts: Vec<&str> = std::iter::once(self.entry.as_str())
            .chain(messages.into_iter().flat_map(|f| f.scripts.iter().map(String::as_str)))
            .chain(screen.into_iter().flat_map(|f| f.scripts.iter().map(String::as_str)))
            .collect();
        out.push_str(&format!(r#"<meta name="lw-load" content="{}">"#, scripts.join(" ")));
        out
    }
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
      "src/boot.ts": {"file": "assets/boot-F.js", "isEntry": true},
      "_shared-B.js": {"file": "assets/shared-B.js"},
      "_card-C.js": {"file": "assets/card-C.js", "imports": ["_shared-B.js"], "css": ["assets/card-C.css"]},
      "src/routes/screens/home.tsx": {"file": "assets/home-D.js", "imports": ["_card-C.js", "_shared-B.js"],
                     "isDynamicEntry": true},
      "src/i18n/fr.json": {"file": "assets/fr-E.js", "isDynamicEntry": true}
    }"#;

    #[test]
    fn a_screen_links_its_styles_and_names_its_scripts_for_the_boot_script() {
        let p = Preloads::from_manifest(MANIFEST.as_bytes()).unwrap();
        assert_eq!(
            p.head(Some("home"), Locale::Fr),
            concat!(
                r#"<link rel="stylesheet" crossorigin href="/assets/card-C.css">"#,
                r#"<meta name="lw-load" content="/assets/index-A.js /assets/fr-E.js /assets/card-C.js /assets/home-D.js">"#,
            )
        );
    }

    #[test]
    fn unknown_screens_and_locales_load_only_the_entry() {
        let p = Preloads::from_manifest(MANIFEST.as_bytes()).unwrap();
        assert_eq!(
            p.head(None, Locale::En),
            r#"<meta name="lw-load" content="/assets/index-A.js">"#
        );
        assert_eq!(Preloads::default().head(Some("home"), Locale::En), "");
    }

    #[test]
    fn a_broken_manifest_is_an_error_not_a_panic() {
        assert!(Preloads::from_manifest(b"{not json").is_err());
    }
}
