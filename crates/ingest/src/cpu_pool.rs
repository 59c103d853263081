//! Threads for ingestion's CPU work (parsing, cleaning, placing), one per core, at a
//! lower scheduling priority than the rest of the process (D159). When the machine is
//! busy, HTTP requests and the store's writer threads run first: a bulk ingest's
//! parsing no longer takes turns with the one thread that writes what it parsed, and
//! never with a reader's page.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The nice value of the pool's threads (0 is the default; 19 the lowest priority).
/// At 10 the kernel gives a default thread about nine times the CPU of a pool thread
/// when both want it.
const NICE: i32 = 10;

type Task = Box<dyn FnOnce() + Send>;

/// Waiting tasks: work that finishes a feed goes before work that starts one (D162).
#[derive(Default)]
struct Queue {
    finishing: VecDeque<Task>,
    starting: VecDeque<Task>,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The next task, or `None` once the pool is dropped and nothing waits.
    fn next(&self) -> Option<Task> {
        let mut queue = self.lock();
        loop {
            if let Some(task) = queue.finishing.pop_front().or_else(|| queue.starting.pop_front()) {
                return Some(task);
            }
            if queue.closed {
                return None;
            }
            queue = self.ready.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

pub struct CpuPool {
    shared: Arc<Shared>,
}

/// The task gave no result: it panicked, or the pool has stopped.
#[derive(Debug, thiserror::Error)]
#[error("the task panicked or the ingestion CPU pool has stopped")]
pub struct Failed;

/// Which queue a task joins.
#[derive(Clone, Copy)]
pub enum Stage {
    /// The first work on a feed (parsing and cleaning).
    Starting,
    /// Work on a feed already under way (placing): done before any new feed starts, so
    /// feeds reach the writer as soon as they can instead of queueing behind every
    /// parse (D162).
    Finishing,
}

impl CpuPool {
    /// `threads` threads (at least one), started now.
    pub fn new(threads: usize) -> CpuPool {
        let shared = Arc::new(Shared::default());
        for i in 0..threads.max(1) {
            let shared = Arc::clone(&shared);
            let started = std::thread::Builder::new()
                .name(format!("lw-ingest-cpu-{i}"))
                .spawn(move || {
                    lower_priority();
                    while let Some(task) = shared.next() {
                        task();
                    }
                });
            if let Err(e) = started {
                tracing::error!(error = %e, "could not start an ingestion CPU thread");
            }
        }
        CpuPool { shared }
    }

    /// Run `work` on the pool, in the queue of its `stage`, and wait for its result. A
    /// panic in `work` is caught and reported as [`Failed`] for this task only; the
    /// thread goes on.
    pub async fn run<T, F>(&self, stage: Stage, work: F) -> Result<T, Failed>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let task: Task = Box::new(move || {
            if let Ok(out) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
                let _ = reply.send(out);
            }
        });
        {
            let mut queue = self.shared.lock();
            match stage {
                Stage::Starting => queue.starting.push_back(task),
                Stage::Finishing => queue.finishing.push_back(task),
            }
        }
        self.shared.ready.notify_one();
        answer.await.map_err(|_| Failed)
    }
}

impl Drop for CpuPool {
    /// The threads finish what is queued, then stop.
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

/// Lower this thread's priority (Linux sets nice per thread). Elsewhere, or when the
/// call fails, the thread keeps the default priority: slower under load, not wrong.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on the calling thread's own id.
        // (An already lower priority, e.g. a `nice`d process, is kept.)
        let done = unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            let current = libc::getpriority(libc::PRIO_PROCESS, tid);
            libc::setpriority(libc::PRIO_PROCESS, tid, current.max(NICE))
        };
        if done != 0 {
            tracing::debug!("could not lower the priority of an ingestion CPU thread");
        }
    }
}

/// The calling thread's nice value (tests).
#[cfg(all(test, target_os = "linux"))]
fn current_nice() -> i32 {
    // SAFETY: plain system calls on the calling thread's own id.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::getpriority(libc::PRIO_PROCESS, tid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_the_pool_and_a_panic_fails_only_its_task() {
        let pool = CpuPool::new(2);
        assert_eq!(pool.run(Stage::Starting, || 6 * 7).await.unwrap(), 42);
        let panicked = pool.run(Stage::Starting, || -> u8 { panic!("a bad feed") }).await;
        assert!(panicked.is_err());
        assert_eq!(pool.run(Stage::Finishing, || "still here").await.unwrap(), "still here");
    }

    /// D162: with the thread busy, finishing work queued after starting work runs first.
    #[tokio::test]
    async fn work_that_finishes_a_feed_runs_before_work_that_starts_one() {
        let pool = std::sync::Arc::new(CpuPool::new(1));
        let order = std::sync::Arc::new(Mutex::new(Vec::new()));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let (started, running) = tokio::sync::oneshot::channel();
        let blocker = {
            let pool = std::sync::Arc::clone(&pool);
            tokio::spawn(async move {
                pool.run(Stage::Starting, move || {
                    let _ = started.send(());
                    gate.recv().ok();
                })
                .await
            })
        };
        running.await.unwrap();
        let queued = |stage, name: &'static str| {
            let (pool, order) = (std::sync::Arc::clone(&pool), std::sync::Arc::clone(&order));
            tokio::spawn(async move { pool.run(stage, move || order.lock().unwrap().push(name)).await })
        };
        // Each task is queued before the next is sent, whatever the scheduler does.
        let waiting = |starting: usize, finishing: usize| {
            let shared = std::sync::Arc::clone(&pool.shared);
            async move {
                while {
                    let q = shared.lock();
                    (q.starting.len(), q.finishing.len()) != (starting, finishing)
                } {
                    tokio::task::yield_now().await;
                }
            }
        };
        let new_feed = queued(Stage::Starting, "start");
        waiting(1, 0).await;
        let old_feed = queued(Stage::Finishing, "finish");
        waiting(1, 1).await;
        release.send(()).unwrap();
        for task in [blocker, new_feed, old_feed] {
            task.await.unwrap().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["finish", "start"]);
    }

    /// D159: the pool's threads run below the default priority; the caller's is unchanged.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn pool_threads_run_at_a_lower_priority() {
        let pool = CpuPool::new(1);
        let before = current_nice();
        assert_eq!(pool.run(Stage::Starting, current_nice).await.unwrap(), before.max(NICE));
        assert_eq!(current_nice(), before);
    }
}
