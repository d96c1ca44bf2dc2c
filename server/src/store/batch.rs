//! The store thread runs under Linux's `SCHED_BATCH` policy: as much CPU as any thread of its
//! niceness, but a wake-up does not preempt the thread that is running.
//!
//! Why: a table hands each action to this thread and waits for the commit. Under the default
//! policy the woken store thread preempts the async worker at once when they share a core, and
//! commits the one or few writes queued so far: one `fsync` and a round of context switches
//! for every few actions. As a batch thread it runs when the worker's time slice ends or it
//! waits, so every table that wrote meanwhile shares the commit. On a core of its own nothing
//! changes. Measured with the server on one core (docs/BENCHMARKS.md): a third of the commits
//! and context switches, and 4-10% less CPU per action.

/// Puts the calling thread under `SCHED_BATCH`, when it runs under the default policy at
/// niceness 0 (an operator who tuned the process's scheduling keeps it). A failure is logged
/// and changes nothing else.
pub fn schedule_as_batch() {
    #[cfg(target_os = "linux")]
    linux::schedule_as_batch();
}

#[cfg(target_os = "linux")]
mod linux {
    use thread_priority::unix::{
        NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
        thread_native_id,
    };
    use thread_priority::{ThreadPriority, ThreadPriorityValue};

    /// The crate maps 0..=99 onto niceness 19..=-20 for the normal policies; 47 is niceness 0
    /// (checked by the test below, against the kernel's own account of the thread).
    const NICENESS_ZERO: u8 = 47;

    pub fn schedule_as_batch() {
        // Only from the default policy at the default niceness: a process an operator started
        // under another policy (`chrt`) or niced keeps what it was given.
        if super::thread_stat() != Some((0, super::SCHED_OTHER)) {
            return;
        }
        let Ok(value) = ThreadPriorityValue::try_from(NICENESS_ZERO) else {
            return;
        };
        if let Err(e) = set_thread_priority_and_policy(
            thread_native_id(),
            ThreadPriority::Crossplatform(value),
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Batch),
        ) {
            tracing::info!(error = ?e, "the store thread keeps the default scheduling policy");
        }
    }
}

/// The calling thread's niceness and scheduling policy, from the kernel's account of it.
#[cfg(target_os = "linux")]
fn thread_stat() -> Option<(i64, i64)> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    // Fields 19 (nice) and 41 (policy), counted from 1 with the pid and name first.
    Some((fields.get(16)?.parse().ok()?, fields.get(38)?.parse().ok()?))
}

/// `SCHED_OTHER`, the default policy, in the kernel's numbering.
#[cfg(target_os = "linux")]
const SCHED_OTHER: i64 = 0;

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// `SCHED_BATCH` in the kernel's numbering.
    const SCHED_BATCH: i64 = 3;

    #[test]
    fn the_thread_becomes_a_batch_thread_and_keeps_niceness_zero() {
        std::thread::spawn(|| {
            let before = super::thread_stat();
            super::schedule_as_batch();
            if before == Some((0, super::SCHED_OTHER)) {
                assert_eq!(super::thread_stat(), Some((0, SCHED_BATCH)));
            } else {
                // The tests run niced or under another policy: that is kept.
                assert_eq!(super::thread_stat(), before);
            }
        })
        .join()
        .expect("the thread");
    }
}
