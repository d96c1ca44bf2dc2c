//! Stream epochs: the name of one server run's numbering of stream updates. An epoch is the
//! run's start time (microseconds since the Unix epoch, hex) and 48 random bits, so that a
//! resume point from another run can be told apart: one from an earlier run means the server
//! restarted since; anything else (a later or unreadable epoch) is simply unknown here.

use std::time::{SystemTime, UNIX_EPOCH};

use calabresella_proto::v1;

/// A fresh epoch for a server run starting now: `<start µs, hex>-<12 hex digits>`.
pub fn new_epoch() -> String {
    let start = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or_default();
    let random: String = super::session::os_random::<6>()
        .map(|b| b.iter().map(|x| format!("{x:02x}")).collect())
        .unwrap_or_else(|_| "000000000000".into());
    format!("{start:x}-{random}")
}

/// When the run named `epoch` started, if the epoch has that form.
fn started(epoch: &str) -> Option<u64> {
    let (start, random) = epoch.split_once('-')?;
    if start.is_empty() || start.len() > 16 || random.is_empty() {
        return None;
    }
    u64::from_str_radix(start, 16).ok()
}

/// Whether `theirs`, an epoch a client quotes, names a run of this server that started before
/// the run named `ours`: the server restarted since the client's resume point. A server whose
/// own epoch has no start time (set by hand) cannot tell, and says so for any other epoch.
pub fn restarted_since(theirs: &str, ours: &str) -> bool {
    match (started(theirs), started(ours)) {
        (Some(t), Some(o)) => t < o,
        (_, None) => theirs != ours,
        (None, Some(_)) => false,
    }
}

/// Why a stream of this run (epoch `ours`) opens with a snapshot rather than the updates after
/// the client's resume point: none was given, the server restarted since it, or it is no longer
/// buffered (or names no run this server knows).
pub fn snapshot_reason(resume: Option<&(u64, String)>, ours: &str) -> v1::SnapshotReason {
    match resume {
        None => v1::SnapshotReason::New,
        Some((_, theirs)) if restarted_since(theirs, ours) => v1::SnapshotReason::ServerRestarted,
        Some(_) => v1::SnapshotReason::Gap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_run_is_a_restart_and_anything_else_is_unknown() {
        let ours = "18f00000000-a1b2c3d4e5f6";
        assert!(restarted_since("18e00000000-000000000000", ours));
        assert!(
            !restarted_since("18f00000001-000000000000", ours),
            "a later run"
        );
        assert!(!restarted_since(ours, ours));
        for bogus in [
            "",
            "other-epoch",
            "zz-12",
            "-12",
            "12-",
            "12",
            "1234567890abcdef01-ab",
        ] {
            assert!(!restarted_since(bogus, ours), "{bogus:?}");
        }
        // An epoch set by hand (tests, tools) cannot date anything.
        assert!(restarted_since("anything", "e1"));
        assert!(!restarted_since("e1", "e1"));
    }

    #[test]
    fn a_new_epoch_dates_its_run() {
        let a = new_epoch();
        assert!(started(&a).is_some(), "{a}");
        assert_eq!(a.split_once('-').map(|(_, r)| r.len()), Some(12));
        assert_ne!(a, new_epoch(), "48 random bits each");
    }
}
