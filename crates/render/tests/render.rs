//! The pool against small inline scripts that stand in for the SSR bundle.

use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use render::{Options, RenderError, Renderer};

const PROMISE_SCRIPT: &str = "globalThis.SSR = { render: (s) => Promise.resolve('<p>' + s + '</p>') };";

/// A `setTimeout` polyfill whose zero-delay timers run only through `__tick`, as the
/// bundle's does; the render resolves after two timer rounds and a promise between.
const TICK_SCRIPT: &str = r#"
const timers = [];
globalThis.setTimeout = (f) => { timers.push(f); return timers.length; };
globalThis.__tick = () => {
  if (timers.length === 0) return false;
  for (const f of timers.splice(0)) f();
  return true;
};
globalThis.SSR = {
  render: (s) => new Promise((resolve) => setTimeout(resolve, 0))
    .then(() => new Promise((resolve) => setTimeout(() => resolve('<p>' + s + '</p>'), 0))),
};
"#;

/// Different inputs behave differently, so one pool covers a failure and the render
/// after it on the same thread.
const MISBEHAVING_SCRIPT: &str = r#"
globalThis.SSR = {
  render(s) {
    if (s === 'loop') { for (;;) {} }
    if (s === 'hog') { const a = []; for (;;) { a.push('x'.repeat(100000) + a.length); } }
    if (s === 'throw') { throw new Error('boom in render'); }
    if (s === 'reject') { return Promise.reject(new Error('boom in promise')); }
    if (s === 'pending') { return new Promise(() => {}); }
    if (s === 'flood') { const again = () => Promise.resolve().then(again); again(); return new Promise(() => {}); }
    if (s === 'nothing') { return undefined; }
    if (s.startsWith('slow')) { const end = Date.now() + 400; while (Date.now() < end) {} }
    return '<p>' + s + '</p>';
  },
};
"#;

fn options(threads: usize, queue: usize, deadline_ms: u64) -> Options {
    Options {
        threads,
        queue,
        deadline: Duration::from_millis(deadline_ms),
        runaway: Duration::from_millis(deadline_ms),
        memory_limit: 32 * 1024 * 1024,
        warm: Vec::new(),
    }
}

fn start(script: &str, options: Options) -> Renderer {
    Renderer::start(Arc::from(script), options).expect("the script starts")
}

fn script_message(result: Result<impl std::fmt::Debug, RenderError>) -> String {
    match result {
        Err(RenderError::Script(message)) => message,
        other => panic!("expected a script error, got {other:?}"),
    }
}

#[test]
fn a_promise_render_returns_its_string() {
    let renderer = start(PROMISE_SCRIPT, options(2, 4, 2000));
    assert_eq!(renderer.render_blocking("hi".into()).unwrap(), "<p>hi</p>");
    assert_eq!(renderer.render_blocking("again".into()).unwrap(), "<p>again</p>");
}

#[test]
fn a_render_that_returns_a_plain_string_works() {
    let renderer = start(
        "globalThis.SSR = { render: (s) => s.toUpperCase() };",
        options(1, 1, 2000),
    );
    assert_eq!(renderer.render_blocking("plain".into()).unwrap(), "PLAIN");
}

#[test]
fn a_promise_settled_only_through_tick_resolves() {
    let renderer = start(TICK_SCRIPT, options(1, 1, 2000));
    assert_eq!(renderer.render_blocking("t".into()).unwrap(), "<p>t</p>");
}

#[test]
fn without_tick_a_timer_promise_never_settles() {
    let script = TICK_SCRIPT.replace("globalThis.__tick", "globalThis.__not_tick");
    let renderer = start(&script, options(1, 1, 2000));
    assert_eq!(renderer.render_blocking("t".into()), Err(RenderError::NeverSettles));
}

#[test]
fn a_promise_nothing_will_settle_fails_as_never_settling() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 2000));
    let started = Instant::now();
    assert_eq!(
        renderer.render_blocking("pending".into()),
        Err(RenderError::NeverSettles)
    );
    // Known at once, not at the deadline.
    assert!(started.elapsed() < Duration::from_millis(1000));
    assert_eq!(renderer.render_blocking("ok".into()).unwrap(), "<p>ok</p>");
}

#[test]
fn a_thrown_error_comes_back_with_its_message() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 2000));
    let message = script_message(renderer.render_blocking("throw".into()));
    assert!(message.starts_with("boom in render"), "{message}");
    assert!(message.contains("ssr.js"), "the stack names the script: {message}");
}

#[test]
fn a_rejected_promise_comes_back_with_its_message() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 2000));
    let message = script_message(renderer.render_blocking("reject".into()));
    assert!(message.starts_with("boom in promise"), "{message}");
}

#[test]
fn an_endless_loop_hits_the_deadline_and_the_next_render_on_that_thread_works() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 300));
    let started = Instant::now();
    assert_eq!(renderer.render_blocking("loop".into()), Err(RenderError::Deadline));
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(290), "{took:?}");
    assert!(took < Duration::from_millis(600), "{took:?}");
    assert_eq!(renderer.render_blocking("after".into()).unwrap(), "<p>after</p>");
}

/// Endless microtasks never hang a thread: the render ends (at the deadline, or sooner as
/// never settling: an optimised QuickJS build lets the job chain run dry) and the next
/// render on the same thread works.
#[test]
fn endless_microtasks_end_the_render_and_the_thread_goes_on() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 300));
    let started = Instant::now();
    let outcome = renderer.render_blocking("flood".into());
    assert!(
        matches!(outcome, Err(RenderError::Deadline | RenderError::NeverSettles)),
        "{outcome:?}"
    );
    assert!(started.elapsed() < Duration::from_millis(600));
    assert_eq!(renderer.render_blocking("after".into()).unwrap(), "<p>after</p>");
}

#[test]
fn a_render_that_gives_no_string_is_a_script_error() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 2000));
    let message = script_message(renderer.render_blocking("nothing".into()));
    assert!(message.contains("undefined"), "{message}");
}

#[test]
fn a_memory_hog_runs_out_of_memory_and_the_next_render_works() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 5000));
    assert_eq!(renderer.render_blocking("hog".into()), Err(RenderError::Memory));
    assert_eq!(renderer.render_blocking("after".into()).unwrap(), "<p>after</p>");
}

#[test]
fn a_full_queue_is_busy_at_once() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 3000));
    let running = {
        let renderer = renderer.clone();
        thread::spawn(move || renderer.render_blocking("slow-running".into()))
    };
    // Let the only thread take the slow render, so the next one waits in the queue.
    thread::sleep(Duration::from_millis(150));
    let queued = {
        let renderer = renderer.clone();
        thread::spawn(move || renderer.render_blocking("queued".into()))
    };
    thread::sleep(Duration::from_millis(50));
    let started = Instant::now();
    assert_eq!(renderer.render_blocking("one too many".into()), Err(RenderError::Busy));
    assert!(started.elapsed() < Duration::from_millis(50));
    assert_eq!(running.join().unwrap().unwrap(), "<p>slow-running</p>");
    assert_eq!(queued.join().unwrap().unwrap(), "<p>queued</p>");
}

#[test]
fn a_render_that_waited_past_its_deadline_is_dropped_unrun() {
    // Each fresh runtime counts its renders; its warm render takes 150 ms, so the
    // runtime built again after the slow render's deadline is ready only once the
    // queued render's deadline has passed.
    let script = r#"
        let count = 0;
        const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
        globalThis.SSR = { render(s) {
            count += 1;
            if (s === 'warm') busy(150);
            if (s === 'slow') busy(1000);
            return s + ':' + count;
        } };
    "#;
    let mut options = options(1, 2, 250);
    options.warm = vec!["warm".into()];
    let renderer = start(script, options);
    let slow = {
        let renderer = renderer.clone();
        thread::spawn(move || renderer.render_blocking("slow".into()))
    };
    thread::sleep(Duration::from_millis(50));
    assert_eq!(renderer.render_blocking("late".into()), Err(RenderError::Deadline));
    assert_eq!(slow.join().unwrap(), Err(RenderError::Deadline));
    // The rebuilt runtime ran its warm render and then this one: "late" never ran.
    assert_eq!(renderer.render_blocking("next".into()).unwrap(), "next:2");
}

/// A job taken with less than half its time left is answered unrun, and costs no new
/// engine: the next render runs on the same one (its count goes on).
#[test]
fn a_job_with_less_than_half_its_time_left_is_answered_unrun_on_the_same_engine() {
    let script = r#"
        let count = 0;
        const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
        globalThis.SSR = { render(s) {
            count += 1;
            if (s === 'busy') busy(250);
            return s + ':' + count;
        } };
    "#;
    let renderer = start(script, options(1, 2, 400));
    let busy = {
        let renderer = renderer.clone();
        thread::spawn(move || renderer.render_blocking("busy".into()))
    };
    thread::sleep(Duration::from_millis(20));
    // Taken at about 250 ms of its 400: less than half is left.
    assert_eq!(renderer.render_blocking("late".into()), Err(RenderError::Deadline));
    assert_eq!(busy.join().unwrap().unwrap(), "busy:1");
    assert_eq!(renderer.render_blocking("next".into()).unwrap(), "next:2");
}

/// D427: a render slower than its caller's deadline but within its runaway limit ends on
/// its own: the caller has its answer (Deadline) at the deadline, and the engine is kept
/// (the count goes on), where a stopped render would have cost a new one.
#[test]
fn a_render_past_its_deadline_but_within_its_runaway_limit_keeps_its_engine() {
    let script = r#"
        let count = 0;
        const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
        globalThis.SSR = { render(s) {
            count += 1;
            if (s === 'slow') busy(400);
            return s + ':' + count;
        } };
    "#;
    let mut options = options(1, 1, 200);
    options.runaway = Duration::from_millis(2000);
    let renderer = start(script, options);
    let started = Instant::now();
    assert_eq!(renderer.render_blocking("slow".into()), Err(RenderError::Deadline));
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(350),
        "the caller stops waiting at the deadline: {took:?}"
    );
    // Waits for the slow render to end on the only thread.
    thread::sleep(Duration::from_millis(300));
    assert_eq!(renderer.render_blocking("next".into()).unwrap(), "next:2");
}

/// A render that never settles leaves its work behind: its engine is replaced, so the
/// next render starts clean (the count starts over).
#[test]
fn a_render_that_never_settles_gets_a_fresh_engine_after_it() {
    let script = r#"
        let count = 0;
        globalThis.SSR = { render(s) {
            count += 1;
            if (s === 'pending') return new Promise(() => {});
            return s + ':' + count;
        } };
    "#;
    let renderer = start(script, options(1, 1, 2000));
    assert_eq!(renderer.render_blocking("first".into()).unwrap(), "first:1");
    assert_eq!(
        renderer.render_blocking("pending".into()),
        Err(RenderError::NeverSettles)
    );
    assert_eq!(renderer.render_blocking("next".into()).unwrap(), "next:1");
}

#[test]
fn a_script_that_throws_at_evaluation_fails_start_with_its_message() {
    let result = Renderer::start(
        Arc::from("throw new Error('the bundle is broken');"),
        options(2, 1, 1000),
    );
    let message = script_message(result.map(drop));
    assert!(message.starts_with("the bundle is broken"), "{message}");
}

#[test]
fn a_script_without_ssr_render_fails_start() {
    let result = Renderer::start(Arc::from("globalThis.SSR = {};"), options(1, 1, 1000));
    let message = script_message(result.map(drop));
    assert!(message.contains("SSR.render"), "{message}");
}

#[test]
fn a_warm_input_that_fails_fails_start() {
    let mut options = options(2, 1, 1000);
    options.warm = vec!["ok".into(), "throw".into()];
    let result = Renderer::start(Arc::from(MISBEHAVING_SCRIPT), options);
    let message = script_message(result.map(drop));
    assert!(message.starts_with("boom in render"), "{message}");
}

#[test]
fn warm_inputs_render_before_the_first_request() {
    let script = r#"
        let count = 0;
        globalThis.SSR = { render: (s) => s + ':' + (++count) };
    "#;
    let mut options = options(1, 1, 1000);
    options.warm = vec!["warm".into(), "warm".into()];
    let renderer = start(script, options);
    assert_eq!(renderer.render_blocking("req".into()).unwrap(), "req:3");
}

#[test]
fn a_pool_whose_runtimes_cannot_be_built_again_is_stopped() {
    // The script evaluates only until a moment just after start, so the runtime built
    // again after the deadline fails and its (only) thread ends.
    let until = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        + 200;
    let script = format!("if (Date.now() > {until}) throw new Error('too late'); {MISBEHAVING_SCRIPT}");
    let renderer = start(&script, options(1, 1, 400));
    assert_eq!(renderer.render_blocking("loop".into()), Err(RenderError::Deadline));
    thread::sleep(Duration::from_millis(100));
    assert_eq!(renderer.render_blocking("after".into()), Err(RenderError::Stopped));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_render_answers_on_tokio() {
    let renderer = start(TICK_SCRIPT, options(2, 4, 2000));
    let (a, b) = tokio::join!(renderer.render("a".into()), renderer.render("b".into()));
    assert_eq!(a.unwrap(), "<p>a</p>");
    assert_eq!(b.unwrap(), "<p>b</p>");
}

#[tokio::test]
async fn async_render_of_an_endless_loop_gives_deadline() {
    let renderer = start(MISBEHAVING_SCRIPT, options(1, 1, 200));
    assert_eq!(renderer.render("loop".into()).await, Err(RenderError::Deadline));
    assert_eq!(renderer.render("after".into()).await.unwrap(), "<p>after</p>");
}
