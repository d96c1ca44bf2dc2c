//! Speed figures of search on positions reached by heuristic play: the solver's time and nodes
//! per position with a given number of tricks left, and the sampler's worlds per second (what
//! `calabresella bench-search` prints).

use std::time::Instant;

use crate::bots::{Bot, HeuristicBot};
use crate::game::{AnyMatch, Rules, Viewer};

use super::{Searchable, Solver};

/// The solver and sampler on `positions` positions.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchFigures {
    /// Positions solved.
    pub positions: usize,
    /// Tricks left in each (the current one included).
    pub tricks_left: u32,
    /// Median milliseconds to solve one position exactly.
    pub median_ms: f64,
    /// The slowest position, in milliseconds.
    pub max_ms: f64,
    /// Median positions searched per solve.
    pub median_nodes: u64,
    /// Positions searched per second, over all solves.
    pub nodes_per_sec: f64,
    /// Worlds sampled per second from the same positions' observations.
    pub worlds_per_sec: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Solves `positions` positions of `rules` with `tricks_left` tricks left, each reached by
/// heuristic bots from a match seeded `seed + k`, and samples `worlds` worlds at each.
pub fn search_figures(
    rules: Rules,
    seed: u64,
    positions: usize,
    tricks_left: u32,
    worlds: usize,
) -> SearchFigures {
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    let (mut sampled, mut sample_secs) = (0usize, 0f64);
    let mut bot = HeuristicBot::new(seed);
    let mut k = 0u64;
    while times.len() < positions && k < 100 * positions as u64 + 100 {
        let Ok(mut m) = AnyMatch::seeded(rules, seed.wrapping_add(k), None) else {
            break;
        };
        k += 1;
        // Heuristic play until the first hand is in its card play with `tricks_left` left.
        let at = loop {
            let Some(d) = m.decider() else { break None };
            if m.hands_dealt() > 1 {
                break None;
            }
            let ready = match &m {
                AnyMatch::Calabresella(g) => ready(g.hands().last(), tricks_left),
                AnyMatch::Tressette(g) => ready(g.hands().last(), tricks_left),
                AnyMatch::Chiamata(g) => ready(g.hands().last(), tricks_left),
            };
            if ready {
                break Some(d);
            }
            let Some(obs) = m.observation(Viewer::Seat(d)) else {
                break None;
            };
            if m.try_apply_as(d, bot.act(&obs)).is_err() {
                break None;
            }
        };
        let Some(seat) = at else { continue };
        let mut solver = Solver::new();
        let start = Instant::now();
        match &m {
            AnyMatch::Calabresella(g) => solve(g.hands().last(), seat, &mut solver),
            AnyMatch::Tressette(g) => solve(g.hands().last(), seat, &mut solver),
            AnyMatch::Chiamata(g) => solve(g.hands().last(), seat, &mut solver),
        }
        let secs = start.elapsed().as_secs_f64();
        times.push(secs * 1000.0);
        nodes.push(solver.nodes() as f64);
        total_nodes += solver.nodes();
        total_secs += secs;
        if let Some(obs) = m.observation(Viewer::Seat(seat)) {
            let start = Instant::now();
            if let Ok(w) = obs.sample_worlds(worlds, k) {
                sampled += w.len();
                sample_secs += start.elapsed().as_secs_f64();
            }
        }
    }
    SearchFigures {
        positions: times.len(),
        tricks_left,
        max_ms: times.iter().copied().fold(0.0, f64::max),
        median_ms: median(times),
        median_nodes: median(nodes) as u64,
        nodes_per_sec: total_nodes as f64 / total_secs.max(1e-9),
        worlds_per_sec: sampled as f64 / sample_secs.max(1e-9),
    }
}

fn ready<H: Searchable>(hand: Option<&H>, tricks_left: u32) -> bool {
    hand.is_some_and(|h| h.in_play() && h.tricks_left() == tricks_left)
}

fn solve<H: Searchable>(hand: Option<&H>, seat: crate::seat::Seat, solver: &mut Solver) {
    if let Some(h) = hand {
        let _ = solver.solve(h, seat);
    }
}
