//! Server rendering with the web app's own React components (issue 32, see
//! docs/one-renderer-spike.md): the app's SSR bundle, one IIFE script, runs in embedded
//! QuickJS (`rquickjs`) on a small pool of dedicated OS threads.
//!
//! The bundle's contract: evaluated once per runtime as a plain script, it defines a
//! global `SSR` with `render(input: string): Promise<string> | string`, and may define
//! `__tick(): boolean`, which runs its due zero-delay timers (QuickJS has no event loop,
//! the bundle polyfills `setTimeout`) and says whether it ran any.
//!
//! Each thread owns one runtime, because a QuickJS runtime cannot move between threads.
//! Callers never wait for a place: a full queue answers [`RenderError::Busy`] at once, so
//! the server can send the page with an empty `#root` (the app then renders it) rather
//! than pile up requests. Every render has a deadline, counted from the call, after which
//! its caller stops waiting: one that waited in the queue until less than half of it is
//! left is answered unrun. One that starts runs until it ends or until its runaway limit,
//! past which QuickJS's interrupt handler stops it: a render slowed past the deadline by
//! a busy machine costs its page the markup, not the engine (D427). A runtime that hit
//! its runaway limit, its memory limit or a panic, or whose render never settled, is
//! thrown away and built again (script and warm inputs) before its thread takes the next
//! job, since its heap may hold half-done work.
//!
//! Garbage collection: QuickJS frees most values by reference counting and runs its
//! cycle collector by itself when the heap grows past a threshold, so the pool does not
//! call `run_gc` after each render. Measured with `examples/measure.rs` (release build,
//! 2,000 renders after 50 to warm, 2 loaded cores, three runs): a trivial render grows
//! RSS by 0 KB either way and takes 1.0–1.1 µs, 10–15 µs with `run_gc` after it; a render
//! that leaves 200 cyclic objects grows RSS by 52 KB without `run_gc` and 0 KB with it,
//! at the same 100–130 µs. Neither growth is worth a collection per render, which costs
//! 13 ms with the real bundle (docs/one-renderer-spike.md). A trivial render through
//! the pool (`render_blocking`, queue and reply) takes about 7 µs.

mod engine;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use engine::Engine;

/// How the pool is sized and bounded.
#[derive(Debug, Clone)]
pub struct Options {
    /// Render threads, each with its own QuickJS runtime (about 12 MB each with the web
    /// app's script, measured in bench/RESULTS.md "Issue 32 item 1"). At least one.
    pub threads: usize,
    /// Renders that may wait for a thread; one more is `Busy`. With 0 a render is taken
    /// only when a thread is idle.
    pub queue: usize,
    /// Time from the call to the answer, waiting in the queue included.
    pub deadline: Duration,
    /// Time a started render may run before it is stopped and its engine replaced (at
    /// least `deadline`): a render still running when its caller stopped waiting goes on
    /// to here, since building an engine again costs far more than finishing most renders.
    pub runaway: Duration,
    /// Heap limit of each runtime in bytes, the script included; 0 means none.
    pub memory_limit: usize,
    /// Inputs rendered once by each fresh runtime, so that lazy work in the bundle
    /// (locale data, first-call compilation) happens before the first request.
    pub warm: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 2,
            queue: 16,
            deadline: Duration::from_millis(50),
            runaway: Duration::from_millis(200),
            memory_limit: 256 * 1024 * 1024,
            warm: Vec::new(),
        }
    }
}

/// Why a render gave no markup. Every one of them means: send the page without it.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RenderError {
    #[error("every render thread is busy and the queue is full")]
    Busy,
    #[error("the render did not finish before its deadline")]
    Deadline,
    #[error("the render ran out of memory")]
    Memory,
    #[error("the render never settles")]
    NeverSettles,
    /// The JS error's message, then its stack when it has one.
    #[error("the script failed: {0}")]
    Script(String),
    #[error("a render thread panicked")]
    Panic,
    #[error("the renderer has stopped")]
    Stopped,
    #[error("could not start a render thread: {0}")]
    Thread(String),
}

/// A pool of render threads. Cloning shares the pool; it stops when the last clone is
/// dropped (each thread finishes its current render, then ends). A thread whose runtime
/// cannot be built again ends too; once none is left, renders are `Stopped`.
#[derive(Clone)]
pub struct Renderer {
    shared: Arc<Shared>,
}

struct Shared {
    jobs: SyncSender<Job>,
    deadline: Duration,
}

type Reply = Box<dyn FnOnce(Result<String, RenderError>) + Send>;

struct Job {
    input: String,
    deadline: Instant,
    reply: Reply,
}

/// Time beyond the deadline a caller waits for the thread's own answer: the interrupt
/// handler runs every few thousand JS instructions, not exactly at the deadline.
const REPLY_MARGIN: Duration = Duration::from_millis(50);

/// Native stack of a render thread: well above QuickJS's JS stack limit, since the C
/// parser and interpreter recurse on it too.
const THREAD_STACK: usize = 8 * 1024 * 1024;

impl Renderer {
    /// Spawns `options.threads` threads; each builds its runtime, evaluates `script` and
    /// renders every warm input. Returns once all are ready, or the first failure (with
    /// the JS message); then the threads already started end. Blocks for the time that
    /// takes, so call it at start-up or from `spawn_blocking`.
    pub fn start(script: Arc<str>, options: Options) -> Result<Renderer, RenderError> {
        let threads = options.threads.max(1);
        let (jobs, queue) = mpsc::sync_channel(options.queue);
        let queue = Arc::new(Mutex::new(queue));
        let (ready_tx, ready) = mpsc::channel();
        let options = Arc::new(options);
        for index in 0..threads {
            let script = Arc::clone(&script);
            let options = Arc::clone(&options);
            let queue = Arc::clone(&queue);
            let ready_tx = ready_tx.clone();
            thread::Builder::new()
                .name(format!("render-{index}"))
                .stack_size(THREAD_STACK)
                .spawn(move || serve(&script, &options, &queue, ready_tx))
                .map_err(|error| RenderError::Thread(error.to_string()))?;
        }
        drop(ready_tx);
        for _ in 0..threads {
            // A thread that ended without a word panicked while building.
            ready.recv().map_err(|_| RenderError::Panic)??;
        }
        Ok(Renderer {
            shared: Arc::new(Shared {
                jobs,
                deadline: options.deadline,
            }),
        })
    }

    /// Renders `input`, answering within the deadline (plus a few ms).
    pub async fn render(&self, input: String) -> Result<String, RenderError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.submit(
            input,
            Box::new(move |result| {
                // The caller may have given up; nobody is left to tell.
                let _ = tx.send(result);
            }),
        )?;
        match tokio::time::timeout(self.shared.deadline + REPLY_MARGIN, rx).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(RenderError::Stopped),
            Err(_) => Err(RenderError::Deadline),
        }
    }

    /// [`Renderer::render`], blocking the calling thread (tests, command-line checks).
    pub fn render_blocking(&self, input: String) -> Result<String, RenderError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.submit(
            input,
            Box::new(move |result| {
                let _ = tx.send(result);
            }),
        )?;
        match rx.recv_timeout(self.shared.deadline + REPLY_MARGIN) {
            Ok(result) => result,
            Err(RecvTimeoutError::Disconnected) => Err(RenderError::Stopped),
            Err(RecvTimeoutError::Timeout) => Err(RenderError::Deadline),
        }
    }

    fn submit(&self, input: String, reply: Reply) -> Result<(), RenderError> {
        let job = Job {
            input,
            deadline: Instant::now() + self.shared.deadline,
            reply,
        };
        self.shared.jobs.try_send(job).map_err(|error| match error {
            TrySendError::Full(_) => RenderError::Busy,
            TrySendError::Disconnected(_) => RenderError::Stopped,
        })
    }
}

/// One render thread: builds its engine, reports whether that worked, then serves jobs
/// until the pool is dropped or its engine cannot be built again.
fn serve(script: &str, options: &Options, queue: &Mutex<Receiver<Job>>, ready: mpsc::Sender<Result<(), RenderError>>) {
    let built = catch_unwind(|| Engine::build(script, options)).unwrap_or(Err(RenderError::Panic));
    let mut engine = match built {
        Ok(engine) => engine,
        Err(error) => {
            let _ = ready.send(Err(error));
            return;
        }
    };
    let _ = ready.send(Ok(()));
    drop(ready);
    loop {
        // A panic never happens while the lock is held, but a poisoned lock is still a
        // working receiver.
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = next else {
            return;
        };
        // A job that waited until less than half its time is left would most likely
        // finish after its caller stopped waiting: it is answered unrun. One that starts
        // runs to its runaway limit, so only a render that truly runs away is stopped
        // (its caller may have stopped waiting long before).
        let now = Instant::now();
        if job.deadline.saturating_duration_since(now) < options.deadline / 2 {
            (job.reply)(Err(RenderError::Deadline));
            continue;
        }
        let limit = now + options.runaway.max(options.deadline);
        let result =
            catch_unwind(AssertUnwindSafe(|| engine.render(&job.input, limit))).unwrap_or(Err(RenderError::Panic));
        // A render that never settled leaves its work behind (timers, a replaced clock,
        // subscriptions): its engine is replaced too.
        let recycle = matches!(
            result,
            Err(RenderError::Deadline | RenderError::Memory | RenderError::Panic | RenderError::NeverSettles)
        );
        let why = result.as_ref().err().cloned();
        (job.reply)(result);
        if recycle {
            tracing::warn!(
                thread = thread::current().name().unwrap_or("render"),
                reason = ?why,
                "render runtime recycled"
            );
            // The old heap goes first, so two never sit in memory together.
            drop(engine);
            let rebuilt = catch_unwind(|| Engine::build(script, options)).unwrap_or(Err(RenderError::Panic));
            engine = match rebuilt {
                Ok(engine) => engine,
                Err(error) => {
                    tracing::error!(%error, "a render runtime could not be built again; its thread ends");
                    return;
                }
            };
        }
    }
}
