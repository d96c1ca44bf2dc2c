//! [`PimcBot`]: perfect-information Monte Carlo. For each decision it samples worlds
//! consistent with its observation, scores every legal action in each world (exactly with the
//! [`Solver`] once few tricks are left, by heuristic play-outs before that, auction and monte
//! decisions included), and takes the action with the best total.
//!
//! Each decision draws its worlds from a generator seeded by the bot's seed and the position
//! (the hand and how far into it), so the bot keeps no stream between decisions: the same
//! observation gets the same answer for a budget in worlds. A budget in milliseconds stops
//! sampling when the time is spent, so its choices depend on the machine's speed.

use std::time::{Duration, Instant};

use crate::action::Action;
use crate::bots::{Bot, HeuristicBot, View};
use crate::game::{AnyObservation, Rollout};
use crate::rng::GameRng;
use crate::seat::Seat;

use super::{Searchable, Solver, WorldError, WorldSampler};

/// How much a [`PimcBot`] may think per decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Worlds sampled per decision (at most).
    pub worlds: u32,
    /// Work per decision (at most), counted, not timed: each action a play-out takes is one
    /// unit, and [`NODES_PER_UNIT`] solver positions are one. Sampling stops once a world
    /// brings the total to it (after at least [`MIN_WORLDS`] worlds), so a decision with many
    /// actions to score, or long play-outs (the call, the discards), samples fewer worlds: its
    /// time stays bounded and the bot stays deterministic.
    pub work: u32,
    /// Milliseconds per decision (at most), when set.
    pub ms: Option<u32>,
    /// Solve exactly once this many tricks or fewer are left (`None`: the game's default).
    pub solve: Option<u32>,
    /// Inference: weight each world by how likely the other players' actions so far were in
    /// it, as the heuristic would have played: each action it would not have taken multiplies
    /// the world's weight by this many hundredths (1 to 99; `None`: every world counts alike).
    pub infer: Option<u32>,
}

/// The fewest worlds a decision samples whatever its number of actions (unless `worlds` is
/// lower).
pub const MIN_WORLDS: u32 = 8;

/// Solver positions that count as one unit of [`Budget::work`] (a position costs about a
/// hundredth of a play-out action).
pub const NODES_PER_UNIT: u64 = 64;

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            worlds: 64,
            work: 12_000,
            ms: None,
            solve: None,
            infer: None,
        }
    }
}

/// A bad `pimc` parameter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PimcError {
    /// A parameter the bot does not have.
    #[error("unknown pimc parameter {0:?}; known: worlds, work, ms, solve, infer")]
    Unknown(String),
    /// A value that is not a number in range.
    #[error("pimc parameter {key}: bad value {value:?} ({expected})")]
    BadValue {
        /// The parameter.
        key: String,
        /// The value given.
        value: String,
        /// The range.
        expected: &'static str,
    },
}

impl Budget {
    /// Parses `key=value` pairs separated by colons or commas (`worlds=64:ms=50:solve=5`;
    /// colons fit inside comma-separated bot lists); empty text
    /// is the default budget.
    pub fn parse(spec: &str) -> Result<Budget, PimcError> {
        let mut b = Budget::default();
        for (key, value) in super::parameters(spec) {
            let num = |lo: u32, hi: u32, expected: &'static str| {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|v| (lo..=hi).contains(v))
                    .ok_or_else(|| PimcError::BadValue {
                        key: key.to_owned(),
                        value: value.to_owned(),
                        expected,
                    })
            };
            match key {
                "worlds" => b.worlds = num(1, 100_000, "1 to 100000")?,
                "work" => b.work = num(1, 100_000_000, "1 to 100000000")?,
                "ms" => {
                    b.ms = Some(num(1, 600_000, "1 to 600000")?);
                    // A time budget alone (no worlds, no work) samples until the time is spent;
                    // with either, the time is a ceiling on the budget they set.
                    if !spec.contains("worlds") && !spec.contains("work") {
                        b.worlds = 100_000;
                        b.work = 100_000_000;
                    }
                }
                "solve" => b.solve = Some(num(0, 20, "0 to 20")?),
                "infer" => b.infer = Some(num(0, 99, "0 (off) to 99")?).filter(|&w| w > 0),
                _ => return Err(PimcError::Unknown(key.to_owned())),
            }
        }
        Ok(b)
    }
}

/// What PIMC needs of a game beyond [`Searchable`] hands: worlds from an observation, and an
/// observation of a world for the heuristic's play-outs. Each game implements it in its
/// `world.rs`.
pub trait Determinize {
    /// The game's hand.
    type Hand: Searchable + crate::game::GameHand;
    /// The game's observation.
    type Obs: View;
    /// The worlds `obs` allows.
    fn sampler(obs: &Self::Obs) -> Result<WorldSampler<Self::Hand>, WorldError>;
    /// The seat whose view `obs` is.
    fn seat(obs: &Self::Obs) -> Option<Seat>;
    /// Who decides in `hand` now (the actor, or who plays a dummy for it).
    fn decider(hand: &Self::Hand) -> Option<Seat>;
    /// `seat`'s view of a world, for the heuristic.
    fn view(hand: &Self::Hand, seat: Seat) -> Self::Obs;
    /// Tricks left from which the solver replaces play-outs by default.
    fn solve_tricks(hand: &Self::Hand) -> u32;
    /// Where in the match `obs` is: the hand number and how many events it has seen.
    fn position(obs: &Self::Obs) -> u64;
    /// The hand as it was dealt, before any action.
    fn dealt(hand: &Self::Hand) -> Self::Hand;
}

/// Implements [`Determinize`] for the game module it is called in: `super::Match` with the
/// `Hand` and `Observation` in scope. Only when to solve differs between games.
macro_rules! determinize {
    (solve_tricks: |$t:ident| $solve:expr $(,)?) => {
        impl $crate::search::pimc::Determinize for super::Match {
            type Hand = Hand;
            type Obs = Observation;
            fn sampler(
                obs: &Observation,
            ) -> Result<$crate::search::WorldSampler<Hand>, $crate::search::WorldError> {
                obs.world_sampler()
            }
            fn seat(obs: &Observation) -> Option<$crate::seat::Seat> {
                obs.viewer.seat()
            }
            fn decider(hand: &Hand) -> Option<$crate::seat::Seat> {
                <Hand as $crate::game::HandRules>::decider(hand)
            }
            fn view(hand: &Hand, seat: $crate::seat::Seat) -> Observation {
                hand.observation($crate::game::Viewer::Seat(seat))
            }
            fn solve_tricks($t: &Hand) -> u32 {
                $solve
            }
            fn position(obs: &Observation) -> u64 {
                (u64::from(obs.hand_number) << 32) | obs.events.len() as u64
            }
            fn dealt(hand: &Hand) -> Hand {
                let core = $crate::game::GameHand::core(hand);
                <Hand as $crate::game::HandRules>::new_unchecked(
                    *core.options(),
                    core.dealer(),
                    *core.deal(),
                )
            }
        }
    };
}
pub(crate) use determinize;

/// The perfect-information Monte Carlo bot; plays every registered game.
#[derive(Debug, Clone)]
pub struct PimcBot {
    name: String,
    seed: u64,
    budget: Budget,
    heuristic: HeuristicBot,
    worlds_seen: u64,
}

impl PimcBot {
    /// A bot seeded with `seed` that thinks within `budget`.
    pub fn new(seed: u64, budget: Budget) -> PimcBot {
        PimcBot {
            name: "pimc".to_owned(),
            seed,
            budget,
            heuristic: HeuristicBot::new(seed),
            worlds_seen: 0,
        }
    }

    /// Worlds sampled over the bot's life (for speed figures).
    pub fn worlds_seen(&self) -> u64 {
        self.worlds_seen
    }

    /// Every legal action of `obs` with its mean value over the sampled worlds, in legal
    /// order; empty when no world could be sampled.
    pub fn evaluate<D: Determinize>(&mut self, obs: &D::Obs) -> Vec<(Action, f64)>
    where
        HeuristicBot: Bot<D::Obs>,
    {
        let legal = obs.legal_actions().to_vec();
        let (Some(seat), Ok(sampler)) = (D::seat(obs), D::sampler(obs)) else {
            return Vec::new();
        };
        let start = Instant::now();
        let mut rng = GameRng::from_seed(super::mix(self.seed, D::position(obs)));
        let limit = self
            .budget
            .ms
            .map(|ms| Duration::from_millis(u64::from(ms)));
        let mut totals = vec![0.0f64; legal.len()];
        let mut weights = 0.0f64;
        let mut worlds = 0u32;
        let mut solver = Solver::new();
        solver.set_deadline(limit.map(|l| start + l));
        let mut work = 0u64;
        while worlds < self.budget.worlds {
            if limit.is_some_and(|l| worlds > 0 && start.elapsed() >= l) {
                break;
            }
            if worlds >= MIN_WORLDS && work >= u64::from(self.budget.work) {
                break;
            }
            let Ok(world) = sampler.sample(&mut rng) else {
                break;
            };
            let weight = match self.budget.infer {
                Some(miss) => self.likelihood::<D>(&world, seat, f64::from(miss) / 100.0),
                None => 1.0,
            };
            solver.clear();
            let nodes = solver.nodes();
            let mut values = Vec::with_capacity(legal.len());
            let solve_from = self.budget.solve.unwrap_or_else(|| D::solve_tricks(&world));
            for (i, &a) in legal.iter().enumerate() {
                let mut child = world.clone();
                child.apply_unchecked(a);
                let v = if child.in_play() && child.tricks_left() <= solve_from {
                    solver.solve(&child, seat)
                } else {
                    let (v, steps) = self.playout::<D>(child, seat);
                    work += steps;
                    v
                };
                values.push((i, v));
            }
            work += (solver.nodes() - nodes) / NODES_PER_UNIT;
            // A world the solver could not finish in time does not count.
            if solver.aborted() {
                break;
            }
            worlds += 1;
            weights += weight;
            for (i, v) in values {
                totals[i] += weight * f64::from(v);
            }
        }
        self.worlds_seen += u64::from(worlds);
        if worlds == 0 || weights <= 0.0 {
            return Vec::new();
        }
        legal
            .into_iter()
            .zip(totals)
            .map(|(a, t)| (a, t / weights))
            .collect()
    }

    /// How likely the other seats' actions so far are in `world` if they played as the
    /// heuristic does: see [`likelihood`].
    fn likelihood<D: Determinize>(&mut self, world: &D::Hand, seat: Seat, miss: f64) -> f64
    where
        HeuristicBot: Bot<D::Obs>,
    {
        likelihood::<D>(&mut self.heuristic, world, seat, miss, false)
    }

    /// Plays `hand` out with the heuristic in every seat: its value for `seat`'s side, and the
    /// actions it took.
    fn playout<D: Determinize>(&mut self, mut hand: D::Hand, seat: Seat) -> (i32, u64)
    where
        HeuristicBot: Bot<D::Obs>,
    {
        let mut steps = 0;
        while !hand.is_over() {
            let Some(d) = D::decider(&hand) else {
                break;
            };
            let a = self.heuristic.act(&D::view(&hand, d));
            hand.apply_unchecked(a);
            steps += 1;
        }
        (hand.value(seat), steps)
    }

    /// The action with the best mean over the sampled worlds (the heuristic's when none).
    pub(crate) fn decide<D: Determinize>(&mut self, obs: &D::Obs) -> Action
    where
        HeuristicBot: Bot<D::Obs>,
    {
        let legal = obs.legal_actions();
        if legal.len() <= 1 {
            return legal.first().copied().unwrap_or(Action::Pass);
        }
        let scored = self.evaluate::<D>(obs);
        // Ties keep the earlier action; no world at all falls back on the heuristic.
        match scored
            .iter()
            .fold(None::<(Action, f64)>, |best, &(a, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((a, v)),
            }) {
            Some((a, _)) => a,
            None => self.heuristic.act(obs),
        }
    }
}

/// How likely the actions of the seats other than `seat` so far are in `world` if they played
/// as `heuristic` does: a factor `miss` for each decision where it would have chosen otherwise
/// (decisions with one legal action say nothing). With `before_play`, only the decisions
/// before the first card count (bids, calls, the monte, discards).
pub(crate) fn likelihood<D: Determinize>(
    heuristic: &mut HeuristicBot,
    world: &D::Hand,
    seat: Seat,
    miss: f64,
    before_play: bool,
) -> f64
where
    HeuristicBot: Bot<D::Obs>,
{
    let mut hand = D::dealt(world);
    let mut weight = 1.0;
    for a in crate::game::GameHand::action_list(world) {
        let Some(d) = D::decider(&hand) else {
            break;
        };
        if before_play && hand.in_play() {
            break;
        }
        if d != seat && hand.num_legal_actions() > 1 {
            let guess = heuristic.act(&D::view(&hand, d));
            // The heuristic never signals: a lead signal is no evidence about the card.
            if guess.unsignalled() != a.unsignalled() {
                weight *= miss;
            }
        }
        hand.apply_unchecked(a);
    }
    weight
}

macro_rules! pimc_for_any_game {
    ($($V:ident => $m:ident),* $(,)?) => {
        impl Bot<AnyObservation> for PimcBot {
            fn name(&self) -> &str {
                &self.name
            }
            fn act(&mut self, obs: &AnyObservation) -> Action {
                match obs {
                    $(AnyObservation::$V(o) => self.decide::<crate::$m::Match>(o),)*
                }
            }
        }
    };
}
crate::for_each_game!(pimc_for_any_game);

#[cfg(test)]
#[allow(clippy::unwrap_used)] // In tests a panic is the failure report.
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_with_their_defaults_and_refuse_bad_parameters() {
        assert_eq!(Budget::parse("").unwrap(), Budget::default());
        let b = Budget::parse("worlds=8:solve=3").unwrap();
        assert_eq!((b.worlds, b.work, b.solve), (8, 12_000, Some(3)));
        // A time budget alone thinks until the time is spent...
        let t = Budget::parse("ms=50").unwrap();
        assert_eq!((t.ms, t.worlds, t.work), (Some(50), 100_000, 100_000_000));
        // ...and with worlds or work it is a ceiling on their budget.
        let c = Budget::parse("worlds=64,ms=100").unwrap();
        assert_eq!((c.ms, c.worlds, c.work), (Some(100), 64, 12_000));
        assert_eq!(Budget::parse("infer=30").unwrap().infer, Some(30));
        assert_eq!(Budget::parse("infer=0").unwrap().infer, None);
        for bad in [
            "worlds=0",
            "worlds=x",
            "ms=0",
            "infer=100",
            "depth=3",
            "solve=99",
        ] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_lead_signal_is_no_evidence_against_the_card() {
        use crate::action::Signal;
        use crate::game::{AnyMatch, Rules, Viewer};
        // Tressette con la Chiamata played by the heuristic in every seat to the first lead,
        // which is then led as the heuristic leads it, with and without a signal: every action
        // is the heuristic's, so a world with the true hands keeps its whole weight either way.
        let rules = Rules::parse("tressette-chiamata", []).unwrap();
        let mut heuristic = HeuristicBot::new(1);
        let mut checked = 0;
        for seed in 0..10 {
            let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
            let (leader, card) = loop {
                let d = m.decider().unwrap();
                let a = heuristic.act(&m.observation(Viewer::Seat(d)).unwrap());
                if let Action::Play(card, None) = a {
                    break (d, card);
                }
                m.try_apply_as(d, a).unwrap();
            };
            for signal in [None, Some(Signal::Busso), Some(Signal::Volo)] {
                let mut led = m.clone();
                led.try_apply_as(leader, Action::Play(card, signal))
                    .unwrap();
                let AnyMatch::Chiamata(g) = &led else {
                    panic!("a chiamata match")
                };
                let world = g.hands().last().unwrap();
                let viewer = led.decider().unwrap();
                let weight =
                    likelihood::<crate::chiamata::Match>(&mut heuristic, world, viewer, 0.3, false);
                assert_eq!(weight, 1.0, "seed {seed}, {card} led with {signal:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 30);
    }
}
