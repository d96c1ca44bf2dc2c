//! How the [`HeuristicBot`] plays Tressette: the shared card play, with the partner across
//! the table (none in Due).

use crate::action::Action;
use crate::bots::cardplay::{self, Table};
use crate::bots::{Bot, HeuristicBot};

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
        let partner = (n == 4).then(|| me.next(n).next(n));
        cardplay::choose(&Table::seen_by(
            obs.hand,
            &obs.legal_actions,
            &obs.trick,
            (partner, obs.played()),
            usize::from(n),
        ))
        .unwrap_or(fallback)
    }
}
