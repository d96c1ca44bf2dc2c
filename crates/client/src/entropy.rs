//! The player's share of a table's committed deals: random bytes every client sends when it
//! takes a seat, so that no deal is the server's choice alone (docs/RECORDS.md).

use tonic::Status;

/// How many bytes a client contributes by default.
pub const CONTRIBUTION_BYTES: usize = 32;

/// 32 fresh random bytes from the operating system.
pub fn contribution() -> Result<Vec<u8>, Status> {
    let mut b = vec![0u8; CONTRIBUTION_BYTES];
    getrandom::fill(&mut b)
        .map_err(|e| Status::unavailable(format!("no operating-system randomness: {e}")))?;
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contributions_are_32_bytes_and_differ() {
        let (a, b) = (
            contribution().expect("os random"),
            contribution().expect("os random"),
        );
        assert_eq!(a.len(), CONTRIBUTION_BYTES);
        assert_ne!(a, b);
    }
}
