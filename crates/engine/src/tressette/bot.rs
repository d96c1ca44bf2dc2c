//! How the [`HeuristicBot`] plays Tressette: the shared card play, with the partner across
//! the table (none in Due).

use crate::action::Action;
use crate::bots::cardplay::{self, Table};
use crate::bots::{Bot, HeuristicBot, play_card};
use crate::cardset::CardSet;

use super::observation::Observation;

impl Bot<Observation> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    /// Tressette: the shared card play, with the partner across the table (none in Due). It
    /// sends no signals.
    fn act(&mut self, obs: &Observation) -> Action {
        let fallback = obs.legal_actions[0];
        let Some(me) = obs.viewer.seat() else {
            return fallback;
        };
        let n = obs.options.variant.players();
        let playable: CardSet = obs.legal_actions.iter().filter_map(play_card).collect();
        let trick_cards: CardSet = obs.trick.iter().map(|(_, c)| *c).collect();
        cardplay::choose(&Table {
            hand: obs.hand,
            playable,
            trick: &obs.trick,
            partner: (n == 4).then(|| me.next(n).next(n)),
            seen: obs.played() | obs.hand | trick_cards,
            trick_size: n as usize,
        })
        .unwrap_or(fallback)
    }
}
