//! [`IsmctsBot`]: single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
//! Powley and Whitehouse, 2012), a candidate for a bot stronger than [`super::PimcBot`].
//!
//! PIMC scores each action in each sampled world as if every hand were known, so it averages
//! over worlds decisions that a player could not make differently in them (strategy fusion).
//! ISMCTS grows one tree over the decider's information sets instead: each iteration samples a
//! world, walks down the tree choosing among the actions legal in that world (UCB1 with
//! availability counts, each seat's node scored from its own side's value), adds one node, and
//! plays the rest out with the heuristic. The statistics of a node are shared by every world
//! where its action was legal, so an action is judged by how it does without knowing the world.
//!
//! With `infer`, the worlds come from a pool sampled once per decision, each weighted by how
//! likely the other seats' actions so far were in it had they played as the heuristic does
//! (a secret partner who fed the caller's trick, a defender who passed), and each iteration
//! draws one in proportion to its weight: many iterations share the pool, so the weights cost
//! no fresh samples.
//!
//! With `finish`, a play-out stops once few tricks are left and one exact solve values the
//! rest for every seat on the tree's path (each seat's value is its scale of one unit): the
//! heuristic's errors late in a hand no longer blur the value of the early decisions.
//!
//! Once few tricks are left it hands the decision to PIMC, whose exact solver is stronger there
//! than play-outs; by default it does the same before the play (the auction, the call, the
//! monte and the discards), where each decision has many actions and the tree is shallow.

use std::time::{Duration, Instant};

use crate::action::Action;
use crate::bots::{Bot, HeuristicBot};
use crate::game::{AnyObservation, Rollout};
use crate::rng::GameRng;

use super::pimc::{Budget, Determinize, PimcBot};
use super::{Searchable, Solver, WorldSampler};

/// How much an [`IsmctsBot`] may think per decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IsmctsBudget {
    /// Iterations (sampled worlds, one tree walk each) per decision, at most.
    pub iterations: u32,
    /// Milliseconds per decision, at most, when set.
    pub ms: Option<u32>,
    /// UCB1's exploration constant, on values scaled to 0..1 by the extremes seen.
    pub explore: f64,
    /// Hand over to PIMC from this many tricks left (`None`: the game's solver depth).
    pub solve: Option<u32>,
    /// Whether PIMC takes the decisions before the play (auction, call, monte, discards).
    pub bid_by_pimc: bool,
    /// Inference: draw the worlds from a pool weighted by how likely the other players'
    /// actions so far were in each, as the heuristic would have played: each action it would
    /// not have taken multiplies a world's weight by this many hundredths (1 to 99; `None`:
    /// every world alike, each iteration a fresh one).
    pub infer: Option<u32>,
    /// With `infer`: whether only the decisions before the play count as evidence (bids,
    /// calls, the monte, discards), not the cards played.
    pub infer_bids_only: bool,
    /// With `infer`: worlds in the pool.
    pub pool: u32,
    /// The weight of the card-point margin added to a play-out's value where the game's value
    /// is coarse (a contract made or failed): at 1.0 all the points are worth one unit of
    /// the award. 0: the value alone.
    pub shape: f64,
    /// Finish each play-out exactly with the solver once this many tricks are left, instead
    /// of by the heuristic (`None`: the heuristic to the end). One solve values the position
    /// for every seat on the tree path, by its [`Searchable::value_scale`].
    pub finish: Option<Finish>,
    /// Whether the tree searches each lead signal (busso, striscio, volo) as an action of its
    /// own. Signals change neither legality nor score, and neither the heuristic nor the
    /// solver reads them, so each signalled lead would only split its card's visits four
    /// ways; when false the tree leads every card without a signal.
    pub signals: bool,
}

impl Default for IsmctsBudget {
    fn default() -> IsmctsBudget {
        IsmctsBudget {
            iterations: 2_000,
            ms: None,
            explore: 0.7,
            solve: None,
            bid_by_pimc: true,
            infer: None,
            infer_bids_only: false,
            pool: 256,
            shape: 0.0,
            finish: None,
            signals: true,
        }
    }
}

impl IsmctsBudget {
    /// Parses `key=value` pairs separated by colons or commas (`iterations=4000:ms=90`).
    pub fn parse(spec: &str) -> Result<IsmctsBudget, String> {
        let mut b = IsmctsBudget::default();
        // `pool` and `evidence` only shape inference: without `infer` they would name another
        // player of the same strength.
        let mut for_inference = None;
        for (key, value) in super::parameters(spec) {
            let num = |lo: u32, hi: u32| {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|v| (lo..=hi).contains(v))
                    .ok_or_else(|| {
                        format!("ismcts parameter {key}: bad value {value:?} ({lo} to {hi})")
                    })
            };
            // A choice of two words: true for the first.
            let either = |yes: &str, no: &str| match value {
                v if v == yes => Ok(true),
                v if v == no => Ok(false),
                _ => Err(format!(
                    "ismcts parameter {key}: bad value {value:?} ({yes} or {no})"
                )),
            };
            match key {
                "iterations" => b.iterations = num(1, 10_000_000)?,
                "ms" => b.ms = Some(num(1, 600_000)?),
                "explore" => b.explore = f64::from(num(0, 1000)?) / 100.0,
                "solve" => b.solve = Some(num(0, 20)?),
                "infer" => b.infer = Some(num(0, 99)?).filter(|&w| w > 0),
                "pool" => {
                    b.pool = num(1, 100_000)?;
                    for_inference = Some(key);
                }
                "shape" => b.shape = f64::from(num(0, 1000)?) / 100.0,
                "finish" => {
                    b.finish = match value {
                        "solve" => Some(Finish::AtSolverDepth),
                        "heuristic" => None,
                        n => Some(Finish::Tricks(n.parse().ok().filter(|&t| t <= 20).ok_or_else(
                            || format!("ismcts parameter finish: bad value {value:?} (heuristic, solve or 0 to 20 tricks)"),
                        )?)),
                    }
                }
                "signals" => b.signals = either("search", "none")?,
                "evidence" => {
                    for_inference = Some(key);
                    b.infer_bids_only = !either("all", "bids")?;
                }
                "bid" => b.bid_by_pimc = either("pimc", "ismcts")?,
                _ => {
                    return Err(format!(
                        "unknown ismcts parameter {key:?}; known: iterations, ms, explore (hundredths), solve, bid, infer (hundredths), evidence, pool, shape (hundredths), finish, signals"
                    ));
                }
            }
        }
        if let (Some(key), None) = (for_inference, b.infer) {
            return Err(format!(
                "ismcts parameter {key} takes effect only with infer"
            ));
        }
        // Solved values carry no card-point margin: the two would mix scales.
        if b.shape > 0.0 && b.finish.is_some() {
            return Err("ismcts parameters shape and finish do not combine".to_owned());
        }
        Ok(b)
    }
}

/// One node of the tree: the action that led to it, who took it, and its statistics.
#[derive(Debug, Clone)]
struct Node {
    action: Action,
    mover: Option<crate::seat::Seat>,
    visits: u32,
    available: u32,
    total: f64,
    children: Vec<usize>,
}

/// Where an [`IsmctsBot`]'s play-outs hand over to the exact solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// At the game's solver depth (or `solve`): where the bot itself hands over to PIMC.
    AtSolverDepth,
    /// Once this many tricks are left.
    Tricks(u32),
}

/// The SO-ISMCTS bot; plays every registered game.
#[derive(Debug, Clone)]
pub struct IsmctsBot {
    name: String,
    seed: u64,
    budget: IsmctsBudget,
    heuristic: HeuristicBot,
    endgame: PimcBot,
}

impl IsmctsBot {
    /// A bot seeded with `seed` that thinks within `budget`.
    pub fn new(seed: u64, budget: IsmctsBudget) -> IsmctsBot {
        IsmctsBot {
            name: "ismcts".to_owned(),
            seed,
            budget,
            heuristic: HeuristicBot::new(seed),
            endgame: PimcBot::new(
                seed,
                Budget {
                    ms: budget.ms,
                    ..Budget::default()
                },
            ),
        }
    }

    fn decide<D: Determinize>(&mut self, obs: &D::Obs) -> Action
    where
        HeuristicBot: Bot<D::Obs>,
    {
        use crate::bots::View;
        let mut legal = obs.legal_actions().to_vec();
        if !self.budget.signals {
            legal.retain(|&a| a == a.unsignalled());
        }
        if legal.len() <= 1 {
            return legal.first().copied().unwrap_or(Action::Pass);
        }
        let (Some(seat), Ok(sampler)) = (D::seat(obs), D::sampler(obs)) else {
            return self.heuristic.act(obs);
        };
        let mut rng = GameRng::from_seed(super::mix(self.seed, D::position(obs)));
        // Near the end the exact solver of PIMC beats play-outs: hand over; and before the
        // play, when PIMC bids.
        if let Ok(first) = sampler.sample(&mut rng) {
            let solve_from = self.budget.solve.unwrap_or_else(|| D::solve_tricks(&first));
            let endgame = first.in_play() && first.tricks_left() <= solve_from;
            if endgame || (self.budget.bid_by_pimc && !first.in_play()) {
                // PIMC values a card alike with or without a signal and keeps the first of
                // equal actions, the plain one; unsignalled all the same, whatever its order.
                let a = self.endgame.decide::<D>(obs);
                return if self.budget.signals {
                    a
                } else {
                    a.unsignalled()
                };
            }
        }
        match self.search::<D>(&sampler, seat, &legal, &mut rng) {
            Some(a) => a,
            None => self.heuristic.act(obs),
        }
    }

    /// The tree search from the root; the most visited legal action.
    fn search<D: Determinize>(
        &mut self,
        sampler: &WorldSampler<D::Hand>,
        seat: crate::seat::Seat,
        legal: &[Action],
        rng: &mut GameRng,
    ) -> Option<Action>
    where
        HeuristicBot: Bot<D::Obs>,
    {
        let start = Instant::now();
        let limit = self
            .budget
            .ms
            .map(|ms| Duration::from_millis(u64::from(ms)));
        let pool = match self.budget.infer {
            // A quarter of the time at most for the pool: the rest is the tree's.
            Some(miss) => Some(self.pool::<D>(
                sampler,
                seat,
                f64::from(miss) / 100.0,
                limit.map(|l| start + l / 4),
                rng,
            )),
            None => None,
        };
        let mut nodes = vec![Node {
            action: Action::Pass,
            mover: None,
            visits: 0,
            available: 0,
            total: 0.0,
            children: Vec::new(),
        }];
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut solver = Solver::new();
        solver.set_deadline(limit.map(|l| start + l));
        let mut path = Vec::new();
        let mut actions = Vec::new();
        for done in 0..self.budget.iterations {
            if limit.is_some_and(|l| done > 0 && start.elapsed() >= l) {
                break;
            }
            let mut state = match &pool {
                Some(pool) => match pool.draw(rng) {
                    Some(w) => w.clone(),
                    None => break,
                },
                None => match sampler.sample(rng) {
                    Ok(w) => w,
                    Err(_) => break,
                },
            };
            path.clear();
            path.push(0usize);
            let mut node = 0usize;
            // Selection and expansion.
            while !state.is_over() {
                let Some(mover) = D::decider(&state) else {
                    break;
                };
                actions.clear();
                actions.extend(
                    (0..state.num_legal_actions())
                        .filter_map(|i| state.legal_action(i))
                        .filter(|&a| self.budget.signals || a == a.unsignalled()),
                );
                if actions.is_empty() {
                    break;
                }
                let mut untried: Vec<Action> = Vec::new();
                for &a in &actions {
                    match nodes[node].children.iter().find(|&&c| nodes[c].action == a) {
                        Some(&c) => nodes[c].available += 1,
                        None => untried.push(a),
                    }
                }
                if !untried.is_empty() {
                    let a = untried[rng.below(untried.len() as u32) as usize];
                    state.apply_unchecked(a);
                    nodes.push(Node {
                        action: a,
                        mover: Some(mover),
                        visits: 0,
                        available: 1,
                        total: 0.0,
                        children: Vec::new(),
                    });
                    let child = nodes.len() - 1;
                    nodes[node].children.push(child);
                    path.push(child);
                    break;
                }
                let span = if hi > lo { hi - lo } else { 1.0 };
                let explore = self.budget.explore;
                let mut best = None::<(usize, f64)>;
                for &c in &nodes[node].children {
                    let n = &nodes[c];
                    if !actions.contains(&n.action) {
                        continue;
                    }
                    let mean = (n.total / f64::from(n.visits.max(1)) - lo) / span;
                    let ucb = mean
                        + explore
                            * (f64::from(n.available.max(1)).ln() / f64::from(n.visits.max(1)))
                                .sqrt();
                    if best.is_none_or(|(_, b)| ucb > b) {
                        best = Some((c, ucb));
                    }
                }
                let Some((c, _)) = best else { break };
                state.apply_unchecked(nodes[c].action);
                path.push(c);
                node = c;
            }
            // Play-out with the heuristic in every seat (to the solver's depth with `finish`).
            let depth = match self.budget.finish {
                None => None,
                Some(Finish::Tricks(t)) => Some(t),
                Some(Finish::AtSolverDepth) => {
                    Some(self.budget.solve.unwrap_or_else(|| D::solve_tricks(&state)))
                }
            };
            while !state.is_over() {
                if depth.is_some_and(|d| state.in_play() && state.tricks_left() <= d) {
                    break;
                }
                let Some(d) = D::decider(&state) else { break };
                let a = self.heuristic.act(&D::view(&state, d));
                state.apply_unchecked(a);
            }
            // An unfinished play-out: one solve for a seat of the hand gives the hand's unit,
            // and each seat's value is its scale of it (0 where no seat on the path has one).
            let unit = if state.is_over() || depth.is_none() {
                None
            } else {
                let seat = path[1..]
                    .iter()
                    .filter_map(|&n| nodes[n].mover)
                    .find(|&m| state.value_scale(m) != 0);
                let unit = seat.map_or(0, |m| {
                    solver.clear();
                    solver.solve(&state, m) / state.value_scale(m)
                });
                // A solve cut off by the deadline is no value: the iteration does not count.
                if solver.aborted() {
                    break;
                }
                Some(unit)
            };
            for &n in &path[1..] {
                let Some(m) = nodes[n].mover else { continue };
                let v = match unit {
                    Some(u) => f64::from(u * state.value_scale(m)),
                    None => f64::from(state.value(m)) + self.budget.shape * state.points_margin(m),
                };
                lo = lo.min(v);
                hi = hi.max(v);
                nodes[n].visits += 1;
                nodes[n].total += v;
            }
            nodes[0].visits += 1;
        }
        // No finished iteration (a solve cut off at once): no statistics, no choice.
        if nodes[0].visits == 0 {
            return None;
        }
        nodes[0]
            .children
            .iter()
            .filter(|&&c| legal.contains(&nodes[c].action))
            .max_by_key(|&&c| nodes[c].visits)
            .map(|&c| nodes[c].action)
    }
}

impl IsmctsBot {
    /// The pool of worlds an inferring search draws from: `budget.pool` sampled worlds, each
    /// weighted by the likelihood of the other seats' actions so far in it; fewer when the
    /// `deadline` comes first (never none while a world can be sampled).
    fn pool<D: Determinize>(
        &mut self,
        sampler: &WorldSampler<D::Hand>,
        seat: crate::seat::Seat,
        miss: f64,
        deadline: Option<Instant>,
        rng: &mut GameRng,
    ) -> Pool<D::Hand>
    where
        HeuristicBot: Bot<D::Obs>,
    {
        let mut pool = Pool {
            worlds: Vec::new(),
            cumulative: Vec::new(),
        };
        let mut total = 0.0;
        for _ in 0..self.budget.pool {
            if !pool.worlds.is_empty() && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let Ok(world) = sampler.sample(rng) else {
                break;
            };
            total += super::pimc::likelihood::<D>(
                &mut self.heuristic,
                &world,
                seat,
                miss,
                self.budget.infer_bids_only,
            );
            pool.worlds.push(world);
            pool.cumulative.push(total);
        }
        pool
    }
}

/// Worlds with their weights, drawn in proportion to them.
struct Pool<H> {
    worlds: Vec<H>,
    /// The running total of the weights, world by world.
    cumulative: Vec<f64>,
}

impl<H> Pool<H> {
    /// A world drawn with probability proportional to its weight (`None` for an empty pool).
    fn draw(&self, rng: &mut GameRng) -> Option<&H> {
        let total = *self.cumulative.last()?;
        let u = f64::from(rng.next_half()) / 4_294_967_296.0 * total;
        let i = self.cumulative.partition_point(|&c| c <= u);
        self.worlds.get(i.min(self.worlds.len() - 1))
    }
}

macro_rules! ismcts_for_any_game {
    ($($V:ident => $m:ident),* $(,)?) => {
        impl Bot<AnyObservation> for IsmctsBot {
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
crate::for_each_game!(ismcts_for_any_game);

#[cfg(test)]
#[allow(clippy::unwrap_used)] // In tests a panic is the failure report.
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_with_their_defaults_and_refuse_bad_parameters() {
        assert_eq!(IsmctsBudget::parse("").unwrap(), IsmctsBudget::default());
        let b = IsmctsBudget::parse("infer=30:evidence=bids:pool=64").unwrap();
        assert_eq!((b.infer, b.infer_bids_only, b.pool), (Some(30), true, 64));
        assert_eq!(IsmctsBudget::parse("infer=0").unwrap().infer, None);
        assert!(!IsmctsBudget::parse("signals=none").unwrap().signals);
        assert!(IsmctsBudget::parse("signals=search").unwrap().signals);
        for bad in [
            "iterations=0",
            "infer=100",
            "evidence=cards",
            "pool=0",
            "pool=64",
            "evidence=bids",
            "bid=heuristic",
            "signals=off",
            "depth=3",
        ] {
            assert!(IsmctsBudget::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_pool_draws_its_worlds_in_proportion_to_their_weights() {
        let pool = Pool {
            worlds: vec!['a', 'b', 'c'],
            cumulative: vec![1.0, 1.0, 4.0],
        };
        let mut rng = GameRng::from_seed(7);
        let mut counts = [0u32; 3];
        for _ in 0..40_000 {
            let w = *pool.draw(&mut rng).unwrap();
            counts[(w as u8 - b'a') as usize] += 1;
        }
        // Weights 1, 0 and 3: a quarter, never, three quarters (within five standard errors).
        assert_eq!(counts[1], 0);
        assert!((counts[0] as i64 - 10_000).abs() < 450, "{counts:?}");
        let empty: Pool<char> = Pool {
            worlds: Vec::new(),
            cumulative: Vec::new(),
        };
        assert!(empty.draw(&mut rng).is_none());
    }
}
