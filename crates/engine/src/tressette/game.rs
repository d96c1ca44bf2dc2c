//! Tressette's match: the marker the match driver plays it by, the totals per side, and the
//! end at the target (T-D4).

use crate::action::Action;
use crate::error::IllegalAction;
use crate::game::HandRules;

use super::score::Outcome;

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
