//! Tressette's match: its hand as the match driver plays it, the totals per side, and the
//! end at the target (T-D4).

use crate::action::Action;
use crate::error::IllegalAction;
use crate::game::HandRules;
use crate::seat::Seat;

use super::hand::{Hand, side_of};
use super::observation::Observation;
use super::options::Options;
use super::score::Outcome;
use crate::game::MatchResult;

/// T-D4, checked after each hand: the side at or above the target wins; both: the higher total
/// wins, and equal totals mean another hand.
pub(crate) fn winner(totals: [u32; 2], target: u32) -> Option<usize> {
    match (totals[0] >= target, totals[1] >= target) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        (true, true) if totals[0] != totals[1] => Some(usize::from(totals[1] > totals[0])),
        _ => None,
    }
}

/// Tressette and Tressette in Due, as the match driver plays them
/// ([`MatchRules`](crate::game::MatchRules)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tressette;

/// A whole Tressette match as a value.
pub type Match = crate::game::Match<Tressette>;

/// What a Tressette match keeps across hands: the totals per side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Totals per side.
    pub totals: [u32; 2],
}

/// T-D4 after each hand: the side at or above the target wins, or another hand is dealt up to
/// the safety cap on deals (a draw).
pub(super) fn hand_over(opts: &Options, tally: &mut Tally, hands: &[Hand]) -> Option<MatchResult> {
    let o = hands.last().and_then(Hand::outcome)?;
    tally.totals[0] += o.points[0];
    tally.totals[1] += o.points[1];
    if let Some(w) = winner(tally.totals, opts.target) {
        let seats = Seat::first_n(opts.variant.players()).filter(|s| side_of(*s) == w);
        Some(MatchResult::won(seats.collect()))
    } else if hands.len() as u64 >= u64::from(opts.max_deals) {
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
    /// Outcomes of the finished hands.
    pub fn outcomes(&self) -> Vec<Outcome> {
        self.hands()
            .iter()
            .filter_map(|h| h.outcome().copied())
            .collect()
    }

    /// Applies `action` for whoever is to play; on error nothing changes.
    pub fn try_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.apply_with(|h| h.try_apply(action))
    }
}

#[cfg(test)]
mod tests {
    use super::winner;

    #[test]
    fn t_d4_match_end() {
        assert_eq!(winner([21, 5], 21), Some(0));
        assert_eq!(winner([20, 21], 21), Some(1));
        assert_eq!(
            winner([25, 23], 21),
            Some(0),
            "both at the target: the higher wins"
        );
        assert_eq!(winner([23, 25], 21), Some(1));
        assert_eq!(winner([24, 24], 21), None, "equal: another hand");
        assert_eq!(winner([20, 20], 21), None);
        assert_eq!(winner([30, 12], 31), None, "option: 31");
    }
}
