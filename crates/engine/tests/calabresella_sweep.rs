//! Calabresella's own sweep: the scoring invariants of every finished hand over every option
//! combination (the invariants every game shares, at every step, are in `every_game.rs`), and
//! the rollout against the per-action loop.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::calabresella::{Hand, HandOutcome, Match};
use calabresella_engine::game::GameHand;
use calabresella_engine::game::HandRules;
use calabresella_engine::game::Rollout;
use calabresella_engine::record::{Record, replay};
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, Seat};

/// Hands to play in total.
const HANDS: usize = 8_000;

fn check_outcome(h: &Hand) {
    match h.outcome().expect("over") {
        HandOutcome::Void => assert!(h.actions().all(|a| a == Action::Pass)),
        HandOutcome::Scored(s) => {
            assert_eq!(s.points[0] + s.points[1], 11, "points sum to 11");
            assert_eq!(s.tricks[0] + s.tricks[1], 12, "12 tricks");
            assert!(
                [1, 2, 3].contains(&s.multiplier),
                "multiplier {}",
                s.multiplier
            );
            assert_eq!(s.made, s.points[0] >= 6);
            let total: u32 = s.award.0.iter().sum();
            assert!(total > 0, "someone scores");
            if s.made {
                assert_eq!(total, s.award[s.soloist]);
            } else {
                assert_eq!(s.award[s.soloist], 0);
            }
            assert_eq!(h.piles()[0].thirds() + h.piles()[1].thirds(), 32);
        }
    }
}

#[test]
fn random_play_sweep_over_every_option_combination() {
    let combos = common::all_option_combos();
    assert!(combos.len() >= 40, "only {} combinations", combos.len());
    let per_combo = HANDS.div_ceil(combos.len());
    let mut hands = 0;
    let mut scored = 0;
    for (ci, opts) in combos.iter().enumerate() {
        let mut rng = GameRng::from_seed(1000 + ci as u64);
        let mut played = 0;
        for seed in ci as u64 * 7919 + 1.. {
            if played >= per_combo {
                break;
            }
            let mut m = Match::seeded(*opts, seed, None).expect("valid options");
            while let Some(h) = m.current() {
                let legal = h.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                let before = m.hands().len();
                m.try_apply(a).expect("a listed action is legal");
                let last = &m.hands()[before - 1];
                if last.is_over() {
                    check_outcome(last);
                    played += 1;
                    scored += usize::from(matches!(last.outcome(), Some(HandOutcome::Scored(_))));
                }
            }
            // The record replays to the very same match.
            let text = Record::of_game(&m, None).to_json();
            let (again, _) = replay(&Record::parse(&text).expect("own record parses"))
                .expect("own record replays");
            let any = calabresella_engine::game::AnyMatch::from(m.clone());
            assert_eq!(
                (again.record(None), again.totals(), again.result()),
                (any.record(None), any.totals(), any.result()),
                "replay differs ({opts})"
            );
            let totals: u32 = m.tally().totals.0.iter().sum();
            let awarded: u32 = m
                .outcomes()
                .iter()
                .map(|o| o.award().0.iter().sum::<u32>())
                .sum();
            assert_eq!(totals, awarded, "totals are the sum of the awards");
        }
        hands += played;
    }
    assert!(hands >= HANDS, "{hands} hands");
    assert!(
        scored * 2 > hands,
        "most random hands are played out, not void ({scored} of {hands})"
    );
}

#[test]
fn the_rollout_equals_the_per_action_loop() {
    for seed in 0..300u64 {
        let opts = common::all_option_combos()[seed as usize % 40];
        let deal = calabresella_engine::calabresella::Deal::shuffled(
            &mut GameRng::from_seed(seed),
            opts.players,
            Seat::ALL[0],
        );
        let mut a = Hand::new(opts, Seat::ALL[0], deal).unwrap();
        let mut b = a.clone();
        let mut ra = GameRng::from_seed(seed ^ 0xABCD);
        let mut rb = ra.clone();
        let taken = a.playout_random(&mut ra);
        let mut steps = 0;
        while !b.is_over() {
            let i = rb.below(b.num_legal_actions() as u32) as usize;
            b.apply_unchecked(b.legal_action(i).unwrap());
            steps += 1;
        }
        assert_eq!((a, taken), (b, steps));
        assert_eq!(ra, rb);
    }
}
