//! No leak: whatever a seat may not see may be dealt differently without changing its view.
//! For many states and every viewer, the cards the rules do not let it know (read from the full
//! event log by a second, independent reading of the visibility table) are permuted through the
//! deal and the history; whenever that permuted world is consistent with the rules, the
//! viewer's observation must be identical.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::calabresella::{Deal, Event, Hand, Options};
use calabresella_engine::game::Viewer;
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, Card, CardSet, PerSeat, Seat};
use common::{all_option_combos, cards_in, map_action, permutation};

/// Every card the rules let `viewer` know by now (`docs/RULES.md`, "Who sees what"), read from
/// the full event log independently of the engine's own visibility filter.
fn allowed(h: &Hand, viewer: Viewer) -> CardSet {
    let a_due = h.options().a_due;
    // Seats whose private information the viewer shares: itself, and in a due the dummy once
    // the viewer is the defending person.
    let shares = |seat: Seat, soloist: Option<Seat>| match viewer {
        Viewer::Spectator => false,
        Viewer::Seat(v) => {
            v == seat
                || (a_due
                    && seat == Options::DUMMY
                    && v != Options::DUMMY
                    && soloist.is_some_and(|s| s != v))
        }
    };
    let mut soloist: Option<Seat> = None;
    let mut dummy_up = false;
    let mut k = CardSet::EMPTY;
    for e in h.events() {
        match e {
            Event::Dealt { seat, cards } if viewer == Viewer::Seat(seat) => k |= cards,
            Event::AuctionWon { soloist: s, .. } => soloist = Some(s),
            Event::DummyExposed { cards, .. } => {
                // Face up for everyone, and so is whatever later enters the dummy's hand.
                k |= cards;
                dummy_up = true;
            }
            Event::Called { card } => k.insert(card),
            Event::Returned { to, card: Some(c) } => {
                let soloist_side = soloist.is_some_and(|s| shares(s, soloist));
                if soloist_side || shares(to, soloist) || (dummy_up && to == Options::DUMMY) {
                    k.insert(c);
                }
            }
            Event::MonteTaken {
                seat,
                cards: Some(c),
            } if shares(seat, soloist) => {
                k |= c.into_iter().collect();
            }
            Event::MonteReceived {
                seat,
                cards: Some(c),
            } if shares(seat, soloist) || (dummy_up && seat == Options::DUMMY) => {
                k |= c;
            }
            Event::MonteShown { cards } => k |= cards.into_iter().collect(),
            Event::Discarded {
                seat,
                card: Some(c),
            } if shares(seat, soloist) => k.insert(c),
            Event::Played { card, .. } => k.insert(card),
            Event::HandShown { to, cards, .. } if shares(to, soloist) => k |= cards,
            Event::MonteRevealed { cards, .. } => k |= cards,
            _ => {}
        }
    }
    k
}

#[test]
fn observations_do_not_depend_on_unseen_cards() {
    let combos = all_option_combos();
    let mut rng = GameRng::from_seed(77);
    let (mut compared, mut tried) = (0usize, 0usize);
    for case in 0..600u64 {
        let opts = combos[case as usize % combos.len()];
        let dealer = Seat::ALL[rng.below(u32::from(opts.players)) as usize];
        let deal = Deal::shuffled(&mut rng, opts.players, dealer);
        // A random state part-way through the hand, and every state before it.
        let mut states = vec![Hand::new(opts, dealer, deal).unwrap()];
        let mut actions: Vec<Action> = Vec::new();
        let stop = rng.below(50) as usize;
        while actions.len() < stop && !states.last().unwrap().is_over() {
            let h = states.last().unwrap();
            let legal = h.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            let mut next = h.clone();
            next.try_apply(a).unwrap();
            actions.push(a);
            states.push(next);
        }
        let now = states.last().unwrap();
        let viewers = Seat::first_n(opts.players)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for viewer in viewers {
            let known = allowed(now, viewer);
            // Every card the observation shows must be one the rules allow.
            let shown = states.iter().fold(CardSet::EMPTY, |acc, h| {
                acc | cards_in(&h.observation(viewer))
            });
            assert!(
                known.is_superset(shown),
                "{viewer:?} was shown {} beyond the rules ({opts}, case {case})",
                shown - known
            );
            let hidden = CardSet::ALL - known;
            let expected = now.observation(viewer);
            for trial in 0..4 {
                let map = permutation(hidden, trial % 2 == 0, &mut rng);
                let f = |c: Card| Card::from_index(map[c.index() as usize]).unwrap();
                let mut hands = PerSeat::splat(CardSet::EMPTY);
                for s in Seat::ALL {
                    hands[s] = deal.hands[s].iter().map(f).collect();
                }
                let other = Deal {
                    hands,
                    monte: deal.monte.map(f),
                };
                let mut world = Hand::new(opts, dealer, other).unwrap();
                tried += 1;
                if actions
                    .iter()
                    .all(|&a| world.try_apply(map_action(a, &f)).is_ok())
                {
                    compared += 1;
                    assert_eq!(
                        world.observation(viewer),
                        expected,
                        "{viewer:?} can tell apart two worlds that differ only in cards it never saw ({opts}, case {case})"
                    );
                }
            }
        }
    }
    assert!(
        compared * 4 > tried,
        "too few consistent worlds: {compared} of {tried}"
    );
}

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
