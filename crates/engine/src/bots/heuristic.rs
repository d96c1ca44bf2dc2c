//! [`HeuristicBot`]: a rule-based player for every game. Each game teaches it in its own
//! module (`bot.rs`: bidding, calling, discarding); the card play they share is
//! [`super::cardplay`].

use super::Bot;
use crate::action::Action;
use crate::card::Card;
use crate::game::AnyObservation;

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

/// The heuristic plays any registered game: each game's observation goes to the lessons of that
/// game's own `bot.rs`.
macro_rules! heuristic_for_any_game {
    ($($V:ident => $m:ident),* $(,)?) => {
        impl Bot<AnyObservation> for HeuristicBot {
            fn name(&self) -> &str {
                "heuristic"
            }
            fn act(&mut self, obs: &AnyObservation) -> Action {
                match obs {
                    $(AnyObservation::$V(o) => Bot::act(self, o),)*
                }
            }
        }
    };
}
crate::for_each_game!(heuristic_for_any_game);
