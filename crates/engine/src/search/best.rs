//! [`BestBot`]: the strongest bot of each game, by the duplicate measurements of
//! `docs/BOTS.md`. Where a bot name is accepted, `best` names it, so that a player who wants
//! the strongest opponent need not follow which candidate leads in which game. Which bot that
//! is, per game, is part of what the name means: [`crate::bots::best_for`].

use crate::action::Action;
use crate::bots::Bot;
use crate::game::{AnyObservation, Rules};

/// How much a [`BestBot`] may think per decision: only a ceiling in time, which it passes on
/// to the bot it plays as.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BestBudget {
    /// Milliseconds per decision, at most, when set.
    pub ms: Option<u32>,
}

impl BestBudget {
    /// Parses `ms=N` (the only parameter); empty text is the default.
    pub fn parse(spec: &str) -> Result<BestBudget, String> {
        let mut b = BestBudget::default();
        for (key, value) in super::parameters(spec) {
            match key {
                "ms" => {
                    b.ms = Some(
                        value
                            .parse::<u32>()
                            .ok()
                            .filter(|v| (1..=600_000).contains(v))
                            .ok_or_else(|| {
                                format!("best parameter ms: bad value {value:?} (1 to 600000)")
                            })?,
                    );
                }
                other => {
                    return Err(format!("unknown best parameter {other:?}; known: ms"));
                }
            }
        }
        Ok(b)
    }
}

/// How a [`BestBot`] finds the bot it plays as: from the rules of the game it is asked about,
/// its time ceiling and its seed ([`crate::bots::best_for`] names the bot).
pub type Chooser = fn(&Rules, Option<u32>, u64) -> Box<dyn Bot + Send>;

/// The strongest bot of each game: it plays as its [`Chooser`] picks for the game of the
/// observation it is asked about, with its own time ceiling.
pub struct BestBot {
    seed: u64,
    budget: BestBudget,
    choose: Chooser,
    /// The bot it plays as, and the rules it was chosen for.
    inner: Option<(Rules, Box<dyn Bot + Send>)>,
}

impl BestBot {
    /// A bot seeded with `seed` that thinks within `budget`, playing as `choose` picks.
    pub fn new(seed: u64, budget: BestBudget, choose: Chooser) -> BestBot {
        BestBot {
            seed,
            budget,
            choose,
            inner: None,
        }
    }
}

impl std::fmt::Debug for BestBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BestBot")
            .field("seed", &self.seed)
            .field("budget", &self.budget)
            .field("playing_as", &self.inner.as_ref().map(|(_, b)| b.name()))
            .finish()
    }
}

impl Bot<AnyObservation> for BestBot {
    fn name(&self) -> &str {
        "best"
    }

    fn act(&mut self, obs: &AnyObservation) -> Action {
        let rules = obs.rules();
        if self.inner.as_ref().is_none_or(|(r, _)| *r != rules) {
            let bot = (self.choose)(&rules, self.budget.ms, self.seed);
            self.inner = Some((rules, bot));
        }
        match &mut self.inner {
            Some((_, bot)) => bot.act(obs),
            None => obs.legal_actions().first().copied().unwrap_or(Action::Pass),
        }
    }
}
