//! Tressette and Tressette in Due: hand-checked scenarios per decision ID (T-D1 .. T-D7), the
//! scoring sweep and golden playthroughs (the no-leak test of every game is
//! `every_game_no_leak.rs`; Tressette's oracle is in `common/tressette_oracle.rs`).
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::game::GameHand;
use calabresella_engine::game::GameOptions;
use calabresella_engine::game::HandRules;
use calabresella_engine::game::Rollout;
use std::fmt::Write as _;

use calabresella_engine::bots::{Bot, HeuristicBot};
use calabresella_engine::game::{MatchResult, Viewer};
use calabresella_engine::record::{Record, replay};
use calabresella_engine::rng::GameRng;
use calabresella_engine::tressette::{Deal, Event, Hand, Match, Options, Variant};
use calabresella_engine::{Action, Card, CardSet, NUM_ACTION_IDS, PerSeat, Seat, Signal};
use common::{cards, seat};

fn four(hands: [&str; 4]) -> Deal {
    let mut h = PerSeat::splat(CardSet::EMPTY);
    for (i, s) in hands.iter().enumerate() {
        h.0[i] = cards(s);
    }
    Deal {
        hands: h,
        stock: None,
    }
}

fn due(hands: [&str; 2], stock: &str) -> Deal {
    let mut h = PerSeat::splat(CardSet::EMPTY);
    for (i, s) in hands.iter().enumerate() {
        h.0[i] = cards(s);
    }
    let st: Vec<Card> = stock
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    Deal {
        hands: h,
        stock: Some(st.try_into().unwrap()),
    }
}

fn act(h: &mut Hand, a: &str) {
    let action: Action = a.parse().unwrap();
    h.try_apply(action).unwrap_or_else(|e| panic!("{a}: {e}"));
}

fn reject(h: &mut Hand, a: &str, why: &str) {
    let before = h.clone();
    let err = h.try_apply(a.parse().unwrap()).expect_err(a);
    assert!(err.to_string().contains(why), "{a}: {err}");
    assert_eq!(*h, before, "a refused action changed the hand");
}

fn first_legal_to_end(h: &mut Hand) {
    while !h.is_over() {
        let a = h.legal_actions()[0];
        h.try_apply(a).unwrap();
    }
}

/// Each seat holds one whole suit: seat 1 bastoni, 2 coppe, 3 denari, 0 spade.
fn one_suit_each() -> Deal {
    four([
        "3s 2s As Ks Cs Fs 7s 6s 5s 4s",
        "3b 2b Ab Kb Cb Fb 7b 6b 5b 4b",
        "3c 2c Ac Kc Cc Fc 7c 6c 5c 4c",
        "3d 2d Ad Kd Cd Fd 7d 6d 5d 4d",
    ])
}

#[test]
fn t_d7_deal_eldest_leads_follow_suit_no_trumps() {
    let d = Deal::shuffled(&mut GameRng::from_seed(4), Variant::Partnership, seat(3));
    d.validate(Variant::Partnership).unwrap();
    assert!(d.hands.first_n(4).iter().all(|h| h.len() == 10));
    let mut h = Hand::new(Options::new(Variant::Partnership), seat(0), one_suit_each()).unwrap();
    assert_eq!(
        h.actor(),
        Some(seat(1)),
        "the eldest, after the dealer, leads"
    );
    act(&mut h, "play 4b");
    // Seat 2 holds no bastoni: any card; a higher coppe does not win (no trumps).
    act(&mut h, "play 3c");
    act(&mut h, "play 3d");
    act(&mut h, "play 3s");
    assert_eq!(
        h.actor(),
        Some(seat(1)),
        "only the led suit wins: the 4b takes the trick"
    );
    let mut g = Hand::new(
        Options::new(Variant::Partnership),
        seat(0),
        four([
            "3s 2s As Ks Cs Fs 7s 6s 5s 4b",
            "3b 2b Ab Kb Cb Fb 7b 6b 5b 4s",
            "3c 2c Ac Kc Cc Fc 7c 6c 5c 4c",
            "3d 2d Ad Kd Cd Fd 7d 6d 5d 4d",
        ]),
    )
    .unwrap();
    act(&mut g, "play 5b");
    act(&mut g, "play 4c");
    act(&mut g, "play 4d");
    reject(&mut g, "play 3s", "must follow suit b");
}

#[test]
fn t_d1_t_d2_points_per_partnership_with_accusi() {
    // Seat 1 leads bastoni every trick and nobody else has any: team 1 (seats 1 and 3) takes all
    // 10 tricks, 32 card thirds + 3 for the last trick = 11 points. Every seat holds a napoletana.
    let mut h = Hand::new(Options::new(Variant::Partnership), seat(0), one_suit_each()).unwrap();
    let declared: Vec<Seat> = h.accusi().iter().map(|(s, _)| *s).collect();
    assert_eq!(
        declared,
        vec![seat(1), seat(2), seat(3), seat(0)],
        "declared in turn from the eldest"
    );
    first_legal_to_end(&mut h);
    let o = *h.outcome().unwrap();
    assert_eq!(o.tricks, [0, 10]);
    assert_eq!(o.card_points, [0, 11]);
    assert_eq!(o.accusi, [6, 6], "two napoletane per partnership");
    assert_eq!(o.points, [6, 17]);
    assert_eq!(o.last_trick, 1);
    let mut off = Options::new(Variant::Partnership);
    off.set("accusi", "false").unwrap();
    let mut h = Hand::new(off, seat(0), one_suit_each()).unwrap();
    assert!(h.accusi().is_empty());
    first_legal_to_end(&mut h);
    assert_eq!(
        h.outcome().unwrap().points,
        [0, 11],
        "option accusi = false"
    );
}

#[test]
fn t_d2_accusi_are_public() {
    let h = Hand::new(Options::new(Variant::Partnership), seat(0), one_suit_each()).unwrap();
    let spectator = h.observation(Viewer::Spectator);
    let declared = spectator
        .events
        .iter()
        .filter(|e| matches!(e, Event::Declared { .. }))
        .count();
    assert_eq!(declared, 4);
    assert!(
        spectator
            .events
            .iter()
            .all(|e| !matches!(e, Event::Dealt { .. })),
        "hands stay hidden"
    );
}

#[test]
fn t_d3_signals_on_leads_only_public_and_harmless() {
    let mut h = Hand::new(Options::new(Variant::Partnership), seat(0), one_suit_each()).unwrap();
    assert_eq!(
        h.legal_actions().len(),
        40,
        "each of 10 cards plain or with one of three signals"
    );
    act(&mut h, "play 4b volo");
    reject(
        &mut h,
        "play 4c busso",
        "a signal may only accompany a Tressette lead",
    );
    act(&mut h, "play 4c");
    let seen = h.observation(Viewer::Seat(seat(3)));
    assert!(seen.events.contains(&Event::Played {
        seat: seat(1),
        card: "4b".parse().unwrap(),
        signal: Some(Signal::Volo)
    }));
    // The same hand without signals scores the same.
    let mut plain =
        Hand::new(Options::new(Variant::Partnership), seat(0), one_suit_each()).unwrap();
    first_legal_to_end(&mut plain);
    act(&mut h, "play 4d");
    act(&mut h, "play 4s");
    first_legal_to_end(&mut h);
    assert_eq!(h.outcome(), plain.outcome());
}

#[test]
fn t_d4_match_to_the_target() {
    let mut o = Options::new(Variant::Partnership);
    o.set("target", "5").unwrap();
    let mut m = Match::new(o, seat(0)).unwrap();
    m.start_hand(seat(0), one_suit_each()).unwrap();
    while m.current().is_some() {
        let a = m.legal_actions()[0];
        m.try_apply(a).unwrap();
    }
    assert_eq!(m.tally().totals, [6, 17]);
    assert_eq!(
        m.result(),
        Some(&MatchResult::won(vec![seat(1), seat(3)])),
        "both reached 5: the higher total wins"
    );
}

/// Tressette in Due, dealer 0: seat 1 leads. The stock is in draw order.
fn due_deal() -> Deal {
    due(
        [
            "3b 2b Ab Kb Cb 3c 2c Ac Kc Cc",
            "Fb 7b 6b 5b 4b Fc 7c 6c 5c 4c",
        ],
        "3d 2d Ad Kd Cd Fd 7d 6d 5d 4d 3s 2s As Ks Cs Fs 7s 6s 5s 4s",
    )
}

#[test]
fn t_d5_in_due_draws_free_play_then_follow_suit() {
    let mut h = Hand::new(Options::new(Variant::Due), seat(0), due_deal()).unwrap();
    assert_eq!(h.actor(), Some(seat(1)), "the non-dealer leads");
    assert_eq!(h.legal_actions().len(), 10, "no signals in Due");
    act(&mut h, "play 4b");
    // While the stock lasts any card may be played, even holding the led suit.
    assert_eq!(h.legal_actions().len(), 10);
    act(&mut h, "play 3c");
    // Seat 1's 4b wins (3c is off suit); the winner draws first.
    assert_eq!(
        h.hand_of(seat(1)) & cards("3d 2d"),
        cards("3d"),
        "winner draws the first stock card"
    );
    assert!(
        h.hand_of(seat(0)).contains("2d".parse().unwrap()),
        "the loser the second"
    );
    let seen_by_0 = h.observation(Viewer::Seat(seat(0)));
    assert!(
        seen_by_0.events.contains(&Event::Drew {
            seat: seat(1),
            card: "3d".parse().unwrap()
        }),
        "shown to the opponent"
    );
    assert_eq!(seen_by_0.stock_left, 18);
    // Play out the stock: after 10 tricks it is empty and follow suit binds.
    while h.tricks_done() < 10 {
        let a = h.legal_actions()[0];
        h.try_apply(a).unwrap();
    }
    assert!(h.stock().is_empty());
    assert_eq!(h.hand_of(seat(0)).len() + h.hand_of(seat(1)).len(), 20);
    let me = h.actor().unwrap();
    let lead = h.legal_actions()[0];
    h.try_apply(lead).unwrap();
    let Action::Play(led, _) = lead else {
        unreachable!()
    };
    let other = h.hand_of(me.next(2));
    let legal: CardSet = h
        .legal_actions()
        .iter()
        .map(|a| match a {
            Action::Play(c, _) => *c,
            _ => unreachable!(),
        })
        .collect();
    if !other.of_suit(led.suit()).is_empty() {
        assert_eq!(
            legal,
            other.of_suit(led.suit()),
            "after the stock, follow suit"
        );
    }
    first_legal_to_end(&mut h);
    let o = h.outcome().unwrap();
    assert_eq!(o.tricks[0] + o.tricks[1], 20, "20 tricks");
    assert_eq!(o.card_points[0] + o.card_points[1], 11);
}

#[test]
fn t_d5_follow_suit_always_option_and_accusi_from_the_first_ten() {
    let mut o = Options::new(Variant::Due);
    o.set("follow_suit_always", "true").unwrap();
    let mut h = Hand::new(o, seat(0), due_deal()).unwrap();
    act(&mut h, "play 4b");
    reject(&mut h, "play 3c", "must follow suit b");
    let h = Hand::new(Options::new(Variant::Due), seat(0), due_deal()).unwrap();
    let declared: Vec<String> = h.accusi().iter().map(|(s, a)| format!("{s} {a}")).collect();
    assert_eq!(
        declared,
        vec!["0 napoletana b", "0 napoletana c"],
        "from the dealt ten cards only"
    );
    assert!(
        Options::new(Variant::Partnership)
            .set("colour", "x")
            .is_err()
    );
    let mut bad = Options::new(Variant::Partnership);
    bad.follow_suit_always = true;
    assert!(
        bad.validate().is_err(),
        "follow_suit_always belongs to tressette-in-due"
    );
}

fn combos() -> Vec<Options> {
    let mut out = Vec::new();
    for variant in [Variant::Partnership, Variant::Due] {
        for bits in 0..4u32 {
            let mut o = Options::new(variant);
            o.accusi = bits & 1 == 0;
            o.follow_suit_always = variant == Variant::Due && bits & 2 != 0;
            o.target = if bits & 2 != 0 { 31 } else { 21 };
            out.push(o);
        }
    }
    out
}

fn check_step(h: &Hand, rng: &mut GameRng) {
    let mut places = vec![
        h.trick().card_set(),
        h.piles()[0],
        h.piles()[1],
        h.stock().iter().copied().collect(),
    ];
    places.extend(Seat::ALL.iter().map(|&s| h.hand_of(s)));
    let union = places.iter().fold(CardSet::EMPTY, |a, &b| a | b);
    let total: usize = places.iter().map(|s| s.len()).sum();
    let dealt = match h.options().variant {
        Variant::Partnership => 40,
        Variant::Due => 40,
    };
    assert_eq!((union.len(), total), (dealt, dealt), "cards not conserved");
    let legal = h.legal_actions();
    assert_eq!(h.is_over(), legal.is_empty());
    for id in 0..NUM_ACTION_IDS {
        let Ok(a) = Action::from_id(id, None) else {
            continue;
        };
        assert_eq!(h.is_legal(&a), legal.contains(&a), "is_legal({a})");
        if !legal.contains(&a) && rng.below(40) == 0 {
            let mut copy = h.clone();
            assert!(copy.try_apply(a).is_err());
            assert_eq!(&copy, h);
        }
    }
}

#[test]
fn random_play_sweep_both_variants() {
    let mut rng = GameRng::from_seed(5);
    let mut hands = 0;
    for (ci, opts) in combos().into_iter().enumerate() {
        let mut played = 0;
        let mut seed = ci as u64 * 1000;
        while played < 1500 {
            seed += 1;
            let mut m = Match::seeded(opts, seed, None).unwrap();
            while let Some(h) = m.current() {
                check_step(h, &mut rng);
                let legal = h.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                let index = m.hands().len() - 1;
                m.try_apply(a).unwrap();
                let last = &m.hands()[index];
                if let Some(o) = last.outcome() {
                    check_step(last, &mut rng);
                    let accusi: u32 = last.accusi().iter().map(|(_, a)| a.points()).sum();
                    assert_eq!(
                        o.card_points[0] + o.card_points[1],
                        11,
                        "card points sum to 11"
                    );
                    assert_eq!(o.accusi[0] + o.accusi[1], accusi);
                    assert_eq!(o.tricks[0] + o.tricks[1], u32::from(opts.variant.tricks()));
                    played += 1;
                }
            }
            let rec = Record::of_game(&m, None);
            let (again, _) = replay(&Record::parse(&rec.to_json()).unwrap()).unwrap();
            let m = calabresella_engine::game::AnyMatch::from(m.clone());
            assert_eq!(
                (again.record(None), again.totals(), again.result()),
                (m.record(None), m.totals(), m.result())
            );
        }
        hands += played;
    }
    assert!(hands >= 12_000);
}

fn transcript(opts: Options, seed: u64) -> String {
    let mut m = Match::seeded(opts, seed, None).unwrap();
    let n = opts.variant.players();
    let mut bots: Vec<HeuristicBot> = (0..4).map(HeuristicBot::new).collect();
    let mut out = format!("# {opts}, seed {seed}\n");
    let h = m.current().unwrap().clone();
    for s in Seat::first_n(n) {
        let _ = writeln!(out, "deal seat {s}: {}", h.deal().hands[s]);
    }
    if let Some(st) = h.deal().stock {
        let _ = writeln!(
            out,
            "deal stock: {}",
            st.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let viewers: Vec<Option<Seat>> = Seat::first_n(n).map(Some).chain([None]).collect();
    let mut seen = vec![0; viewers.len()];
    loop {
        let hand = &m.hands()[0];
        for (i, v) in viewers.iter().enumerate() {
            let o = hand.observation(Viewer::of(*v));
            let who = v.map_or("public".to_string(), |s| format!("seat {s}"));
            let legal: Vec<String> = o.legal_actions.iter().map(|a| a.to_string()).collect();
            let _ = write!(out, "  {who}: hand {} | stock {}", o.hand, o.stock_left);
            if !legal.is_empty() {
                let _ = write!(out, " | legal: {}", legal.join(", "));
            }
            out.push('\n');
            for e in &o.events[seen[i]..] {
                let _ = writeln!(out, "      + {e}");
            }
            seen[i] = o.events.len();
        }
        if hand.is_over() {
            break;
        }
        let actor = m.actor().unwrap();
        let a = bots[actor.index()].act(&m.observation(Viewer::Seat(actor)).unwrap());
        let _ = writeln!(out, "  => seat {actor}: {a}");
        m.try_apply_as(actor, a).unwrap();
    }
    out
}

#[test]
fn golden_playthroughs() {
    for (name, opts, seed) in [
        ("tressette_seed_1", Options::new(Variant::Partnership), 1),
        ("tressette_in_due_seed_2", Options::new(Variant::Due), 2),
    ] {
        let now = transcript(opts, seed);
        common::check_golden(&format!("{name}.txt"), &now, "tressette_rules");
    }
}
