//! Seat tokens: 16 random bytes handed to the joiner as hex; the table keeps only their
//! SHA-256, compared in constant time.

use super::Table;
use crate::error::ServiceError;
use calabresella_engine::Seat;

/// Lower-case hex digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a token.
pub fn token_hash(token: &[u8; 16]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(token).into()
}

/// Parses a token; anything that is not 32 hex digits matches no seat.
pub(super) fn parse_token(t: &str) -> Option<[u8; 16]> {
    unhex(t.trim())?.try_into().ok()
}

/// Bytes from hex digits; `None` for anything else.
pub(crate) fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Compares in time independent of where the tokens differ.
pub(super) fn same_token(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Table {
    pub(super) fn seat_of_token(&self, token: &str) -> Result<Seat, ServiceError> {
        if token.trim().is_empty() {
            return Err(ServiceError::NoToken);
        }
        let t = token_hash(&parse_token(token).ok_or(ServiceError::BadToken)?);
        let mut found = None;
        for (i, s) in self.seats.iter().enumerate() {
            if s.token.as_ref().is_some_and(|k| same_token(k, &t)) {
                found = Seat::new(i as u8);
            }
        }
        found.ok_or(ServiceError::BadToken)
    }
}
