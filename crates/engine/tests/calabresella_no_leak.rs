//! No leak in Calabresella at the deal: each seat sees exactly its own cards and a spectator
//! none. The resampling no-leak test of every game is `every_game_no_leak.rs` (Calabresella's
//! oracle is in `common/calabresella_oracle.rs`).
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::Seat;
use calabresella_engine::calabresella::{Deal, Hand};
use calabresella_engine::game::HandRules;
use calabresella_engine::game::Viewer;
use calabresella_engine::rng::GameRng;
use common::cards_in;

#[test]
fn a_viewer_sees_its_own_cards_and_nothing_of_others_before_play() {
    let mut rng = GameRng::from_seed(3);
    for _ in 0..200 {
        let deal = Deal::shuffled(&mut rng, 3, Seat::ALL[0]);
        let h = Hand::new(Default::default(), Seat::ALL[0], deal).unwrap();
        for s in Seat::first_n(3) {
            let seen = cards_in(&h.observation(Viewer::Seat(s)));
            assert_eq!(
                seen, deal.hands[s],
                "at the deal a seat sees exactly its own cards"
            );
        }
        assert!(cards_in(&h.observation(Viewer::Spectator)).is_empty());
    }
}
