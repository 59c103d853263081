//! The golden test's server half (D230, D424). Each `web/src/test/golden/<case>.json` is
//! what the server gives the renderer for a page (URL, clock, cookies, inlined payload);
//! `<case>.html` beside it is what QuickJS wrote for it. This test fails when QuickJS now
//! writes something else; the web half (`web/src/test/golden/golden.test.tsx`) fails when
//! V8 does, so together they hold the server's engine to the browser's. After a change to a
//! screen: `npm run build` in web/, then `UPDATE_GOLDEN=1 cargo nextest run -p api golden`
//! rewrites the files, then the Vitest half says whether V8 agrees.

use render::{Options, Renderer};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

/// The renderer on the script of the current web build (read from disk, so the test
/// always checks the build beside it).
fn renderer() -> Renderer {
    let path = web_dir().join("dist").join(crate::renderer::SCRIPT);
    let script = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; build the web app first (cd web && npm run build)",
            path.display()
        )
    });
    let options = Options {
        threads: 1,
        queue: 16,
        // A loaded CI machine: the budget is the server's, this is a check of output.
        deadline: Duration::from_secs(10),
        runaway: Duration::from_secs(10),
        memory_limit: crate::renderer::MEMORY_LIMIT,
        warm: Vec::new(),
    };
    Renderer::start(Arc::from(script), options).expect("the renderer starts")
}

#[test]
fn quickjs_writes_the_golden_first_screens() {
    let dir = web_dir().join("src/test/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("web/src/test/golden")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the golden cases: {names:?}");
    let renderer = renderer();
    let mut differ = Vec::new();
    for name in &names {
        let input = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let html = renderer
            .render_blocking(input)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!html.is_empty(), "{name}: no first screen");
        let file = dir.join(format!("{name}.html"));
        if update {
            std::fs::write(&file, &html).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(html.as_str()) {
            differ.push(name.clone());
        }
    }
    assert!(
        differ.is_empty(),
        "QuickJS's first screen differs from web/src/test/golden/<case>.html for {differ:?}. \
         If the screen changed on purpose, run `UPDATE_GOLDEN=1 cargo nextest run -p api golden`, \
         then `npx vitest run src/test/golden` in web/ to check V8 writes the same (D230, D424)."
    );
}

/// A page that is not a success, or has no data, gets no first screen: the app renders
/// its own error or loading state.
#[test]
fn a_page_without_data_gets_no_first_screen() {
    let renderer = renderer();
    let input = |status: u16, data: &str| {
        format!(
            r#"{{"url":"/latest","now_ms":1795000000000,"cookie":"","payload":{{"route":"latest","status":{status},"locale":"en","country":"US","c":null,"build":"","params":{{}},"error":null{data}}}}}"#
        )
    };
    assert_eq!(renderer.render_blocking(input(404, "")).unwrap(), "");
    assert_eq!(renderer.render_blocking(input(200, "")).unwrap(), "");
    let with_data = input(
        200,
        r#","query":{"path":"/api/news/feed","params":{"channel":"latest"}},"data":{"list":[],"next_page_token":""}"#,
    );
    assert!(
        renderer
            .render_blocking(with_data)
            .unwrap()
            .contains(r#"<main id="main""#)
    );
}
