//! Measures what the crate doc quotes: RSS growth over 2,000 renders with and without a
//! `run_gc` after each, and the time of a trivial render through the pool.
//! `cargo run --release -p render --example measure` (Linux: RSS from /proc).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rquickjs::function::This;
use rquickjs::{Context, Function, Object, Runtime};

/// A render that leaves cycles behind, as React's fibers do (child ↔ parent links), so
/// reference counting alone cannot free them.
const CYCLIC_SCRIPT: &str = r#"
globalThis.SSR = { render(s) {
  const root = { tag: 'div', children: [] };
  for (let i = 0; i < 200; i++) {
    root.children.push({ tag: 'p', text: s + i, parent: root });
  }
  return Promise.resolve(root.children.map((c) => '<p>' + c.text + '</p>').join(''));
} };
"#;

const TRIVIAL_SCRIPT: &str = "globalThis.SSR = { render: (s) => Promise.resolve('<p>' + s + '</p>') };";

const RENDERS: usize = 2_000;

fn rss_kb() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|field| field.parse().ok())
        .unwrap_or(0);
    pages * 4
}

/// Renders `RENDERS` times on one runtime; returns (RSS growth KB, heap bytes, time).
fn direct(script: &str, gc_each: bool) -> (i64, i64, Duration) {
    let runtime = Runtime::new().expect("runtime");
    let context = Context::full(&runtime).expect("context");
    context.with(|ctx| ctx.eval::<(), _>(script).expect("script"));
    let render_once = |i: usize| {
        let promise = context.with(|ctx| {
            let ssr: Object = ctx.globals().get("SSR").expect("SSR");
            let render: Function = ssr.get("render").expect("render");
            let value: rquickjs::Value = render.call((This(ssr), format!("item {i}"))).expect("call");
            rquickjs::Persistent::save(&ctx, value.into_promise().expect("promise"))
        });
        while runtime.execute_pending_job().expect("job") {}
        context.with(|ctx| {
            let promise = promise.restore(&ctx).expect("restore");
            let html: String = promise.result().expect("settled").expect("html");
            html.len()
        });
        if gc_each {
            runtime.run_gc();
        }
    };
    // The first renders grow the heap to its working size; count from after them.
    for i in 0..50 {
        render_once(i);
    }
    let (rss_before, heap_before) = (rss_kb(), runtime.memory_usage().malloc_size);
    let started = Instant::now();
    for i in 0..RENDERS {
        render_once(i);
    }
    let took = started.elapsed();
    let heap_after = runtime.memory_usage().malloc_size;
    (rss_kb() as i64 - rss_before as i64, heap_after - heap_before, took)
}

fn main() {
    for (name, script) in [("trivial", TRIVIAL_SCRIPT), ("cyclic", CYCLIC_SCRIPT)] {
        for gc_each in [false, true] {
            let (rss, heap, took) = direct(script, gc_each);
            println!(
                "{name:8} run_gc each: {gc_each:5}  RSS growth {rss:6} KB  heap growth {:6} KB  {:.1} µs/render",
                heap / 1024,
                took.as_secs_f64() * 1e6 / RENDERS as f64
            );
        }
    }

    let renderer = render::Renderer::start(
        Arc::from(TRIVIAL_SCRIPT),
        render::Options {
            threads: 1,
            deadline: Duration::from_secs(1),
            runaway: Duration::from_secs(1),
            ..render::Options::default()
        },
    )
    .expect("pool");
    let started = Instant::now();
    for i in 0..RENDERS {
        renderer.render_blocking(format!("item {i}")).expect("render");
    }
    println!(
        "pool     trivial render_blocking round trip: {:.1} µs/render",
        started.elapsed().as_secs_f64() * 1e6 / RENDERS as f64
    );
}
