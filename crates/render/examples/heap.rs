//! The heap a script takes in QuickJS once evaluated and after renders of an input file:
//! `cargo run --release -p render --example heap -- SCRIPT INPUT`.
use rquickjs::{Context, Runtime};

fn main() {
    let mut args = std::env::args().skip(1);
    let script = std::fs::read_to_string(args.next().expect("script")).expect("read script");
    let input = std::fs::read_to_string(args.next().expect("input")).expect("read input");
    let runtime = Runtime::new().expect("runtime");
    let context = Context::full(&runtime).expect("context");
    let show = |label: &str| {
        let m = runtime.memory_usage();
        println!(
            "{label}: malloc {:.1} MB, objects {}, atoms {}",
            m.malloc_size as f64 / 1e6,
            m.obj_count,
            m.atom_count
        );
    };
    show("empty");
    context.with(|ctx| {
        ctx.eval::<(), _>(script.as_bytes()).expect("eval");
    });
    runtime.run_gc();
    show("script");
    let renderer = render::Renderer::start(
        script.into(),
        render::Options {
            threads: 1,
            queue: 1,
            deadline: std::time::Duration::from_secs(5),
            runaway: std::time::Duration::from_secs(5),
            memory_limit: 0,
            warm: vec![],
        },
    )
    .expect("start");
    for _ in 0..5 {
        renderer.render_blocking(input.clone()).expect("render");
    }
    let started = std::time::Instant::now();
    for _ in 0..50 {
        renderer.render_blocking(input.clone()).expect("render");
    }
    println!("render: {:.1} ms each", started.elapsed().as_secs_f64() * 1000.0 / 50.0);
}
