//! [`BestBot`]: the strongest bot of each game, by the duplicate measurements of
//! `docs/BOTS.md`. Where a bot name is accepted, `best` names it, so that a player who wants
//! the strongest opponent need not follow which candidate leads in which game.

use crate::action::Action;
use crate::bots::{Bot, BotSpec};
use crate::game::{AnyObservation, Rules};

use super::{Budget, IsmctsBudget};

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
        for pair in spec
            .split([',', ':'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key.trim() {
                "ms" => {
                    b.ms = Some(
                        value
                            .trim()
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

/// The bot `best` plays as under `rules`, with its default budget: the candidate with the
/// best measured margin in that game (docs/BOTS.md, "Side by side").
pub fn best_for(rules: &Rules) -> BotSpec {
    let ismcts = BotSpec::Ismcts(IsmctsBudget::default());
    match (rules.game_name(), rules.seats()) {
        // Three-player Calabresella: ismcts is level with pimc, and pimc is the faster.
        ("calabresella", 3) => BotSpec::Pimc(Budget::default()),
        _ => ismcts,
    }
}

/// The strongest bot of each game: it plays as [`best_for`] the game of the observation it is
/// asked about, with its own time ceiling.
pub struct BestBot {
    seed: u64,
    budget: BestBudget,
    /// The bot it plays as, and the rules it was chosen for.
    inner: Option<(Rules, Box<dyn Bot + Send>)>,
}

impl BestBot {
    /// A bot seeded with `seed` that thinks within `budget`.
    pub fn new(seed: u64, budget: BestBudget) -> BestBot {
        BestBot {
            seed,
            budget,
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
            let mut spec = best_for(&rules);
            if let Some(ms) = self.budget.ms {
                spec = spec.capped(ms);
            }
            self.inner = Some((rules, spec.build(self.seed)));
        }
        match &mut self.inner {
            Some((_, bot)) => bot.act(obs),
            None => obs.legal_actions().first().copied().unwrap_or(Action::Pass),
        }
    }
}
