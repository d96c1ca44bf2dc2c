//! `try_apply_logged` streams exactly the events a replay of the hand gives (what servers rely
//! on to send events as they happen), and refuses what `try_apply_as` refuses.

use calabresella_engine::calabresella::{self, Options};
use calabresella_engine::rng::GameRng;
use calabresella_engine::tressette::{self, Variant};
use calabresella_engine::{Action, Playable, Seat};

/// Plays a match choosing actions with `rng`, checking after every hand that the events logged
/// (starting from the hand's events when it was dealt) equal the hand's full event list.
macro_rules! check_logged {
    ($m:expr, $rng:expr) => {{
        let mut m = $m;
        let rng: &mut GameRng = $rng;
        let mut log = m.hands().last().map(|h| h.events()).unwrap_or_default();
        let mut hand_index = m.hands().len();
        while let Some(seat) = Playable::decider(&m) {
            let legal = m.legal_actions();
            let action = legal[rng.below(legal.len() as u32) as usize];
            // A wrong seat is refused with nothing logged.
            let other = Seat::ALL[(seat.index() + 1) % 2];
            let before = log.len();
            if other != seat {
                assert!(m.clone().try_apply_logged(other, action, &mut log).is_err());
            }
            assert_eq!(log.len(), before);
            m.try_apply_logged(seat, action, &mut log)
                .expect("legal action");
            let finished = &m.hands()[hand_index - 1];
            if finished.is_over() {
                assert_eq!(log, finished.events(), "hand {}", hand_index - 1);
                log = m.hands().last().map(|h| h.events()).unwrap_or_default();
                hand_index = m.hands().len();
            }
        }
    }};
}

#[test]
fn logged_events_equal_the_replayed_events_in_every_game() {
    for seed in 0..120u64 {
        let mut rng = GameRng::from_seed(seed ^ 0xabcd);
        let mut opts = Options::default();
        match seed % 4 {
            1 => opts.players = 4,
            2 => opts.a_due = true,
            3 => opts.aperta = true,
            _ => {}
        }
        if opts.a_due {
            opts.match_end = calabresella::MatchEnd::Individual;
        }
        opts.target = 8;
        let m = calabresella::Match::seeded(opts, seed, None).expect("options");
        check_logged!(m, &mut rng);
        for variant in [Variant::Partnership, Variant::Due] {
            let mut o = tressette::Options::new(variant);
            o.target = 8;
            let m = tressette::Match::seeded(o, seed, None).expect("options");
            check_logged!(m, &mut rng);
        }
    }
}

#[test]
fn logged_apply_refuses_illegal_actions_without_change() {
    let mut m = calabresella::Match::seeded(Options::default(), 7, None).expect("options");
    let seat = m.decider().expect("a decision");
    let before = m.clone();
    let mut log = Vec::new();
    let bad: Action = "play 3b".parse().expect("action");
    assert!(m.try_apply_logged(seat, bad, &mut log).is_err());
    assert!(log.is_empty());
    assert_eq!(m, before);
}
