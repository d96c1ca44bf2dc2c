//! No leak, for every registered game and option set: whatever a viewer may not see may be
//! dealt differently without changing its view. For many states and every viewer, the cards the
//! rules do not let it know (by each game's own oracle, an independent reading of its
//! visibility rules from the full event log) are permuted through the deal and the history;
//! whenever that permuted world is consistent with what is public, the viewer's observation
//! must be identical, and so must its features (the tensors' input). And no observation ever
//! shows a card beyond the oracle's.
//!
//! The harness is generic (it plays through `AnyMatch`); each game adds its oracle to
//! [`oracle`], and a game without one does not compile.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::game::{AnyMatch, AnyObservation, Rules, Viewer, every_option_set};
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, Card, CardSet, PerSeat, Seat};
use common::{cards_in, map_action, permutation};

/// A game's reading of its visibility rules, independent of the engine's filter.
struct Oracle {
    /// Every card the rules let `viewer` know by now in hand `i`.
    allowed: fn(&AnyMatch, usize, Viewer) -> CardSet,
    /// Every card an observation mentions anywhere.
    shown: fn(&AnyObservation) -> CardSet,
    /// Whether a re-dealt world keeps every public fact of hand `i` besides the cards played
    /// (in Tressette, the accusi declared).
    consistent: fn(&AnyMatch, &AnyMatch, usize) -> bool,
    /// A card whose name the viewer knows but whose place it does not (the calling games'
    /// called card, whose holder is the secret partner): the harness also moves it to another
    /// seat it cannot see, keeping every action as it was.
    secret_place: fn(&AnyMatch, usize, Viewer) -> Option<Card>,
}

fn oracle(rules: &Rules) -> Oracle {
    use common::{calabresella_oracle, chiamata_oracle, tressette_oracle};
    match rules {
        Rules::Calabresella(_) => Oracle {
            allowed: |m, i, v| match m {
                AnyMatch::Calabresella(m) => calabresella_oracle::allowed(&m.hands()[i], v),
                _ => CardSet::EMPTY,
            },
            shown: |o| match o {
                AnyObservation::Calabresella(o) => cards_in(o),
                _ => CardSet::ALL,
            },
            consistent: |_, _, _| true,
            secret_place: |_, _, _| None,
        },
        Rules::Tressette(_) => Oracle {
            allowed: |m, i, v| match m {
                AnyMatch::Tressette(m) => tressette_oracle::allowed(&m.hands()[i], v),
                _ => CardSet::EMPTY,
            },
            shown: |o| match o {
                AnyObservation::Tressette(o) => tressette_oracle::shown(o),
                _ => CardSet::ALL,
            },
            // The declarations are public facts (what is held, and what is not).
            consistent: |a, b, i| match (a, b) {
                (AnyMatch::Tressette(a), AnyMatch::Tressette(b)) => {
                    a.hands()[i].accusi() == b.hands()[i].accusi()
                }
                _ => false,
            },
            secret_place: |_, _, _| None,
        },
        Rules::Chiamata(_) => Oracle {
            allowed: |m, i, v| match m {
                AnyMatch::Chiamata(m) => chiamata_oracle::allowed(&m.hands()[i], v),
                _ => CardSet::EMPTY,
            },
            shown: |o| match o {
                AnyObservation::Chiamata(o) => chiamata_oracle::shown(o),
                _ => CardSet::ALL,
            },
            consistent: |_, _, _| true,
            secret_place: |m, i, v| match m {
                AnyMatch::Chiamata(m) => chiamata_oracle::secret_place(&m.hands()[i], v),
                _ => None,
            },
        },
    }
}

/// Swaps `card` with a random card of `hidden` held by another seat than its holder and the
/// viewer: the card's name stays, its place (in the calling games, the partner) moves.
fn move_between_seats(
    hands: &mut PerSeat<CardSet>,
    card: Card,
    hidden: CardSet,
    viewer: Viewer,
    rng: &mut GameRng,
) -> bool {
    let Some(from) = Seat::ALL.into_iter().find(|&s| hands[s].contains(card)) else {
        return false;
    };
    let others: Vec<(Seat, Card)> = Seat::ALL
        .into_iter()
        .filter(|&s| s != from && Viewer::Seat(s) != viewer)
        .flat_map(|s| (hands[s] & hidden).iter().map(move |c| (s, c)))
        .collect();
    if others.is_empty() {
        return false;
    }
    let (to, other) = others[rng.below(others.len() as u32) as usize];
    hands[from].remove(card);
    hands[from].insert(other);
    hands[to].remove(other);
    hands[to].insert(card);
    true
}

#[test]
fn observations_do_not_depend_on_unseen_cards_in_any_game() {
    let sets = every_option_set();
    let mut rng = GameRng::from_seed(77);
    let (mut compared, mut tried, mut moved) = (0usize, 0usize, 0usize);
    for case in 0..900u64 {
        let rules = sets[case as usize % sets.len()];
        let o = oracle(&rules);
        let n = rules.seats();
        let dealer = Seat::ALL[rng.below(u32::from(n)) as usize];
        let mut start = AnyMatch::new(rules, dealer).unwrap();
        start.start_hand_from(dealer, &mut rng).unwrap();
        let deal = start.dealt(0).unwrap();
        // A random state part-way through the first hand, and every state before it.
        let mut states = vec![start];
        let mut actions: Vec<(Seat, Action)> = Vec::new();
        let stop = rng.below(50) as usize;
        while actions.len() < stop {
            let m = states.last().unwrap();
            let Some(seat) = m.decider().filter(|_| !m.hand_over(0)) else {
                break;
            };
            let legal = m.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            let mut next = m.clone();
            next.try_apply_as(seat, a).unwrap();
            actions.push((seat, a));
            states.push(next);
        }
        let now = states.last().unwrap();
        let viewers = Seat::first_n(n)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for viewer in viewers {
            let known = (o.allowed)(now, 0, viewer);
            let shown = states.iter().fold(CardSet::EMPTY, |acc, m| {
                acc | (o.shown)(&m.hand_observation(0, viewer).unwrap())
            });
            assert!(
                known.is_superset(shown),
                "{viewer:?} was shown {} beyond the rules ({rules}, case {case})",
                shown - known
            );
            let hidden = CardSet::ALL - known;
            let expected = now.hand_observation(0, viewer).unwrap();
            for trial in 0..4 {
                let map = permutation(hidden, trial % 2 == 0, &mut rng);
                let f = |c: Card| Card::from_index(map[c.index() as usize]).unwrap();
                let mut hands = PerSeat::splat(CardSet::EMPTY);
                for s in Seat::ALL {
                    hands[s] = deal.hands[s].iter().map(f).collect();
                }
                if trial % 2 == 1
                    && let Some(card) = (o.secret_place)(now, 0, viewer)
                    && move_between_seats(&mut hands, card, hidden, viewer, &mut rng)
                {
                    moved += 1;
                }
                let rest: Vec<Card> = deal
                    .monte
                    .iter()
                    .chain(&deal.stock)
                    .map(|&c| f(c))
                    .collect();
                let mut world = AnyMatch::new(rules, dealer).unwrap();
                world.start_hand_cards(dealer, hands, &rest).unwrap();
                tried += 1;
                let replays = actions
                    .iter()
                    .all(|&(seat, a)| world.try_apply_as(seat, map_action(a, &f)).is_ok());
                if replays && (o.consistent)(now, &world, 0) {
                    compared += 1;
                    assert_eq!(
                        world.hand_observation(0, viewer).unwrap(),
                        expected,
                        "{viewer:?} can tell apart two worlds that differ only in cards it never saw ({rules}, case {case})"
                    );
                    // The tensors' input too (the partner, the sides, every count).
                    if !now.hand_over(0) {
                        assert_eq!(
                            world.features(viewer),
                            now.features(viewer),
                            "{viewer:?}'s features tell two worlds apart ({rules}, case {case})"
                        );
                    }
                }
            }
        }
    }
    assert!(
        compared * 4 > tried,
        "too few consistent worlds: {compared} of {tried}"
    );
    assert!(
        moved > 100,
        "the called card moved between seats only {moved} times"
    );
}
