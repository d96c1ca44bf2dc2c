//! The player's share of a table's committed deals: random bytes every client sends when it
//! takes a seat, so that no deal is the server's choice alone (docs/RECORDS.md).

use tonic::Status;

/// How many bytes a client contributes by default.
pub const CONTRIBUTION_BYTES: usize = 32;

/// The most a seat may contribute (the server refuses more with `BAD_ENTROPY`).
pub const MAX_CONTRIBUTION_BYTES: usize = 64;

/// 32 fresh random bytes from the operating system.
pub fn contribution() -> Result<Vec<u8>, Status> {
    let mut b = vec![0u8; CONTRIBUTION_BYTES];
    getrandom::fill(&mut b)
        .map_err(|e| Status::unavailable(format!("no operating-system randomness: {e}")))?;
    Ok(b)
}

/// The contribution to send: 32 fresh random bytes when `given` is `None`, none for an empty
/// slice (the caller opts out), else the caller's own bytes. More than
/// [`MAX_CONTRIBUTION_BYTES`] is refused here, before any call, as the server would refuse it.
pub fn chosen(given: Option<&[u8]>) -> Result<Vec<u8>, Status> {
    match given {
        None => contribution(),
        Some(b) if b.len() > MAX_CONTRIBUTION_BYTES => Err(Status::invalid_argument(format!(
            "entropy holds {} bytes, at most {MAX_CONTRIBUTION_BYTES}",
            b.len()
        ))),
        Some(b) => Ok(b.to_vec()),
    }
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

    #[test]
    fn a_chosen_contribution_is_sent_as_given_up_to_64_bytes() {
        assert_eq!(chosen(None).expect("os random").len(), CONTRIBUTION_BYTES);
        assert_eq!(chosen(Some(b"")).expect("none"), Vec::<u8>::new());
        assert_eq!(chosen(Some(&[7; 64])).expect("64 bytes"), vec![7; 64]);
        let refused = chosen(Some(&[7; 65])).expect_err("65 bytes");
        assert_eq!(refused.code(), tonic::Code::InvalidArgument);
        assert!(refused.message().contains("65 bytes"));
    }
}
