//! Property tests: notation, action ids, the card-set bitset and record round trips.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use std::collections::BTreeSet;

use calabresella_engine::calabresella::{Match, Options};
use calabresella_engine::game::AnyMatch;
use calabresella_engine::record::{Record, replay};
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, Card, CardSet, Contract, NUM_ACTION_IDS, Signal};
use proptest::prelude::*;

fn card() -> impl Strategy<Value = Card> {
    (0u8..40).prop_map(|i| Card::from_index(i).unwrap())
}

fn card_set() -> impl Strategy<Value = CardSet> {
    any::<u64>().prop_map(CardSet::from_bits)
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::Pass),
        (0usize..5).prop_map(|i| Action::Bid(Contract::ALL[i])),
        card().prop_map(Action::Call),
        card().prop_map(Action::Return),
        card().prop_map(Action::Discard),
        card_set().prop_map(Action::Take),
        (card(), prop::option::of(0usize..3))
            .prop_map(|(c, s)| Action::Play(c, s.map(|i| Signal::ALL[i]))),
    ]
}

/// Rewrites a canonical string with random letter case and spacing.
fn scramble(s: &str, mask: u64) -> String {
    let mut out = String::new();
    if mask & 1 != 0 {
        out.push_str("  ");
    }
    for (i, ch) in s.chars().enumerate() {
        let flip = mask >> (i % 60) & 1 != 0;
        if ch == ' ' {
            out.push_str(if flip { " \t " } else { " " });
        } else if flip {
            out.extend(if ch.is_uppercase() {
                ch.to_lowercase().collect::<Vec<_>>()
            } else {
                ch.to_uppercase().collect()
            });
        } else {
            out.push(ch);
        }
    }
    if mask & 2 != 0 {
        out.push(' ');
    }
    out
}

proptest! {
    #[test]
    fn card_strings_round_trip(c in card(), mask in any::<u64>()) {
        let text = c.to_string();
        prop_assert_eq!(text.parse::<Card>(), Ok(c));
        prop_assert_eq!(scramble(&text, mask).parse::<Card>(), Ok(c));
        prop_assert_eq!(Card::new(c.suit(), c.rank()), c);
    }

    #[test]
    fn action_strings_round_trip_in_any_case_and_spacing(a in action(), mask in any::<u64>()) {
        let text = a.to_string();
        prop_assert_eq!(text.parse::<Action>(), Ok(a));
        prop_assert_eq!(scramble(&text, mask).parse::<Action>(), Ok(a));
    }

    #[test]
    fn parsing_never_panics(s in ".{0,40}") {
        let _ = s.parse::<Card>();
        let _ = s.parse::<Action>();
    }

    #[test]
    fn action_ids_round_trip(a in action(), perm in Just(()).prop_perturb(|_, mut r| {
        let mut deck: Vec<u8> = (0..40).collect();
        for i in (1..40).rev() { deck.swap(i, r.random_range(0..=i)); }
        deck
    })) {
        let monte = [0, 1, 2, 3].map(|i| Card::from_index(perm[i]).unwrap());
        let monte_set: CardSet = monte.iter().copied().collect();
        let a = match a { Action::Take(s) => Action::Take(s & monte_set), other => other };
        let id = a.to_id(Some(&monte)).unwrap();
        prop_assert!(id < NUM_ACTION_IDS);
        prop_assert_eq!(Action::from_id(id, Some(&monte)), Ok(a));
    }

    #[test]
    fn every_id_decodes_and_encodes_back(id in 0u16..NUM_ACTION_IDS + 20) {
        let monte = [0u8, 11, 22, 33].map(|i| Card::from_index(i).unwrap());
        match Action::from_id(id, Some(&monte)) {
            Ok(a) => prop_assert_eq!(a.to_id(Some(&monte)), Ok(id)),
            Err(_) => prop_assert!(id >= NUM_ACTION_IDS),
        }
    }

    #[test]
    fn card_set_matches_a_set_model(a in card_set(), b in card_set(), c in card()) {
        let model = |s: CardSet| s.iter().map(Card::index).collect::<BTreeSet<u8>>();
        let (ma, mb) = (model(a), model(b));
        prop_assert_eq!(model(a | b), ma.union(&mb).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!(model(a & b), ma.intersection(&mb).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!(model(a - b), ma.difference(&mb).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!((!a).len(), 40 - a.len());
        prop_assert_eq!(a.len(), ma.len());
        prop_assert_eq!(a.contains(c), ma.contains(&c.index()));
        let mut with = a;
        with.insert(c);
        prop_assert!(with.contains(c) && with.is_superset(a));
        with.remove(c);
        prop_assert!(!with.contains(c));
        prop_assert_eq!(a.iter().collect::<CardSet>(), a);
        let thirds: u32 = a.iter().map(|x| u32::from(x.thirds())).sum();
        prop_assert_eq!(a.thirds(), thirds);
        prop_assert_eq!(a.first(), a.iter().next());
        prop_assert_eq!(a.last(), a.iter().last());
    }

    #[test]
    fn nth_is_the_nth_card_in_index_order(a in card_set(), n in 0usize..45) {
        prop_assert_eq!(a.nth(n), a.iter().nth(n));
    }

    #[test]
    fn records_round_trip_in_every_game(seed in any::<u64>(), set in 0usize..1000, moves in 0usize..400) {
        let sets = calabresella_engine::game::every_option_set();
        let rules = sets[set % sets.len()];
        let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..moves {
            let Some(seat) = m.decider() else { break };
            let legal = m.legal_actions();
            m.try_apply_as(seat, legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
        let rec = m.record(Some(serde_json::json!({"seed": seed})));
        let parsed = Record::parse(&rec.to_json()).unwrap();
        prop_assert_eq!(&parsed, &rec);
        let (again, _) = replay(&parsed).unwrap();
        prop_assert_eq!(again.record(rec.meta.clone()), rec);
        prop_assert_eq!((again.totals(), again.result()), (m.totals(), m.result()));
    }

    #[test]
    fn corrupted_records_are_refused_without_panic(seed in any::<u64>(), cut in 0usize..4000, junk in ".{0,3}") {
        let mut m = Match::seeded(Options::default(), seed, None).unwrap();
        while let Some(a) = m.legal_actions().first().copied() {
            m.try_apply(a).unwrap();
            if m.hands().len() > 2 { break; }
        }
        let text = Record::of_game(&m, None).to_json();
        let at = cut.min(text.len());
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let broken = format!("{}{}{}", &text[..at], junk, &text[at..]);
        // Whatever happens, it is an Ok or a one-line error, never a panic.
        if let Err(e) = Record::parse(&broken).and_then(|r| replay(&r).map(|_| ())) {
            prop_assert!(!e.to_string().contains('\n'));
        }
    }
}
