//! One QuickJS runtime with the bundle loaded: evaluates the script, and drives one
//! render until its promise settles, its deadline passes or memory runs out.
//!
//! A QuickJS runtime is not `Send` (without rquickjs's `parallel` feature), so an
//! [`Engine`] lives and dies on the thread that built it.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rquickjs::context::EvalOptions;
use rquickjs::function::This;
use rquickjs::promise::PromiseState;
use rquickjs::{
    CatchResultExt, CaughtError, Coerced, Context, Ctx, Function, Object, Persistent, Promise, Runtime, Value,
};

use crate::{Options, RenderError};

/// The JS stack QuickJS may use. Its default (256 KB) is tight for a deep React tree;
/// the render threads get a native stack well above this (see `THREAD_STACK`).
const JS_STACK: usize = 1024 * 1024;

/// How long evaluating the script and each warm render may take at start. Not the
/// request deadline: a cold bundle takes 50–200 ms to parse and its first render
/// loads locale data (docs/one-renderer-spike.md), yet an endless loop in the bundle
/// must still not hang start-up forever.
const START_DEADLINE: Duration = Duration::from_secs(10);

/// The name stacks show for the bundle.
const SCRIPT_NAME: &str = "ssr.js";

/// What the interrupt handler reads: the running render's deadline, and whether it
/// stopped the script (so an "interrupted" exception is told apart from a JS throw).
#[derive(Default)]
struct Watch {
    deadline: Cell<Option<Instant>>,
    tripped: Cell<bool>,
}

impl Watch {
    fn arm(&self, deadline: Instant) {
        self.deadline.set(Some(deadline));
        self.tripped.set(false);
    }

    fn disarm(&self) {
        self.deadline.set(None);
    }

    fn should_interrupt(&self) -> bool {
        let due = self.deadline.get().is_some_and(|deadline| Instant::now() >= deadline);
        if due {
            self.tripped.set(true);
        }
        due
    }

    /// The deadline has passed, whether or not the handler has run since.
    fn expired(&self) -> bool {
        self.tripped.get() || self.should_interrupt()
    }
}

/// What calling `SSR.render` gave: an answer, or a promise still to settle.
enum Started {
    Done(Result<String, RenderError>),
    Pending(Persistent<Promise<'static>>),
}

pub(crate) struct Engine {
    context: Context,
    runtime: Runtime,
    watch: Rc<Watch>,
}

impl Engine {
    /// A fresh runtime with the script evaluated and every warm input rendered once.
    pub(crate) fn build(script: &str, options: &Options) -> Result<Engine, RenderError> {
        let runtime = Runtime::new().map_err(rquickjs_error)?;
        runtime.set_memory_limit(options.memory_limit);
        runtime.set_max_stack_size(JS_STACK);
        let watch = Rc::new(Watch::default());
        let handler_watch = Rc::clone(&watch);
        runtime.set_interrupt_handler(Some(Box::new(move || handler_watch.should_interrupt())));
        let context = Context::full(&runtime).map_err(rquickjs_error)?;
        let engine = Engine {
            context,
            runtime,
            watch,
        };
        engine.evaluate(script)?;
        for input in &options.warm {
            engine.render(input, Instant::now() + START_DEADLINE)?;
        }
        Ok(engine)
    }

    fn evaluate(&self, script: &str) -> Result<(), RenderError> {
        self.watch.arm(Instant::now() + START_DEADLINE);
        let outcome = self.context.with(|ctx| {
            let mut options = EvalOptions::default();
            // A plain script, as a `<script>` tag would run it: the bundle may rely on
            // sloppy mode, and rquickjs defaults to strict.
            options.strict = false;
            options.filename = Some(SCRIPT_NAME.to_owned());
            ctx.eval_with_options::<Value, _>(script.as_bytes(), options)
                .catch(&ctx)
                .map(drop)
                .map_err(|error| self.classify(error))?;
            render_function(&ctx).map(drop)
        });
        self.watch.disarm();
        outcome
    }

    /// Calls `SSR.render(input)` and settles what it returns. The caller recycles the
    /// engine after `Deadline`, `Memory` or `Panic`.
    pub(crate) fn render(&self, input: &str, deadline: Instant) -> Result<String, RenderError> {
        self.watch.arm(deadline);
        let outcome = match self.start(input) {
            Started::Done(result) => result,
            Started::Pending(promise) => self.settle(promise),
        };
        self.watch.disarm();
        outcome
    }

    fn start(&self, input: &str) -> Started {
        self.context.with(|ctx| {
            let (ssr, render) = match render_function(&ctx) {
                Ok(found) => found,
                Err(error) => return Started::Done(Err(error)),
            };
            let value = match render.call::<_, Value>((This(ssr), input)).catch(&ctx) {
                Ok(value) => value,
                Err(error) => return Started::Done(Err(self.classify(error))),
            };
            let Some(promise) = value.as_promise() else {
                return Started::Done(markup(value));
            };
            if promise.state() == PromiseState::Pending {
                Started::Pending(Persistent::save(&ctx, promise.clone()))
            } else {
                Started::Done(self.settled(&ctx, promise))
            }
        })
    }

    /// QuickJS has no event loop: run the job queue dry, then the bundle's `__tick`
    /// (its zero-delay timers), until the promise settles or neither has work left.
    fn settle(&self, promise: Persistent<Promise<'static>>) -> Result<String, RenderError> {
        loop {
            let mut ran_job = false;
            loop {
                match self.runtime.execute_pending_job() {
                    Ok(true) => ran_job = true,
                    Ok(false) => break,
                    Err(failed) => {
                        ran_job = true;
                        // A throwing job (e.g. in `queueMicrotask`) does not settle the
                        // render by itself; only the deadline or memory end it here.
                        let error = failed.0.with(|ctx| {
                            let thrown = CaughtError::from_error(&ctx, rquickjs::Error::Exception);
                            self.classify(thrown)
                        });
                        if matches!(error, RenderError::Deadline | RenderError::Memory) {
                            return Err(error);
                        }
                        tracing::debug!(%error, "a job of the render threw");
                    }
                }
            }
            let step = self.context.with(|ctx| {
                let promise = match promise.clone().restore(&ctx) {
                    Ok(promise) => promise,
                    Err(error) => return Step::Settled(Err(rquickjs_error(error))),
                };
                if promise.state() != PromiseState::Pending {
                    return Step::Settled(self.settled(&ctx, &promise));
                }
                if self.watch.expired() {
                    return Step::Settled(Err(RenderError::Deadline));
                }
                let Ok(tick) = ctx.globals().get::<_, Function>("__tick") else {
                    return Step::Ticked(false);
                };
                match tick.call::<_, Coerced<bool>>(()).catch(&ctx) {
                    Ok(Coerced(ran)) => Step::Ticked(ran),
                    Err(error) => Step::Settled(Err(self.classify(error))),
                }
            });
            match step {
                Step::Settled(result) => return result,
                Step::Ticked(ticked) if !ticked && !ran_job => {
                    return Err(RenderError::NeverSettles);
                }
                Step::Ticked(_) => {}
            }
        }
    }

    /// The result of a promise that is no longer pending.
    fn settled<'js>(&self, ctx: &Ctx<'js>, promise: &Promise<'js>) -> Result<String, RenderError> {
        match promise.result::<Value>() {
            Some(Ok(value)) => markup(value),
            Some(Err(error)) => Err(self.classify(CaughtError::from_error(ctx, error))),
            None => Err(RenderError::NeverSettles),
        }
    }

    /// What a failed call means: the deadline (the interrupt handler stopped it), memory
    /// (QuickJS's allocator refused), or the script's own error.
    fn classify(&self, error: CaughtError<'_>) -> RenderError {
        if self.watch.tripped.get() {
            return RenderError::Deadline;
        }
        match error {
            CaughtError::Error(error) => rquickjs_error(error),
            CaughtError::Exception(exception) => {
                let message = exception.message().unwrap_or_default();
                if is_out_of_memory(&message) {
                    return RenderError::Memory;
                }
                match exception.stack().filter(|stack| !stack.is_empty()) {
                    Some(stack) => RenderError::Script(format!("{message}\n{stack}")),
                    None => RenderError::Script(message),
                }
            }
            // `throw 'text'` or `Promise.reject(value)` without an Error: its string.
            CaughtError::Value(value) => match value.get::<Coerced<String>>() {
                Ok(Coerced(text)) if is_out_of_memory(&text) => RenderError::Memory,
                Ok(Coerced(text)) => RenderError::Script(text),
                Err(_) => RenderError::Script("the script threw a value that has no text".into()),
            },
        }
    }
}

enum Step {
    Settled(Result<String, RenderError>),
    /// `__tick` ran (true) or had nothing to run / is absent (false).
    Ticked(bool),
}

/// `SSR` and its `render`, or why the bundle does not follow the contract.
fn render_function<'js>(ctx: &Ctx<'js>) -> Result<(Object<'js>, Function<'js>), RenderError> {
    let missing = || RenderError::Script("the script defines no function SSR.render".into());
    let ssr: Object = ctx.globals().get("SSR").map_err(|_| missing())?;
    let render: Function = ssr.get("render").map_err(|_| missing())?;
    Ok((ssr, render))
}

fn markup(value: Value<'_>) -> Result<String, RenderError> {
    match value.as_string() {
        Some(text) => text.to_string().map_err(rquickjs_error),
        None => Err(RenderError::Script(format!(
            "SSR.render gave {}, not a string",
            value.type_name()
        ))),
    }
}

fn is_out_of_memory(message: &str) -> bool {
    message.contains("out of memory")
}

/// An error of rquickjs itself rather than of the script.
fn rquickjs_error(error: rquickjs::Error) -> RenderError {
    match error {
        rquickjs::Error::Allocation => RenderError::Memory,
        other => RenderError::Script(other.to_string()),
    }
}
