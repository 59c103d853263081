//! Threads for ingestion's CPU work (parsing, cleaning, placing), one per core, at a
//! lower scheduling priority than the rest of the process (D159). When the machine is
//! busy, HTTP requests and the store's writer threads run first: a bulk ingest's
//! parsing no longer takes turns with the one thread that writes what it parsed, and
//! never with a reader's page.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// The nice value of the pool's threads (0 is the default; 19 the lowest priority).
/// At 10 the kernel gives a default thread about nine times the CPU of a pool thread
/// when both want it.
const NICE: i32 = 10;

type Task = Box<dyn FnOnce() + Send>;

pub struct CpuPool {
    tasks: mpsc::Sender<Task>,
}

/// The task gave no result: it panicked, or the pool has stopped.
#[derive(Debug, thiserror::Error)]
#[error("the task panicked or the ingestion CPU pool has stopped")]
pub struct Failed;

impl CpuPool {
    /// `threads` threads (at least one), started now.
    pub fn new(threads: usize) -> CpuPool {
        let (tasks, rx) = mpsc::channel::<Task>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let started = std::thread::Builder::new()
                .name(format!("lw-ingest-cpu-{i}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        // The lock is held only while waiting for the next task.
                        let task = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(poisoned) => poisoned.into_inner().recv(),
                        };
                        match task {
                            Ok(task) => task(),
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = started {
                tracing::error!(error = %e, "could not start an ingestion CPU thread");
            }
        }
        CpuPool { tasks }
    }

    /// Run `work` on the pool and wait for its result. A panic in `work` is caught and
    /// reported as [`Failed`] for this task only; the thread goes on.
    pub async fn run<T, F>(&self, work: F) -> Result<T, Failed>
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
        self.tasks.send(task).map_err(|_| Failed)?;
        answer.await.map_err(|_| Failed)
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
        assert_eq!(pool.run(|| 6 * 7).await.unwrap(), 42);
        let panicked = pool.run(|| -> u8 { panic!("a bad feed") }).await;
        assert!(panicked.is_err());
        assert_eq!(pool.run(|| "still here").await.unwrap(), "still here");
    }

    /// D159: the pool's threads run below the default priority; the caller's is unchanged.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn pool_threads_run_at_a_lower_priority() {
        let pool = CpuPool::new(1);
        let before = current_nice();
        assert_eq!(pool.run(current_nice).await.unwrap(), before.max(NICE));
        assert_eq!(current_nice(), before);
    }
}
