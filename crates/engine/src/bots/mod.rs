//! Built-in bots. A bot sees only an observation ([`View`]) — never the state — and returns one
//! of its legal actions. Both bots play every registered game: [`RandomBot`] through [`View`]
//! alone, [`HeuristicBot`] through each game's own lessons (its module's `bot.rs`).

mod bot;
pub(crate) mod cardplay;
mod heuristic;
mod random;

pub use bot::Bot;
pub use heuristic::HeuristicBot;
pub(crate) use heuristic::play_card;
pub use random::{Driver, RandomBot, RandomRun, random_hands};

use crate::game::AnyMatch;
pub use crate::game::View;

/// The names [`by_name`] knows.
pub const BOT_NAMES: [&str; 3] = ["random", "heuristic", "pimc"];

/// A bot for any registered game by name, seeded with `seed`: `random`, `heuristic`, or
/// `pimc` with optional parameters after a colon (`pimc:worlds=64:ms=50`, see
/// [`Budget::parse`](crate::search::Budget::parse)). `None` for an unknown name or bad
/// parameters; [`bot_from_spec`] says why.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Bot + Send>> {
    bot_from_spec(name, seed).ok()
}

/// Why a bot name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    /// No bot has this name.
    #[error("unknown bot {0:?}; known: random, heuristic, pimc[:worlds=N:ms=N:solve=N]")]
    Unknown(String),
    /// The name takes no parameters, or they are bad.
    #[error("bot {name}: {why}")]
    Parameters {
        /// The bot's name.
        name: String,
        /// What is wrong.
        why: String,
    },
}

/// Like [`by_name`], with the reason when the name or its parameters are refused.
pub fn bot_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot + Send>, BotSpecError> {
    let spec = spec.trim().to_ascii_lowercase();
    let (name, params) = match spec.split_once(':') {
        Some((n, p)) => (n.trim(), Some(p)),
        None => (spec.as_str(), None),
    };
    let plain = |bot: Box<dyn Bot + Send>| match params {
        Some(_) => Err(BotSpecError::Parameters {
            name: name.to_owned(),
            why: "takes no parameters".to_owned(),
        }),
        None => Ok(bot),
    };
    match name {
        "random" => plain(Box::new(RandomBot::new(seed))),
        "heuristic" => plain(Box::new(HeuristicBot::new(seed))),
        "pimc" => {
            let budget = crate::search::Budget::parse(params.unwrap_or("")).map_err(|e| {
                BotSpecError::Parameters {
                    name: name.to_owned(),
                    why: e.to_string(),
                }
            })?;
            Ok(Box::new(crate::search::PimcBot::new(seed, budget)))
        }
        "ismcts" => {
            let budget =
                crate::search::IsmctsBudget::parse(params.unwrap_or("")).map_err(|why| {
                    BotSpecError::Parameters {
                        name: name.to_owned(),
                        why,
                    }
                })?;
            Ok(Box::new(crate::search::IsmctsBot::new(seed, budget)))
        }
        _ => Err(BotSpecError::Unknown(spec.clone())),
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
