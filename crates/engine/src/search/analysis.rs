//! [`analyse`]: where each player lost points in a recorded match. Every decision with a
//! choice is scored from the decider's own information (the worlds its view allows, as
//! [`PimcBot`] scores them), the chosen action's loss against the best is taken, and, for card
//! play with few tricks left, the exact value of every action with every hand known
//! ([`Solver`]). docs/ANALYSIS.md defines the figures.
//!
//! An analysis depends only on the record, the budget and the seed: each decision draws its
//! worlds from a generator seeded by the seed and the decision's place in the match, so a
//! budget in worlds and work gives the same figures on any machine (a budget in milliseconds
//! does not).

use std::time::Instant;

use serde::Serialize;

use crate::action::Action;
use crate::bots::{Bot, HeuristicBot};
use crate::game::{AnyMatch, Game, GameHand, Rollout};
use crate::record::{Record, RecordError, replay};
use crate::seat::Seat;

use super::pimc::{Budget, Determinize, PimcBot};
use super::{Searchable, Solver};

/// How an analysis searches and what it calls a large error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalysisOptions {
    /// The search per decision ([`Budget`]; [`AnalysisOptions::default`] has the analysis
    /// default, fewer worlds than the `pimc` bot's so that a whole match takes seconds).
    pub budget: Budget,
    /// Seeds every decision's worlds (with its place in the match).
    pub seed: u64,
    /// A loss above this many points is a large error.
    pub large: f64,
    /// Exact values with every hand known once this many tricks or fewer are left (`None`:
    /// the game's own point from which its search solves exactly).
    pub exact_tricks: Option<u32>,
}

/// The analysis default budget: 24 worlds, 3,000 units of work per decision.
pub const DEFAULT_BUDGET: Budget = Budget {
    worlds: 24,
    work: 3_000,
    ms: None,
    solve: None,
    infer: None,
};

/// The default large-error threshold, in the game's points.
pub const DEFAULT_LARGE: f64 = 1.0;

/// A loss at most this share of the large-error threshold counts as a best action (for the
/// accuracy): the search's own noise is of that order.
pub const BEST_SHARE: f64 = 0.1;

impl Default for AnalysisOptions {
    fn default() -> AnalysisOptions {
        AnalysisOptions {
            budget: DEFAULT_BUDGET,
            seed: 0,
            large: DEFAULT_LARGE,
            exact_tricks: None,
        }
    }
}

/// One legal action of a decision with its values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionValue {
    /// The action (record notation).
    pub action: String,
    /// Its mean value over the worlds the decider's view allows, in the game's points for the
    /// decider's side.
    pub value: f64,
    /// Its exact value with every hand known, once few enough tricks are left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<i32>,
}

/// One decision of the match, scored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// The hand (0-based).
    pub hand: usize,
    /// The action's place in the hand's actions (0-based).
    pub index: usize,
    /// The seat that decided (for a dummy's card, the seat playing it).
    pub seat: usize,
    /// `auction` before the card play (bids, calls, discards), `play` in it.
    pub phase: &'static str,
    /// The action taken.
    pub chosen: String,
    /// The best action by value (the first of equals).
    pub best: String,
    /// The chosen action's value less the best's, negated: 0 or more.
    pub loss: f64,
    /// The same with every hand known, where exact values were computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_loss: Option<i32>,
    /// Whether the loss is above the large-error threshold.
    pub large: bool,
    /// Every legal action, in legal order.
    pub actions: Vec<ActionValue>,
}

/// One seat's figures over its decisions with a choice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatSummary {
    /// The seat.
    pub seat: usize,
    /// Its decisions with more than one legal action.
    pub decisions: usize,
    /// Its mean loss per decision, in points.
    pub mean_loss: f64,
    /// Its total loss, in points.
    pub total_loss: f64,
    /// Its decisions with a loss above the threshold.
    pub large_errors: usize,
    /// The share of its decisions whose loss is at most [`BEST_SHARE`] of the threshold, in
    /// percent (100 with no decision).
    pub accuracy: f64,
}

/// A whole match analysed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// Always `calabresella-analysis/1`.
    pub format: &'static str,
    /// The game's registered name.
    pub game: String,
    /// The large-error threshold used, in points.
    pub large: f64,
    /// The budget per decision, as `pimc` parameters.
    pub budget: String,
    /// The seed of the worlds.
    pub seed: u64,
    /// Decisions with a choice, in match order (forced ones are left out: nothing to lose).
    pub decisions: Vec<Decision>,
    /// Per seat, in seat order.
    pub seats: Vec<SeatSummary>,
}

/// The `format` of an [`Analysis`].
pub const FORMAT: &str = "calabresella-analysis/1";

impl Analysis {
    /// The analysis as JSON (the shape of docs/ANALYSIS.md).
    pub fn to_json(&self) -> serde_json::Value {
        // Plain numbers, strings and lists: serialising cannot fail.
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// Analyses every decision of a record (replayed and checked first): the record's first
/// fault is the error.
pub fn analyse(record: &Record, options: &AnalysisOptions) -> Result<Analysis, RecordError> {
    // Without a deadline the analysis always completes.
    analyse_until(record, options, None).map(|a| a.unwrap_or_else(|| empty(record, options)))
}

/// [`analyse`], given up at `deadline` (checked between decisions): `None` when it ran out
/// of time, so that a server can bound the work one request costs.
pub fn analyse_until(
    record: &Record,
    options: &AnalysisOptions,
    deadline: Option<Instant>,
) -> Result<Option<Analysis>, RecordError> {
    let (m, _) = replay(record)?;
    let Some(decisions) = analyse_any(&m, options, deadline) else {
        return Ok(None);
    };
    Ok(Some(analysis_of(record, options, decisions)))
}

/// An analysis without decisions (never returned in practice: see [`analyse`]).
fn empty(record: &Record, options: &AnalysisOptions) -> Analysis {
    analysis_of(record, options, Vec::new())
}

fn analysis_of(record: &Record, options: &AnalysisOptions, decisions: Vec<Decision>) -> Analysis {
    let seats = usize::from(record.players);
    Analysis {
        format: FORMAT,
        game: record.game.clone(),
        large: options.large,
        budget: budget_text(&options.budget),
        seed: options.seed,
        seats: summaries(&decisions, seats, options.large),
        decisions,
    }
}

/// Every decision with a choice of the hands `m` has played (a match played in process, say,
/// without its record), in match order.
pub fn analyse_match(m: &AnyMatch, options: &AnalysisOptions) -> Vec<Decision> {
    analyse_any(m, options, None).unwrap_or_default()
}

macro_rules! analyse_any_game {
    ($($V:ident => $m:ident),* $(,)?) => {
        /// Every decision of `m` for [`analyse_until`]; `None` past the deadline.
        fn analyse_any(
            m: &AnyMatch,
            options: &AnalysisOptions,
            deadline: Option<Instant>,
        ) -> Option<Vec<Decision>> {
            match m {
                $(AnyMatch::$V(g) => analyse_game::<crate::$m::Match>(g, options, deadline),)*
            }
        }
    };
}
crate::for_each_game!(analyse_any_game);

/// Every decision of every hand of `m`; `None` once `deadline` has passed.
fn analyse_game<G>(
    m: &G,
    options: &AnalysisOptions,
    deadline: Option<Instant>,
) -> Option<Vec<Decision>>
where
    G: Game + Determinize<Hand = <G as Game>::Hand>,
    HeuristicBot: Bot<<G as Determinize>::Obs>,
{
    let mut out = Vec::new();
    for (h, played) in m.hands().iter().enumerate() {
        let mut hand = G::dealt(played);
        for (i, chosen) in played.action_list().into_iter().enumerate() {
            let Some(seat) = <G as Determinize>::decider(&hand) else {
                break;
            };
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            if hand.num_legal_actions() > 1
                && let Some(d) = decision::<G>(&hand, seat, chosen, (h, i), options)
            {
                out.push(d);
            }
            hand.apply_unchecked(chosen);
        }
    }
    Some(out)
}

/// The decision `seat` took (`chosen`) in `hand`, at `place` (hand, action) of the match.
fn decision<G>(
    hand: &<G as Determinize>::Hand,
    seat: Seat,
    chosen: Action,
    place: (usize, usize),
    options: &AnalysisOptions,
) -> Option<Decision>
where
    G: Determinize,
    HeuristicBot: Bot<<G as Determinize>::Obs>,
{
    let (h, i) = place;
    let seed = super::mix(super::mix(options.seed, h as u64), i as u64);
    let mut bot = PimcBot::new(seed, options.budget);
    let values = bot.evaluate::<G>(&G::view(hand, seat));
    // No world at all (a view the sampler cannot fill): nothing to compare against.
    if values.is_empty() {
        return None;
    }
    let exact_from = options
        .exact_tricks
        .unwrap_or_else(|| G::solve_tricks(hand));
    let exact: Option<Vec<(Action, i32)>> = (hand.in_play() && hand.tricks_left() <= exact_from)
        .then(|| Solver::new().solve_actions(hand, seat));
    let (best, best_value) = first_best(values.iter().map(|&(a, v)| (a, v)))?;
    let chosen_value = values.iter().find(|(a, _)| *a == chosen)?.1;
    let loss = (best_value - chosen_value).max(0.0);
    let exact_loss = exact.as_ref().and_then(|e| {
        let top = e.iter().map(|&(_, v)| v).max()?;
        let mine = e.iter().find(|(a, _)| *a == chosen)?.1;
        Some(top - mine)
    });
    let actions = values
        .iter()
        .map(|&(a, value)| ActionValue {
            action: a.to_string(),
            value,
            exact: exact
                .as_ref()
                .and_then(|e| e.iter().find(|(x, _)| *x == a).map(|&(_, v)| v)),
        })
        .collect();
    Some(Decision {
        hand: h,
        index: i,
        seat: seat.index(),
        phase: if hand.in_play() { "play" } else { "auction" },
        chosen: chosen.to_string(),
        best: best.to_string(),
        loss,
        exact_loss,
        large: loss > options.large,
        actions,
    })
}

/// The first action with the highest value.
fn first_best(values: impl Iterator<Item = (Action, f64)>) -> Option<(Action, f64)> {
    values.fold(None, |best, (a, v)| match best {
        Some((_, bv)) if bv >= v => best,
        _ => Some((a, v)),
    })
}

/// Each seat's figures over `decisions`.
fn summaries(decisions: &[Decision], seats: usize, large: f64) -> Vec<SeatSummary> {
    (0..seats)
        .map(|seat| {
            let mine: Vec<&Decision> = decisions.iter().filter(|d| d.seat == seat).collect();
            let total: f64 = mine.iter().map(|d| d.loss).sum();
            let n = mine.len();
            let best = mine.iter().filter(|d| d.loss <= large * BEST_SHARE).count();
            SeatSummary {
                seat,
                decisions: n,
                mean_loss: if n == 0 { 0.0 } else { total / n as f64 },
                total_loss: total,
                large_errors: mine.iter().filter(|d| d.large).count(),
                accuracy: if n == 0 {
                    100.0
                } else {
                    100.0 * best as f64 / n as f64
                },
            }
        })
        .collect()
}

/// A budget written as `pimc` parameters (`worlds=24:work=3000`), as an analysis names it.
pub fn budget_text(b: &Budget) -> String {
    let mut parts = vec![format!("worlds={}", b.worlds), format!("work={}", b.work)];
    if let Some(ms) = b.ms {
        parts.push(format!("ms={ms}"));
    }
    if let Some(s) = b.solve {
        parts.push(format!("solve={s}"));
    }
    if let Some(i) = b.infer {
        parts.push(format!("infer={i}"));
    }
    parts.join(":")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // In tests a panic is the failure report.
mod tests {
    use super::*;
    use crate::bots::{RandomBot, play_out};
    use crate::game::{Rules, game_names};

    /// A short match of `name` (a low target, or one hand).
    fn short(name: &str, seed: u64) -> AnyMatch {
        let rules = Rules::parse(name, [("target", "2")])
            .or_else(|_| Rules::parse(name, [("hands", "1")]))
            .unwrap();
        let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
        let mut bots: Vec<Box<dyn Bot<crate::game::AnyObservation>>> = (0..rules.seats())
            .map(|s| {
                Box::new(RandomBot::new(seed * 10 + u64::from(s)))
                    as Box<dyn Bot<crate::game::AnyObservation>>
            })
            .collect();
        play_out(&mut m, &mut bots);
        m
    }

    fn small() -> AnalysisOptions {
        AnalysisOptions {
            budget: Budget::parse("worlds=6:work=400").unwrap(),
            ..AnalysisOptions::default()
        }
    }

    /// The choices a match offered: (hand, index) of every decision with more than one
    /// legal action, replayed independently of the analysis.
    fn choices(m: &AnyMatch) -> Vec<(usize, usize)> {
        let record = m.record(None);
        let rules = Rules::from_record(&record.game, record.players, &record.options).unwrap();
        let mut again = AnyMatch::new(rules, Seat::new(record.first_dealer).unwrap()).unwrap();
        let mut out = Vec::new();
        for (h, rh) in record.hands.iter().enumerate() {
            again
                .start_recorded_hand(h, Seat::new(rh.dealer).unwrap(), &rh.deal)
                .unwrap();
            for (i, a) in rh.actions.iter().enumerate() {
                if again.legal_actions().len() > 1 {
                    out.push((h, i));
                }
                let seat = again.decider().unwrap();
                again.try_apply_as(seat, a.text().parse().unwrap()).unwrap();
            }
        }
        out
    }

    /// For every game: one decision per choice the match offered, each by the seat that had
    /// to decide; the best action has the highest value and no loss; every loss is the gap to
    /// the best; exact values (with every hand known) agree with a fresh solve; the seats'
    /// figures add up.
    #[test]
    fn every_game_analysis_is_consistent() {
        for name in game_names() {
            let m = short(name, 11);
            let record = m.record(None);
            let a = analyse(&record, &small()).unwrap();
            assert_eq!(a.format, FORMAT);
            let places: Vec<(usize, usize)> =
                a.decisions.iter().map(|d| (d.hand, d.index)).collect();
            assert_eq!(places, choices(&m), "{name}");
            let mut exact_seen = false;
            for d in &a.decisions {
                assert!(d.actions.len() > 1, "{name}: {d:?}");
                let top = d.actions.iter().map(|v| v.value).fold(f64::MIN, f64::max);
                let value = |x: &str| d.actions.iter().find(|v| v.action == x).unwrap().value;
                assert_eq!(value(&d.best), top, "{name}: {d:?}");
                assert!(d.loss >= 0.0 && (d.loss - (top - value(&d.chosen))).abs() < 1e-9);
                assert_eq!(d.large, d.loss > a.large);
                if d.chosen == d.best {
                    assert_eq!(d.loss, 0.0);
                }
                match d.exact_loss {
                    Some(l) => {
                        exact_seen = true;
                        assert_eq!(d.phase, "play");
                        let ex: Vec<i32> = d.actions.iter().map(|v| v.exact.unwrap()).collect();
                        let chosen = d
                            .actions
                            .iter()
                            .find(|v| v.action == d.chosen)
                            .unwrap()
                            .exact
                            .unwrap();
                        assert_eq!(l, ex.iter().max().unwrap() - chosen, "{name}: {d:?}");
                    }
                    None => assert!(d.actions.iter().all(|v| v.exact.is_none())),
                }
            }
            assert!(exact_seen, "{name}: no endgame was solved");
            for s in &a.seats {
                let mine: Vec<&Decision> =
                    a.decisions.iter().filter(|d| d.seat == s.seat).collect();
                assert_eq!(s.decisions, mine.len(), "{name}");
                let total: f64 = mine.iter().map(|d| d.loss).sum();
                assert!((s.total_loss - total).abs() < 1e-9);
                assert_eq!(s.large_errors, mine.iter().filter(|d| d.large).count());
                assert!((0.0..=100.0).contains(&s.accuracy));
            }
            assert_eq!(
                a.seats.iter().map(|s| s.decisions).sum::<usize>(),
                a.decisions.len()
            );
        }
    }

    /// The exact values come from the true deal: each agrees with the solver run on the
    /// position the record reaches, for the seat that decided.
    #[test]
    fn exact_values_are_the_solvers_on_the_true_position() {
        let m = short("tressette-in-due", 4);
        let AnyMatch::Tressette(g) = &m else {
            panic!("tressette-in-due is a tressette match");
        };
        let a = analyse(&m.record(None), &small()).unwrap();
        let mut checked = 0;
        for d in a.decisions.iter().filter(|d| d.exact_loss.is_some()) {
            let played = &g.hands()[d.hand];
            let mut hand = <crate::tressette::Match as Determinize>::dealt(played);
            for a in played.action_list().into_iter().take(d.index) {
                hand.apply_unchecked(a);
            }
            let seat = Seat::new(d.seat as u8).unwrap();
            let solved = Solver::new().solve_actions(&hand, seat);
            let got: Vec<(String, i32)> = d
                .actions
                .iter()
                .map(|v| (v.action.clone(), v.exact.unwrap()))
                .collect();
            let want: Vec<(String, i32)> =
                solved.iter().map(|(a, v)| (a.to_string(), *v)).collect();
            assert_eq!(got, want);
            checked += 1;
        }
        assert!(checked > 0);
    }

    /// The same record, budget and seed give the same analysis; another seed samples other
    /// worlds.
    #[test]
    fn analysis_is_deterministic_for_a_seed() {
        let record = short("calabresella", 5).record(None);
        let one = analyse(&record, &small()).unwrap();
        assert_eq!(one, analyse(&record, &small()).unwrap());
        let other = AnalysisOptions { seed: 9, ..small() };
        let two = analyse(&record, &other).unwrap();
        assert_eq!(one.decisions.len(), two.decisions.len());
        assert_ne!(one.decisions, two.decisions);
    }

    /// A player who always takes the analysis's best action shows no loss at all, in every
    /// game: the analysis asks exactly what the player asked.
    #[test]
    fn a_player_of_the_best_actions_loses_nothing() {
        for name in game_names() {
            let options = small();
            let rules = Rules::parse(name, [("target", "1")])
                .or_else(|_| Rules::parse(name, [("hands", "1")]))
                .unwrap();
            let mut m = AnyMatch::seeded(rules, 21, None).unwrap();
            while let Some(seat) = m.decider() {
                let legal = m.legal_actions();
                let a = if legal.len() > 1 {
                    best_now(&m, &options).unwrap()
                } else {
                    legal[0]
                };
                m.try_apply_as(seat, a).unwrap();
            }
            let a = analyse(&m.record(None), &options).unwrap();
            assert!(!a.decisions.is_empty(), "{name}");
            for d in &a.decisions {
                assert_eq!(d.loss, 0.0, "{name}: {d:?}");
            }
            assert!(
                a.seats
                    .iter()
                    .all(|s| s.mean_loss == 0.0 && s.accuracy == 100.0)
            );
        }
    }

    /// Where the analysis would put the match's next decision: its best action.
    fn best_now(m: &AnyMatch, options: &AnalysisOptions) -> Option<Action> {
        macro_rules! best_of {
            ($($V:ident => $md:ident),* $(,)?) => {
                match m {
                    $(AnyMatch::$V(g) => best_in::<crate::$md::Match>(g, options),)*
                }
            };
        }
        crate::for_each_game!(best_of)
    }

    fn best_in<G>(m: &G, options: &AnalysisOptions) -> Option<Action>
    where
        G: Game + Determinize<Hand = <G as Game>::Hand>,
        HeuristicBot: Bot<<G as Determinize>::Obs>,
    {
        let h = m.hands().len() - 1;
        let hand = m.hands()[h].clone();
        let i = hand.action_list().len();
        let seat = <G as Determinize>::decider(&hand)?;
        let any = hand.legal_action(0)?;
        let d = decision::<G>(&hand, seat, any, (h, i), options)?;
        d.best.parse().ok()
    }

    /// A record that does not replay is refused with its fault.
    #[test]
    fn a_bad_record_is_refused_with_its_fault() {
        let mut record = short("tressette", 2).record(None);
        record.hands[0].actions[3] = crate::record::RecordAction::Plain("Zz".into());
        let e = analyse(&record, &small()).unwrap_err();
        assert!(e.to_string().contains("hand 0, action 3"), "{e}");
    }
}
