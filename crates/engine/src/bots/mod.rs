//! Built-in bots. A bot sees only an [`Observation`] — never the state — and returns one of
//! its legal actions.

mod heuristic;
mod random;

pub use heuristic::HeuristicBot;
pub use random::{Driver, RandomBot, RandomRun, random_hands};

use crate::action::Action;
use crate::calabresella::{Match, Observation, Viewer};

/// A player program. `act` is called only when `obs.legal_actions` is non-empty, and must
/// return one of them.
pub trait Bot {
    /// A short name for summaries.
    fn name(&self) -> &str;
    /// Chooses an action from `obs.legal_actions`.
    fn act(&mut self, obs: &Observation) -> Action;
}

/// The names [`by_name`] knows.
pub const BOT_NAMES: [&str; 2] = ["random", "heuristic"];

/// A bot by name (`random` or `heuristic`), seeded with `seed`.
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
pub fn play_out<B: Bot + ?Sized>(m: &mut Match, bots: &mut [Box<B>]) -> usize {
    let mut faults = 0;
    while let Some(seat) = m.decider() {
        let Some(obs) = m.observation(Viewer::Seat(seat)) else {
            break;
        };
        let choice = bots[seat.index()].act(&obs);
        if m.try_apply_as(seat, choice).is_err() {
            faults += 1;
            let fallback = obs.legal_actions[0];
            if m.try_apply_as(seat, fallback).is_err() {
                break;
            }
        }
    }
    faults
}
