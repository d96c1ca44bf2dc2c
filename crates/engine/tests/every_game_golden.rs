//! Golden playthroughs of every registered game, in one game-neutral format: a seeded match
//! between heuristic bots, every action with the seat that took it, every event as each viewer
//! (every seat and the public) saw it, each hand's summary, and the record. The transcripts are
//! in `tests/golden/every_game/<game>.txt`; a new game gets one by registering (run once with
//! `UPDATE_GOLDEN=1 cargo test -p calabresella-engine --test every_game_golden`, then review
//! it). Each game's own, more detailed transcripts are in its `<game>_golden.rs` or
//! `<game>_rules.rs`.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use std::fmt::Write as _;

use calabresella_engine::Seat;
use calabresella_engine::bots::{Bot, HeuristicBot};
use calabresella_engine::game::{AnyMatch, Rules, Viewer, game_names};

/// Hands at most per transcript (a match to a short target ends sooner).
const MAX_HANDS: usize = 3;

/// Every event of hand `i` as `viewer` sees it, one line each.
fn events_seen(m: &AnyMatch, i: usize, viewer: Viewer, out: &mut String) {
    let who = match viewer {
        Viewer::Seat(s) => format!("seat {s}"),
        Viewer::Spectator => "public".to_owned(),
    };
    for e in m.events(i) {
        match m.visible(i, &e, viewer) {
            Some(seen) => {
                let _ = writeln!(out, "  {who} sees: {seen}");
            }
            None => {
                let _ = writeln!(out, "  {who} sees nothing of one event");
            }
        }
    }
}

fn transcript(name: &str, seed: u64) -> String {
    // A short match: a low target, or two hands in the calling games.
    let rules = Rules::parse(name, [("target", "5")])
        .or_else(|_| Rules::parse(name, [("hands", "2")]))
        .unwrap();
    let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
    let mut bots: Vec<HeuristicBot> = (0..5).map(HeuristicBot::new).collect();
    let mut out = format!("# {rules}, seed {seed}\n");
    let mut hand = usize::MAX;
    while let Some(seat) = m.decider() {
        let i = m.hands_dealt() - 1;
        if i >= MAX_HANDS {
            break;
        }
        if i != hand {
            hand = i;
            let _ = writeln!(out, "\n## hand {i}, dealer {}", m.dealer(i).unwrap());
        }
        let obs = m.observation(Viewer::Seat(seat)).unwrap();
        let a = bots[seat.index()].act(&obs);
        let _ = writeln!(out, "seat {seat}: {a}");
        m.try_apply_as(seat, a).unwrap();
        if m.hand_over(i) {
            let _ = writeln!(out, "\n### hand {i} as each viewer saw it");
            for v in Seat::first_n(m.seats())
                .map(Viewer::Seat)
                .chain([Viewer::Spectator])
            {
                events_seen(&m, i, v, &mut out);
            }
            let _ = writeln!(out, "summary: {}", m.hand_summary(i).unwrap());
        }
    }
    let _ = writeln!(out, "\ntotals {:?}, result {:?}", m.totals(), m.result());
    let _ = writeln!(out, "\n## record\n{}", m.record(None).to_json());
    out
}

#[test]
fn golden_playthrough_of_every_registered_game() {
    for name in game_names() {
        let now = transcript(name, 11);
        common::check_golden(&format!("every_game/{name}.txt"), &now, "every_game_golden");
    }
}
