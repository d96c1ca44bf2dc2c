//! [`BotSpec`]: a built-in bot named with its parameters (`pimc:worlds=64:ms=50`, `best`),
//! parsed once, so that the places that seat bots (the CLI, a server, Python) agree on what a
//! name means, which bots think, and how their time is capped.

use crate::game::Rules;
use crate::search::{BestBot, BestBudget, Budget, IsmctsBudget};

use super::{Bot, HeuristicBot, RandomBot};

/// The names a [`BotSpec`] knows.
pub const BOT_NAMES: [&str; 5] = ["random", "heuristic", "pimc", "ismcts", "best"];

/// Why a bot name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    /// No bot has this name.
    #[error(
        "unknown bot {0:?}; known: random, heuristic, pimc[:worlds=N:ms=N:solve=N], \
         ismcts[:iterations=N:ms=N], best[:ms=N]"
    )]
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

/// A built-in bot with its parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BotSpec {
    /// A uniformly random legal action.
    Random,
    /// The rules of thumb of each game.
    Heuristic,
    /// Perfect-information Monte Carlo.
    Pimc(Budget),
    /// Information-set Monte Carlo tree search.
    Ismcts(IsmctsBudget),
    /// The strongest bot of each game ([`crate::search::best`]).
    Best(BestBudget),
}

impl BotSpec {
    /// Parses a name with optional parameters after a colon, case and surrounding space
    /// ignored.
    pub fn parse(spec: &str) -> Result<BotSpec, BotSpecError> {
        let spec = spec.trim().to_ascii_lowercase();
        let (name, params) = match spec.split_once(':') {
            Some((n, p)) => (n.trim(), Some(p)),
            None => (spec.as_str(), None),
        };
        let bad = |why: String| BotSpecError::Parameters {
            name: name.to_owned(),
            why,
        };
        let plain = |bot: BotSpec| match params {
            Some(_) => Err(bad("takes no parameters".to_owned())),
            None => Ok(bot),
        };
        let params = params.unwrap_or("");
        match name {
            "random" => plain(BotSpec::Random),
            "heuristic" => plain(BotSpec::Heuristic),
            "pimc" => Budget::parse(params)
                .map(BotSpec::Pimc)
                .map_err(|e| bad(e.to_string())),
            "ismcts" => IsmctsBudget::parse(params)
                .map(BotSpec::Ismcts)
                .map_err(bad),
            "best" => BestBudget::parse(params).map(BotSpec::Best).map_err(bad),
            _ => Err(BotSpecError::Unknown(spec.clone())),
        }
    }

    /// The bot, seeded with `seed`.
    pub fn build(&self, seed: u64) -> Box<dyn Bot + Send> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Heuristic => Box::new(HeuristicBot::new(seed)),
            BotSpec::Pimc(b) => Box::new(crate::search::PimcBot::new(seed, b)),
            BotSpec::Ismcts(b) => Box::new(crate::search::IsmctsBot::new(seed, b)),
            BotSpec::Best(b) => Box::new(BestBot::new(seed, b, play_best)),
        }
    }

    /// The bot's name without parameters.
    pub fn name(&self) -> &'static str {
        match self {
            BotSpec::Random => "random",
            BotSpec::Heuristic => "heuristic",
            BotSpec::Pimc(_) => "pimc",
            BotSpec::Ismcts(_) => "ismcts",
            BotSpec::Best(_) => "best",
        }
    }

    /// Whether the bot searches (takes time to think): the ones whose time a server caps and
    /// paces.
    pub fn thinks(&self) -> bool {
        !matches!(self, BotSpec::Random | BotSpec::Heuristic)
    }

    /// The bot's ceiling in milliseconds per decision, when it has one.
    pub fn ms(&self) -> Option<u32> {
        match self {
            BotSpec::Random | BotSpec::Heuristic => None,
            BotSpec::Pimc(b) => b.ms,
            BotSpec::Ismcts(b) => b.ms,
            BotSpec::Best(b) => b.ms,
        }
    }

    /// The same bot with its time ceiling held to at most `max_ms` (set to it where it has
    /// none). Only the ceiling changes: a budget in worlds or iterations stays, so the bot
    /// plays as it would in-process unless the time runs out first.
    pub fn capped(mut self, max_ms: u32) -> BotSpec {
        let cap = |ms: &mut Option<u32>| *ms = Some(ms.map_or(max_ms, |m| m.min(max_ms)));
        match &mut self {
            BotSpec::Random | BotSpec::Heuristic => {}
            BotSpec::Pimc(b) => cap(&mut b.ms),
            BotSpec::Ismcts(b) => cap(&mut b.ms),
            BotSpec::Best(b) => cap(&mut b.ms),
        }
        self
    }

    /// Whether the bot is at its default strength: its default budget, whatever its time
    /// ceiling (bots of different strength are different players in a results table).
    pub fn default_strength(&self) -> bool {
        match *self {
            BotSpec::Random | BotSpec::Heuristic => true,
            BotSpec::Pimc(b) => Budget { ms: None, ..b } == Budget::default(),
            BotSpec::Ismcts(b) => IsmctsBudget { ms: None, ..b } == IsmctsBudget::default(),
            BotSpec::Best(_) => true,
        }
    }
}

/// The bot `best` plays as under `rules`: the candidate with the best measured margin against
/// `pimc` in that game (docs/BOTS.md, "Side by side"); `pimc` itself would be the choice in a
/// game where no candidate is ahead of it.
pub fn best_for(rules: &Rules) -> BotSpec {
    use crate::search::Finish;
    let ismcts = IsmctsBudget::default();
    let inferring = IsmctsBudget {
        infer: Some(30),
        ..ismcts
    };
    // Measured in the default seating of each game; the other seatings (Calabresella with an
    // idle dealer, Tressette con la Chiamata with four) follow their game.
    match rules {
        // A due: the dummy's hand is open, and weighting worlds by the play only cost.
        Rules::Calabresella(o) if o.a_due => BotSpec::Ismcts(ismcts),
        // A contract made or failed: play-outs finished exactly for the last three tricks.
        Rules::Calabresella(_) => BotSpec::Ismcts(IsmctsBudget {
            finish: Some(Finish::Tricks(3)),
            ..inferring
        }),
        // The same from the solver's depth (ahead on four seeds, by about 0.07 a hand).
        Rules::Chiamata(o) if o.variant == crate::chiamata::Variant::Tressette => {
            BotSpec::Ismcts(IsmctsBudget {
                finish: Some(Finish::AtSolverDepth),
                ..inferring
            })
        }
        // Tressette, in Due, Briscola Chiamata: tree search with inference.
        Rules::Tressette(_) | Rules::Chiamata(_) => BotSpec::Ismcts(inferring),
    }
}

/// The bot `best` plays as under `rules`, with the time ceiling `ms` and seeded with `seed`.
fn play_best(rules: &Rules, ms: Option<u32>, seed: u64) -> Box<dyn Bot + Send> {
    let spec = best_for(rules);
    ms.map_or(spec, |ms| spec.capped(ms)).build(seed)
}

/// A bot for any registered game by name, seeded with `seed` (see [`BotSpec::parse`]). `None`
/// for an unknown name or bad parameters; [`bot_from_spec`] says why.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Bot + Send>> {
    bot_from_spec(name, seed).ok()
}

/// Like [`by_name`], with the reason when the name or its parameters are refused.
pub fn bot_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot + Send>, BotSpecError> {
    BotSpec::parse(spec).map(|s| s.build(seed))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_and_builds_a_bot_of_that_name() {
        for name in BOT_NAMES {
            let spec = BotSpec::parse(&format!("  {}  ", name.to_ascii_uppercase())).unwrap();
            assert_eq!(spec.name(), name);
            assert_eq!(spec.build(1).name(), name);
            assert!(spec.default_strength());
            assert_eq!(spec.thinks(), !matches!(name, "random" | "heuristic"));
        }
    }

    #[test]
    fn the_cap_sets_or_lowers_the_ceiling_and_nothing_else() {
        for name in ["pimc", "ismcts", "best"] {
            let free = BotSpec::parse(name).unwrap();
            assert_eq!(free.ms(), None);
            assert_eq!(free.capped(100).ms(), Some(100));
            assert!(free.capped(100).default_strength());
            let slow = BotSpec::parse(&format!("{name}:ms=500")).unwrap();
            assert_eq!(slow.capped(100).ms(), Some(100));
            let quick = BotSpec::parse(&format!("{name}:ms=20")).unwrap();
            assert_eq!(quick.capped(100), quick);
        }
        assert_eq!(BotSpec::Heuristic.capped(5).ms(), None);
        assert!(
            !BotSpec::parse("ismcts:iterations=10")
                .unwrap()
                .default_strength()
        );
    }

    #[test]
    fn bad_names_and_parameters_are_refused_with_the_reason() {
        for (spec, says) in [
            ("alphazero", "unknown bot"),
            ("random:x=1", "takes no parameters"),
            ("pimc:worlds=0", "worlds"),
            ("ismcts:iterations=0", "iterations"),
            ("best:worlds=4", "unknown best parameter"),
            ("best:ms=0", "ms"),
        ] {
            let err = BotSpec::parse(spec).unwrap_err().to_string();
            assert!(err.contains(says), "{spec}: {err}");
        }
    }
}
