//! Built-in bots. A bot sees only an observation ([`View`]) — never the state — and returns one
//! of its legal actions. Both bots play every registered game: [`RandomBot`] through [`View`]
//! alone, [`HeuristicBot`] through each game's own lessons (its module's `bot.rs`).

mod bot;
pub(crate) mod cardplay;
mod heuristic;
mod random;
mod spec;

pub use bot::Bot;
pub use heuristic::HeuristicBot;
pub(crate) use heuristic::play_card;
pub use random::{Driver, RandomBot, RandomRun, random_hands};
pub use spec::{BOT_NAMES, BotSpec, BotSpecError, best_for, bot_from_spec, by_name};

use crate::game::AnyMatch;
pub use crate::game::View;

/// Plays `m` to its end, asking `bots[seat]` whenever `seat` must decide. Each bot sees only
/// its own seat's observation. A bot answer that is not legal is replaced by the first legal
/// action, so a faulty bot cannot stall the match; the count of such replacements is returned.
pub fn play_out<B: Bot + ?Sized>(m: &mut AnyMatch, bots: &mut [Box<B>]) -> usize {
    let mut faults = 0;
    while let Some(seat) = m.decider() {
        let Some(obs) = m.observation(crate::game::Viewer::Seat(seat)) else {
            break;
        };
        let choice = bots[seat.index()].act(&obs);
        if m.try_apply_as(seat, choice).is_err() {
            faults += 1;
            let fallback = obs.legal_actions()[0];
            if m.try_apply_as(seat, fallback).is_err() {
                break;
            }
        }
    }
    faults
}
