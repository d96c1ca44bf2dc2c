//! Built-in bots. A bot sees only an observation ([`View`]) — never the state — and returns one
//! of its legal actions. Both bots play every registered game: [`RandomBot`] through [`View`]
//! alone, [`HeuristicBot`] through each game's own lessons (its module's `bot.rs`).

pub(crate) mod cardplay;
mod heuristic;
mod random;

pub use heuristic::HeuristicBot;
pub(crate) use heuristic::play_card;
pub use random::{Driver, RandomBot, RandomRun, random_hands};

use crate::action::Action;
pub use crate::game::View;
use crate::game::{AnyMatch, AnyObservation};

/// A player program for the game whose observations are `O` (by default any registered game).
/// `act` is called only when the observation's legal actions are non-empty, and must return one
/// of them.
pub trait Bot<O = AnyObservation> {
    /// A short name for summaries.
    fn name(&self) -> &str;
    /// Chooses one of the observation's legal actions.
    fn act(&mut self, obs: &O) -> Action;
}

/// The names [`by_name`] knows.
pub const BOT_NAMES: [&str; 2] = ["random", "heuristic"];

/// A bot for any registered game by name (`random` or `heuristic`), seeded with `seed`.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Bot + Send>> {
    match name.trim().to_ascii_lowercase().as_str() {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(HeuristicBot::new(seed))),
        _ => None,
    }
}

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
