//! The calling games' match: a fixed number of scored hands with individual, zero-sum totals
//! (TC-D14, BC-D13, CH-D5).

use crate::game::MatchResult;
use crate::seat::{PerSeat, Seat};

use super::hand::Hand;
use super::observation::Observation;
use super::options::Options;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Totals per seat (they sum to zero).
    pub totals: PerSeat<i32>,
    /// Hands scored so far (void deals do not count).
    pub scored: u32,
    /// Void deals so far (every player passed).
    pub voids: u32,
}

/// TC-D14, CH-D5 after each hand: a scored hand adds its awards; the match ends after its
/// number of scored hands (the highest totals win), or at the cap on void deals (a draw).
pub(super) fn hand_over(opts: &Options, tally: &mut Tally, hands: &[Hand]) -> Option<MatchResult> {
    match hands.last().and_then(Hand::outcome) {
        Some(o) => {
            for s in Seat::first_n(opts.players) {
                tally.totals[s] += o.award[s];
            }
            tally.scored += 1;
        }
        None => tally.voids += 1,
    }
    if tally.scored >= opts.match_hands() {
        Some(MatchResult::won(leaders(&tally.totals, opts.players)))
    } else if tally.voids >= opts.max_deals {
        Some(MatchResult::draw())
    } else {
        None
    }
}

/// The match's context of an observation of the last hand: its number, the totals, the
/// earlier hands' outcomes.
pub(super) fn annotate(obs: &mut Observation, tally: &Tally, hands: &[Hand]) {
    let earlier = &hands[..hands.len().saturating_sub(1)];
    obs.hand_number = earlier.len() as u32;
    obs.totals = tally.totals;
    obs.previous = earlier
        .iter()
        .filter_map(|h| h.outcome().copied())
        .collect();
}

impl Match {
    /// Hands scored so far (void deals do not count).
    pub fn hands_scored(&self) -> u32 {
        self.tally().scored
    }
}
