//! The calling games' match: a fixed number of scored hands with individual, zero-sum totals
//! (TC-D14, BC-D13, CH-D5).

use crate::seat::{PerSeat, Seat};

/// The seats with the highest total: every one of them wins (TC-D14).
pub(crate) fn leaders(totals: &PerSeat<i32>, players: u8) -> Vec<Seat> {
    let best = Seat::first_n(players).map(|s| totals[s]).max().unwrap_or(0);
    Seat::first_n(players)
        .filter(|&s| totals[s] == best)
        .collect()
}

/// Tressette con la Chiamata and Briscola Chiamata, as the match driver plays them
/// ([`MatchRules`](crate::game::MatchRules)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chiamata;

/// A whole match as a value.
pub type Match = crate::game::Match<Chiamata>;

/// What a calling game's match keeps across hands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Totals per seat (they sum to zero).
    pub totals: PerSeat<i32>,
    /// Hands scored so far (void deals do not count).
    pub scored: u32,
    /// Void deals so far (every player passed).
    pub voids: u32,
}

impl Match {
    /// Hands scored so far (void deals do not count).
    pub fn hands_scored(&self) -> u32 {
        self.tally().scored
    }
}
