//! Built-in bots. A bot sees only an observation ([`View`]) — never the state — and returns one of
//! its legal actions.

mod cardplay;
mod heuristic;
mod random;

pub use heuristic::HeuristicBot;
pub use random::{Driver, RandomBot, RandomRun, random_hands, random_tressette_hands};

use crate::action::Action;
use crate::calabresella;
use crate::tressette;

pub use crate::playable::Playable;

/// What every game's observation offers a bot.
pub trait View {
    /// The viewer's legal actions (empty when it need not act).
    fn legal_actions(&self) -> &[Action];
}

impl View for calabresella::Observation {
    fn legal_actions(&self) -> &[Action] {
        &self.legal_actions
    }
}

impl View for tressette::Observation {
    fn legal_actions(&self) -> &[Action] {
        &self.legal_actions
    }
}

/// A player program for the game whose observations are `O`. `act` is called only when the
/// observation's legal actions are non-empty, and must return one of them.
pub trait Bot<O = calabresella::Observation> {
    /// A short name for summaries.
    fn name(&self) -> &str;
    /// Chooses one of the observation's legal actions.
    fn act(&mut self, obs: &O) -> Action;
}

/// The names [`by_name`] knows.
pub const BOT_NAMES: [&str; 2] = ["random", "heuristic"];

/// A bot by name (`random` or `heuristic`) for the game whose observations are `O`, seeded
/// with `seed`.
pub fn by_name<O: 'static>(name: &str, seed: u64) -> Option<Box<dyn Bot<O> + Send>>
where
    RandomBot: Bot<O>,
    HeuristicBot: Bot<O>,
{
    match name.trim().to_ascii_lowercase().as_str() {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(HeuristicBot::new(seed))),
        _ => None,
    }
}

/// Plays `m` to its end, asking `bots[seat]` whenever `seat` must decide. Each bot sees only
/// its own seat's observation. A bot answer that is not legal is replaced by the first legal
/// action, so a faulty bot cannot stall the match; the count of such replacements is returned.
pub fn play_out<M: Playable, B: Bot<M::Obs> + ?Sized>(m: &mut M, bots: &mut [Box<B>]) -> usize {
    let mut faults = 0;
    while let Some(seat) = m.decider() {
        let Some(obs) = m.view(seat) else { break };
        let choice = bots[seat.index()].act(&obs);
        if m.act_as(seat, choice).is_err() {
            faults += 1;
            let fallback = obs.legal_actions()[0];
            if m.act_as(seat, fallback).is_err() {
                break;
            }
        }
    }
    faults
}
