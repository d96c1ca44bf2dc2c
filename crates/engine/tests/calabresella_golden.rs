//! Golden playthroughs: every seat's (and a spectator's) view at every step of a few seeded
//! hands, compared with the transcripts in `tests/golden/`. After an intended change, regenerate
//! them with `UPDATE_GOLDEN=1 cargo test -p calabresella-engine --test calabresella_golden` and review the diff.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::game::GameHand;
use calabresella_engine::game::GameOptions;
use calabresella_engine::game::HandRules;
use calabresella_engine::game::Rollout;
use std::fmt::Write as _;

use calabresella_engine::bots::{Bot, HeuristicBot};
use calabresella_engine::calabresella::{Hand, Observation, Options};
use calabresella_engine::game::Viewer;
use calabresella_engine::record::Record;
use calabresella_engine::{CardSet, Seat};

fn view(o: &Observation, seen_events: usize) -> String {
    let mut s = format!(
        "hand {}",
        if o.hand.is_empty() {
            "-".into()
        } else {
            o.hand.to_string()
        }
    );
    for (seat, cards) in &o.visible_hands {
        let _ = write!(
            s,
            " | sees seat {seat}: {}",
            if cards.is_empty() {
                "-".into()
            } else {
                cards.to_string()
            }
        );
    }
    if !o.legal_actions.is_empty() {
        let legal: Vec<String> = o.legal_actions.iter().map(|a| a.to_string()).collect();
        let _ = write!(s, " | legal: {}", legal.join(", "));
    }
    for e in &o.events[seen_events.min(o.events.len())..] {
        let _ = write!(s, "\n      + {e}");
    }
    s
}

fn transcript(name: &str, opts: Options, seed: u64) -> String {
    let mut m = calabresella_engine::calabresella::Match::seeded(opts, seed, None).unwrap();
    let mut out = format!("# {name}: seed {seed}, {opts}\n");
    let mut bots: Vec<HeuristicBot> = (0..4).map(HeuristicBot::new).collect();
    loop {
        let hand: Hand = m.current().cloned().expect("hand in progress");
        let d = hand.deal();
        let _ = writeln!(
            out,
            "\n## hand {}, dealer {}",
            m.hands().len() - 1,
            hand.dealer()
        );
        for s in Seat::first_n(opts.players) {
            let _ = writeln!(
                out,
                "deal seat {s}: {}",
                if d.hands[s] == CardSet::EMPTY {
                    "-".into()
                } else {
                    d.hands[s].to_string()
                }
            );
        }
        let monte: Vec<String> = d.monte.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(out, "deal monte: {}", monte.join(" "));
        let viewers: Vec<Viewer> = Seat::first_n(opts.players)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
            .collect();
        let mut seen = vec![0usize; viewers.len()];
        let index = m.hands().len() - 1;
        for step in 0.. {
            let h = &m.hands()[index];
            let _ = writeln!(out, "step {step}");
            for (i, v) in viewers.iter().enumerate() {
                let o = h.observation(*v);
                let who = match v {
                    Viewer::Seat(s) => format!("seat {s}"),
                    Viewer::Spectator => "public".into(),
                };
                let _ = writeln!(out, "  {who}: {}", view(&o, seen[i]));
                seen[i] = o.events.len();
            }
            if h.is_over() {
                break;
            }
            let decider = m.decider().expect("the hand is not over");
            let obs = m.observation(Viewer::Seat(decider)).unwrap();
            let a = bots[decider.index()].act(&obs);
            let _ = writeln!(out, "  => seat {decider}: {a}");
            m.try_apply_as(decider, a).unwrap();
        }
        // Void deals are shown too; stop after the first hand that is played out.
        if m.is_over()
            || matches!(
                m.outcomes().last(),
                Some(calabresella_engine::calabresella::HandOutcome::Scored(_))
            )
        {
            break;
        }
    }
    let _ = writeln!(out, "\n## record\n{}", Record::of_game(&m, None).to_json());
    out
}

fn check(name: &str, opts: Options, seed: u64) {
    let now = transcript(name, opts, seed);
    common::check_golden(&format!("{name}.txt"), &now, "calabresella_golden");
}

#[test]
fn golden_three_players() {
    check("three_players_seed_1", Options::default(), 1);
    check("three_players_seed_2", Options::default(), 2);
}

#[test]
fn golden_four_players_aperta() {
    check(
        "four_players_aperta_seed_3",
        Options {
            players: 4,
            aperta: true,
            ..Options::default()
        },
        3,
    );
}

#[test]
fn golden_a_due() {
    let mut o = Options::default();
    o.set("a_due", "true").unwrap();
    check("a_due_seed_4", o, 4);
}

#[test]
fn golden_scegliete_and_dividete_by_random_play() {
    // Random play reaches the defenders' exchanges that bots rarely bid.
    let mut out = String::new();
    for seed in 0..200u64 {
        let mut m =
            calabresella_engine::calabresella::Match::seeded(Options::default(), seed, None)
                .unwrap();
        let mut rng = calabresella_engine::rng::GameRng::from_seed(seed);
        while let Some(h) = m.current() {
            if h.tricks_done() > 0 {
                break;
            }
            let legal = h.legal_actions();
            m.try_apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        let h = m.hands().last().unwrap();
        if matches!(
            h.contract(),
            Some(
                calabresella_engine::Contract::Dividete | calabresella_engine::Contract::Scegliete
            )
        ) {
            let _ = writeln!(out, "# seed {seed}");
            for v in Seat::first_n(3)
                .map(Viewer::Seat)
                .chain([Viewer::Spectator])
            {
                let _ = writeln!(out, "{v:?}: {}", view(&h.observation(v), 0));
            }
            if out.len() > 20_000 {
                break;
            }
        }
    }
    common::check_golden("exchanges.txt", &out, "calabresella_golden");
}
