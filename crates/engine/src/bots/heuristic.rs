//! [`HeuristicBot`]: a rule-based player for every game. Each game teaches it in its own
//! module (`bot.rs`: bidding, calling, discarding); the card play they share is
//! [`super::cardplay`].

use crate::action::Action;
use crate::card::Card;

/// A rule-based player; deterministic for a given observation.
#[derive(Debug, Clone)]
pub struct HeuristicBot {
    _seed: u64,
}

impl HeuristicBot {
    /// A heuristic bot (`seed` is kept for a uniform constructor; the bot is deterministic).
    pub fn new(seed: u64) -> HeuristicBot {
        HeuristicBot { _seed: seed }
    }
}

/// The card of a `play` action.
pub(crate) fn play_card(a: &Action) -> Option<Card> {
    match a {
        Action::Play(c, _) => Some(*c),
        _ => None,
    }
}
