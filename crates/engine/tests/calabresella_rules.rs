//! Hand-checked scenarios, one or more per rule decision (C-D1 .. C-D24 in `docs/RULES.md`).
//! Deals are written out so every expected number can be checked by hand.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::calabresella::{
    Deal, Event, HandOutcome, Match, MatchEnd, Options, Score,
};
use calabresella_engine::game::GameHand;
use calabresella_engine::game::GameOptions;
use calabresella_engine::game::HandRules;
use calabresella_engine::game::{Phase, Viewer};
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, CardSet, Contract};
use common::{Play, cards, deal, seat};

/// The soloist-to-be (seat 1, eldest when seat 0 deals) holds 3, 2, A of every suit but
/// spades' ace; defenders hold only 5s, 6s, 7s in spades and the spade figures are in the monte.
/// Led 4s, the defenders win trick 1 with no points and lose every other trick.
fn stramazzo_deal() -> Deal {
    deal(
        &[
            "6s 7s 6c 5c 4c Kd Cd Fd 7d 6d 5d 4d",
            "3b 2b Ab 3c 2c Ac 3d 2d Ad 3s 2s 4s",
            "5s Kb Cb Fb 7b 6b 5b 4b Kc Cc Fc 7c",
        ],
        "As Ks Cs Fs",
    )
}

/// Seat 1 holds 3, 2, A of every suit: whoever plays against him loses every trick.
fn cappotto_deal() -> Deal {
    deal(
        &[
            "5c 4c Kd Cd Fd 7d 6d 5d 4d Ks Cs Fs",
            "3b 2b Ab 3c 2c Ac 3d 2d Ad 3s 2s As",
            "Kb Cb Fb 7b 6b 5b 4b Kc Cc Fc 7c 6c",
        ],
        "7s 6s 5s 4s",
    )
}

/// Seat 1 lacks only the 3 of bastoni, which seat 2 holds.
fn chiamo_deal() -> Deal {
    deal(
        &[
            "5c 4c Kd Cd Fd 7d 6d 5d 4d Ks Cs Fs",
            "2b Ab Kb 3c 2c Ac 3d 2d Ad 3s 2s As",
            "3b Cb Fb 7b 6b 5b 4b Kc Cc Fc 7c 6c",
        ],
        "7s 6s 5s 4s",
    )
}

fn score(p: &Play) -> Score {
    match p.hand.outcome() {
        Some(HandOutcome::Scored(s)) => *s,
        other => panic!("hand not scored: {other:?}"),
    }
}

#[test]
fn c_d1_d2_deal_sizes_and_seeded_deal_is_pinned() {
    for players in [3u8, 4] {
        for dealer in 0..players {
            let d = Deal::shuffled(&mut GameRng::from_seed(99), players, seat(dealer));
            d.validate(players, seat(dealer))
                .expect("a seeded deal is valid");
        }
    }
    // Golden: the seeded deal algorithm must never change (C-D2).
    let d = Deal::shuffled(&mut GameRng::from_seed(1), 3, seat(0));
    let text: Vec<String> = (0..3).map(|i| d.hands.0[i].to_string()).collect();
    let monte: Vec<String> = d.monte.iter().map(|c| c.to_string()).collect();
    assert_eq!(
        (text, monte),
        (
            vec![
                "Ab 7b Kc Cc Fc 5c 4c 7d As Cs 5s 4s".to_string(),
                "2b Kb Cb 4b Ac 3d Fd 6d 5d 2s Ks 7s".to_string(),
                "3b 6b 5b 3c 6c 2d Ad Kd Cd 4d 3s Fs".to_string(),
            ],
            vec![
                "7c".to_string(),
                "Fb".to_string(),
                "2c".to_string(),
                "6s".to_string()
            ],
        ),
        "the seed-1 deal changed: the deal algorithm is pinned for all releases \
         (scripts/deal_reference.py is an independent implementation of its documentation)"
    );
}

#[test]
fn c_d3_auction_order_strictly_higher_one_round() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    assert_eq!(
        p.actor(),
        seat(1),
        "the eldest (dealer's next seat) speaks first"
    );
    p.act("bid solo");
    assert_eq!(p.actor(), seat(2));
    p.reject("bid chiamo", "bid too low")
        .reject("bid solo", "bid too low");
    p.act("bid solissimo");
    assert_eq!(p.actor(), seat(0), "the dealer speaks last");
    p.act("pass");
    assert_eq!(
        p.hand.soloist(),
        Some(seat(2)),
        "the highest bidder is the soloist"
    );
    assert_eq!(p.hand.contract(), Some(Contract::Solissimo));
    assert_eq!(
        p.hand.phase(),
        Phase::Play,
        "one round only: nobody speaks twice"
    );
}

#[test]
fn c_d3_scegliete_closes_the_auction_at_once() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    p.act("bid scegliete");
    assert_eq!(p.hand.soloist(), Some(seat(1)));
    assert_eq!(p.hand.phase(), Phase::Take);
    assert_eq!(
        p.actor(),
        seat(2),
        "no further bids: the first defender chooses"
    );
}

#[test]
fn c_d4_all_pass_voids_the_deal_and_the_dealer_deals_again() {
    let mut m = Match::new(Options::default(), seat(0)).unwrap();
    m.start_hand(seat(0), chiamo_deal()).unwrap();
    for _ in 0..3 {
        m.try_apply(Action::Pass).unwrap();
    }
    assert_eq!(m.outcomes(), &[HandOutcome::Void]);
    assert_eq!(m.tally().totals.first_n(4), [0; 4], "no score");
    assert_eq!(
        m.next_dealer(),
        Some(seat(0)),
        "no rotation after a void deal"
    );
    assert!(
        m.start_hand(seat(1), chiamo_deal()).is_err(),
        "the next dealer is the same one"
    );
}

#[test]
fn c_d5_call_any_card_not_own() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    p.acts(&["bid chiamo", "pass", "pass"]);
    assert_eq!(p.hand.phase(), Phase::Call);
    p.reject("call Ab", "cannot call own card");
    let legal = p.hand.legal_actions();
    assert_eq!(legal.len(), 28, "any of the 28 cards he does not hold");
    p.act("call Kd");
    assert_eq!(p.hand.called(), Some("Kd".parse().unwrap()));
}

#[test]
fn c_d5_chiamo_threes_only() {
    let opts = Options {
        chiamo_threes_only: true,
        ..Options::default()
    };
    let mut p = Play::new(opts, 0, chiamo_deal());
    p.acts(&["bid chiamo", "pass", "pass"]);
    assert_eq!(
        p.hand.legal_actions().as_slice(),
        &[Action::Call("3b".parse().unwrap())]
    );
    p.reject("call Kd", "only a missing 3");
    // Holding all four 3s he calls a 2 he lacks (documented fallback: the next rank down).
    let mut q = Play::new(opts, 0, cappotto_deal());
    q.acts(&["bid chiamo", "pass", "pass"]);
    let calls: CardSet = q
        .hand
        .legal_actions()
        .iter()
        .map(|a| match a {
            Action::Call(c) => *c,
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(
        calls,
        cards("Kb Kc Kd Ks"),
        "he holds every 3, 2 and A: the kings are next"
    );
}

#[test]
fn c_d6_holder_hands_over_and_gets_a_card_back() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    p.acts(&["bid chiamo", "pass", "pass", "call 3b"]);
    assert_eq!(p.hand.phase(), Phase::Return);
    assert!(
        p.hand.hand_of(seat(1)).contains("3b".parse().unwrap()),
        "handed over automatically"
    );
    assert_eq!(p.hand.hand_of(seat(2)).len(), 11);
    p.reject("return 3b", "cannot return the called card")
        .reject("return 7s", "not in hand");
    p.act("return Kb");
    assert!(p.hand.hand_of(seat(2)).contains("Kb".parse().unwrap()));
    assert_eq!(
        p.hand.hand_of(seat(1)).len(),
        16,
        "then the soloist takes the monte"
    );
    assert_eq!(p.hand.phase(), Phase::Discard);
    p.reject("play 3b", "wrong kind of action");
    p.acts(&["discard 7s", "discard 6s", "discard 5s", "discard 4s"]);
    assert_eq!(p.hand.phase(), Phase::Play);
    assert_eq!(
        p.hand.setaside(),
        cards("7s 6s 5s 4s"),
        "the discards are the set-aside monte"
    );

    // Who sees what (C-D6): the return card only the soloist and the holder; the monte and the
    // discards only the soloist; the called card and who handed it over everyone.
    let returned = |v: Viewer| {
        p.hand.observation(v).events.iter().find_map(|e| match e {
            Event::Returned { card, .. } => Some(*card),
            _ => None,
        })
    };
    assert_eq!(
        returned(Viewer::Seat(seat(1))),
        Some(Some("Kb".parse().unwrap()))
    );
    assert_eq!(
        returned(Viewer::Seat(seat(2))),
        Some(Some("Kb".parse().unwrap()))
    );
    assert_eq!(returned(Viewer::Seat(seat(0))), Some(None));
    assert_eq!(returned(Viewer::Spectator), Some(None));
    let public = p.hand.observation(Viewer::Seat(seat(0)));
    assert!(public.events.contains(&Event::Called {
        card: "3b".parse().unwrap()
    }));
    assert!(public.events.contains(&Event::HandedOver { from: seat(2) }));
    assert!(
        public
            .events
            .iter()
            .all(|e| !matches!(e, Event::MonteTaken { cards: Some(_), .. }))
    );
    assert!(
        public
            .events
            .iter()
            .all(|e| !matches!(e, Event::Discarded { card: Some(_), .. }))
    );
    let soloist = p.hand.observation(Viewer::Seat(seat(1)));
    assert_eq!(
        soloist
            .events
            .iter()
            .filter(|e| matches!(e, Event::Discarded { card: Some(_), .. }))
            .count(),
        4
    );
}

#[test]
fn c_d7_called_card_in_the_monte() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    p.acts(&["bid chiamo", "pass", "pass", "call 6s"]);
    assert_eq!(
        p.hand.phase(),
        Phase::Discard,
        "no hand-over, no return: straight to the monte"
    );
    assert!(p.hand.hand_of(seat(1)).contains("6s".parse().unwrap()));
    assert!(
        p.hand
            .observation(Viewer::Spectator)
            .events
            .contains(&Event::CalledInMonte),
        "public"
    );
}

#[test]
fn c_d8_solo_takes_the_monte_solissimo_leaves_it_to_the_last_trick() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    p.acts(&["bid solo", "pass", "pass"]);
    assert_eq!(p.hand.hand_of(seat(1)).len(), 16);
    assert_eq!(p.hand.phase(), Phase::Discard);
    p.reject("discard 3b", "not in hand");
    p.acts(&["discard 7s", "discard 6s", "discard 5s", "discard 4s"]);
    assert_eq!(p.actor(), seat(1));

    let mut q = Play::new(Options::default(), 0, stramazzo_deal());
    q.acts(&["bid solissimo", "pass", "pass"]);
    assert_eq!(q.hand.phase(), Phase::Play, "no exchange");
    assert_eq!(
        q.hand.setaside(),
        cards("As Ks Cs Fs"),
        "the monte stays face down"
    );
    assert!(
        q.hand
            .observation(Viewer::Seat(seat(1)))
            .events
            .iter()
            .all(|e| !matches!(e, Event::MonteTaken { .. }))
    );
}

#[test]
fn c_d9_dividete_two_cards_each_in_defender_order() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    p.acts(&["pass", "bid dividete", "pass"]);
    // Soloist 2; defenders from the eldest: 1 then 0. Monte in deal order: 7s 6s | 5s 4s.
    assert_eq!(p.actor(), seat(1));
    assert_eq!(p.hand.hand_of(seat(1)).len(), 14);
    assert!(p.hand.hand_of(seat(1)).is_superset(cards("7s 6s")));
    assert_eq!(
        p.hand.hand_of(seat(0)).len(),
        12,
        "the second defender waits"
    );
    p.acts(&["discard 7s", "discard Kb"]);
    assert_eq!(p.actor(), seat(0));
    assert!(p.hand.hand_of(seat(0)).is_superset(cards("5s 4s")));
    p.acts(&["discard 5c", "discard 4c"]);
    assert_eq!(
        p.hand.setaside(),
        cards("7s Kb 5c 4c"),
        "the four discards are the new monte"
    );
    assert_eq!(p.hand.phase(), Phase::Play);
    // Nobody else sees any of it.
    for v in [
        Viewer::Seat(seat(2)),
        Viewer::Seat(seat(0)),
        Viewer::Spectator,
    ] {
        let o = p.hand.observation(v);
        let seen_of_1 = o.events.iter().any(|e| {
            matches!(e, Event::MonteReceived { seat: s, cards: Some(_) } | Event::Discarded { seat: s, card: Some(_) } if *s == seat(1))
        });
        assert!(!seen_of_1, "{v:?} saw defender 1's exchange");
    }
}

#[test]
fn c_d10_scegliete_open_monte_and_public_split() {
    let mut p = Play::new(Options::default(), 0, chiamo_deal());
    p.act("bid scegliete");
    assert!(
        p.hand
            .observation(Viewer::Spectator)
            .events
            .contains(&Event::MonteShown {
                cards: [
                    "7s".parse().unwrap(),
                    "6s".parse().unwrap(),
                    "5s".parse().unwrap(),
                    "4s".parse().unwrap()
                ]
            })
    );
    assert_eq!(p.hand.legal_actions().len(), 16, "any subset of the four");
    p.reject("take 3b", "not in the monte");
    p.act("take 7s 5s");
    let split = Event::MonteSplit {
        first: (seat(2), cards("7s 5s")),
        second: (seat(0), cards("6s 4s")),
    };
    assert!(
        p.hand
            .observation(Viewer::Spectator)
            .events
            .contains(&split),
        "the split is public"
    );
    assert_eq!(
        p.actor(),
        seat(2),
        "first defender discards as many as he took"
    );
    p.acts(&["discard 4b", "discard 5b"]);
    assert_eq!(p.actor(), seat(0));
    p.acts(&["discard 4c", "discard 5c"]);
    assert_eq!(p.hand.phase(), Phase::Play);

    // Taking none: only the second defender discards, four cards.
    let mut q = Play::new(Options::default(), 0, chiamo_deal());
    q.acts(&["bid scegliete", "take"]);
    assert_eq!(q.actor(), seat(0));
    q.acts(&["discard 4c", "discard 5c", "discard 4d", "discard 5d"]);
    assert_eq!(q.hand.phase(), Phase::Play);
    // Taking all four: only the first defender discards.
    let mut r = Play::new(Options::default(), 0, chiamo_deal());
    r.acts(&["bid scegliete", "take 7s 6s 5s 4s"]);
    r.acts(&["discard 4b", "discard 5b", "discard 6b", "discard 7b"]);
    assert_eq!(r.hand.phase(), Phase::Play);
}

#[test]
fn c_d11_the_eldest_leads_the_first_trick_in_every_contract() {
    let exchanges: [(&str, &[&str]); 5] = [
        (
            "bid chiamo",
            &[
                "call 6s",
                "discard 7s",
                "discard 6s",
                "discard 5s",
                "discard 4s",
            ],
        ),
        (
            "bid solo",
            &["discard 7s", "discard 6s", "discard 5s", "discard 4s"],
        ),
        ("bid solissimo", &[]),
        (
            "bid dividete",
            &["discard 7s", "discard 6s", "discard 5s", "discard 4s"],
        ),
        (
            "bid scegliete",
            &[
                "take",
                "discard 5s",
                "discard 4s",
                "discard 6s",
                "discard 7s",
            ],
        ),
    ];
    for (bid, rest) in exchanges {
        // Seat 0 (the dealer, speaking last) becomes the soloist.
        let mut p = Play::new(Options::default(), 0, chiamo_deal());
        p.acts(&["pass", "pass", bid]);
        if bid == "bid chiamo" {
            p.acts(rest);
        } else if bid == "bid dividete" {
            // Defenders 1 then 2 receive 7s 6s and 5s 4s and give them back.
            p.acts(&["discard 7s", "discard 6s", "discard 5s", "discard 4s"]);
        } else {
            p.acts(rest);
        }
        assert_eq!(p.hand.phase(), Phase::Play, "{bid}");
        assert_eq!(p.actor(), seat(1), "{bid}: the eldest leads");
    }
}

#[test]
fn c_d12_c_d15_stramazzo_tricks_and_the_monte_to_the_last_trick() {
    let mut p = Play::new(Options::default(), 0, stramazzo_deal());
    p.acts(&["bid solissimo", "pass", "pass", "play 4s", "play 5s"]);
    p.reject("play 6c", "must follow suit s");
    p.act("play 6s");
    assert_eq!(p.actor(), seat(0), "the 6s wins: the trick's winner leads");
    p.first_legal_to_end();
    let s = score(&p);
    assert_eq!(s.tricks, [11, 1], "always 12 tricks");
    assert_eq!(s.points, [11, 0], "35 thirds: all to the soloist");
    assert_eq!(
        s.last_trick,
        calabresella_engine::calabresella::Side::Soloist
    );
    assert_eq!(
        s.monte,
        cards("As Ks Cs Fs"),
        "the last trick's winner takes the set-aside monte"
    );
    assert!(p.hand.piles()[0].is_superset(s.monte));
    assert!(s.made);
    assert_eq!(
        s.multiplier, 3,
        "stramazzo: all 11 points without all tricks"
    );
    assert_eq!(s.award.first_n(4), [0, 12, 0, 0], "solissimo 4 x 3");
}

#[test]
fn c_d13_c_d14_failed_contract_pays_each_defender() {
    // Seat 2 bids solo with a weak hand against seat 1's 3-2-A in every suit.
    let mut p = Play::new(Options::default(), 0, cappotto_deal());
    p.acts(&FAILED_SOLO);
    p.first_legal_to_end();
    let s = score(&p);
    assert_eq!(s.points, [0, 11]);
    assert!(!s.made, "made only with at least 6 points");
    assert_eq!(s.multiplier, 2, "the defenders won all 12 tricks: cappotto");
    assert_eq!(
        s.award.first_n(4),
        [4, 4, 0, 0],
        "each defender scores value x multiplier; scores only go up"
    );
}

#[test]
fn c_d15_cappotto_doubles_and_never_stacks() {
    let mut p = Play::new(Options::default(), 0, cappotto_deal());
    p.acts(&["bid solissimo", "pass", "pass"])
        .first_legal_to_end();
    let s = score(&p);
    assert_eq!((s.tricks, s.points), ([12, 0], [11, 0]));
    assert_eq!(
        s.multiplier, 2,
        "cappotto x2 even though all points were taken too"
    );
    assert_eq!(s.award.first_n(4), [0, 8, 0, 0]);
}

#[test]
fn c_d20_no_stramazzo_option() {
    let opts = Options {
        stramazzo: false,
        ..Options::default()
    };
    let mut p = Play::new(opts, 0, stramazzo_deal());
    p.acts(&[
        "bid solissimo",
        "pass",
        "pass",
        "play 4s",
        "play 5s",
        "play 6s",
    ])
    .first_legal_to_end();
    assert_eq!(score(&p).multiplier, 1);
    assert_eq!(score(&p).award.first_n(4), [0, 4, 0, 0]);
    let mut q = Play::new(opts, 0, cappotto_deal());
    q.acts(&["bid solissimo", "pass", "pass"])
        .first_legal_to_end();
    assert_eq!(score(&q).multiplier, 2, "cappotto still doubles");
}

/// A match of one scripted hand (dealt by seat 0 from `deal`), then first legal actions until
/// that hand is over.
fn one_hand_match(opts: Options, deal: Deal, script: &[&str]) -> Match {
    let mut m = Match::new(opts, seat(0)).unwrap();
    m.start_hand(seat(0), deal).unwrap();
    for a in script {
        m.try_apply(a.parse().unwrap()).unwrap();
    }
    while m.current().is_some() {
        let a = m.legal_actions()[0];
        m.try_apply(a).unwrap();
    }
    m
}

/// Seat 2 bids solo against seat 1's 3-2-A of every suit and loses every trick.
const FAILED_SOLO: [&str; 7] = [
    "pass",
    "bid solo",
    "pass",
    "discard 7s",
    "discard 6s",
    "discard 5s",
    "discard 4s",
];

#[test]
fn c_d16_match_end_pooled_soloist_and_defenders() {
    let opts = Options {
        target: 8,
        ..Options::default()
    };
    // The soloist alone reaches the target: solissimo 4 x cappotto 2.
    let m = one_hand_match(opts, cappotto_deal(), &["bid solissimo", "pass", "pass"]);
    assert_eq!(m.result().unwrap().winners, vec![seat(1)]);
    // The defenders together reach it: 4 + 4 >= 8 while the soloist has 0.
    let m = one_hand_match(opts, cappotto_deal(), &FAILED_SOLO);
    assert_eq!(
        m.result().unwrap().winners,
        vec![seat(0), seat(1)],
        "both defenders win together"
    );
    // Individually nobody has 8: the traditional rule plays on.
    let ind = Options {
        target: 8,
        match_end: MatchEnd::Individual,
        ..Options::default()
    };
    let m = one_hand_match(ind, cappotto_deal(), &FAILED_SOLO);
    assert!(!m.is_over(), "4 and 4 are below the target individually");
    assert_eq!(
        m.next_dealer(),
        Some(seat(1)),
        "the dealer rotates after a scored hand"
    );
}

#[test]
fn c_d17_four_players_idle_dealer() {
    let opts = Options {
        players: 4,
        ..Options::default()
    };
    let d = Deal::shuffled(&mut GameRng::from_seed(5), 4, seat(2));
    assert!(d.hands.0[2].is_empty(), "the dealer gets no cards");
    let mut p = Play::new(opts, 2, d);
    assert_eq!(p.actor(), seat(3), "eldest is the dealer's next seat");
    p.acts(&["bid solo", "pass", "pass"]);
    assert_eq!(
        p.hand.defenders(),
        Some([seat(0), seat(1)]),
        "the idle dealer is in neither side"
    );
    let idle = p.hand.observation(Viewer::Seat(seat(2)));
    assert!(idle.hand.is_empty() && idle.legal_actions.is_empty());
    p.first_legal_to_end();
    assert_eq!(
        score(&p).award.0[2],
        0,
        "the idle dealer neither scores nor pays"
    );
}

#[test]
fn c_d18_aperta_defenders_see_each_other_after_trick_one_and_score_half() {
    let opts = Options {
        aperta: true,
        ..Options::default()
    };
    let mut p = Play::new(opts, 0, cappotto_deal());
    p.acts(&FAILED_SOLO);
    let before = p.hand.observation(Viewer::Seat(seat(1)));
    assert!(
        before.visible_hands.is_empty(),
        "not before the first trick"
    );
    p.acts(&["play Ab", "play 4b", "play 5c"]);
    let d1 = p.hand.observation(Viewer::Seat(seat(1)));
    assert_eq!(d1.visible_hands, vec![(seat(0), p.hand.hand_of(seat(0)))]);
    let sol = p.hand.observation(Viewer::Seat(seat(2)));
    assert!(
        sol.visible_hands.is_empty(),
        "the soloist sees nothing more"
    );
    p.first_legal_to_end();
    assert_eq!(
        score(&p).award.first_n(4),
        [2, 2, 0, 0],
        "solo 2 x cappotto 2 = 4, halved"
    );
    // Rounded up: a failed chiamo (1) pays each defender 1.
    let mut q = Play::new(opts, 0, cappotto_deal());
    q.acts(&["pass", "bid chiamo", "pass", "call 3b", "return 4b"]);
    q.acts(&["discard 7s", "discard 6s", "discard 5s", "discard 4s"])
        .first_legal_to_end();
    let s = score(&q);
    assert!(!s.made);
    assert_eq!(s.award.0[0], (s.multiplier).div_ceil(2));
}

#[test]
fn c_d19_a_due_dummy_skipped_exposed_and_played_by_the_defending_person() {
    let opts = Options {
        a_due: true,
        match_end: MatchEnd::Individual,
        ..Options::default()
    };
    // Dealer 1: eldest is seat 2, the dummy, whose turn to speak is skipped.
    let mut p = Play::new(opts, 1, chiamo_deal());
    assert_eq!(p.actor(), seat(0), "the dummy never bids");
    p.acts(&["pass", "bid solissimo"]);
    assert_eq!(p.hand.soloist(), Some(seat(1)));
    let person = p.hand.observation(Viewer::Seat(seat(0)));
    assert!(person.events.contains(&Event::DummyExposed {
        seat: seat(2),
        cards: p.hand.hand_of(seat(2))
    }));
    assert_eq!(
        person.visible_hands,
        vec![(seat(2), p.hand.hand_of(seat(2)))]
    );
    assert_eq!(p.actor(), seat(2), "the dummy is eldest and leads");
    assert_eq!(
        p.hand.controller(seat(2)),
        seat(0),
        "the defending person chooses its cards"
    );
    assert!(
        !person.legal_actions.is_empty(),
        "so seat 0 gets the legal actions"
    );
    assert!(
        p.hand
            .try_apply_as(seat(1), p.hand.legal_actions()[0])
            .is_err()
    );
    p.first_legal_to_end();
    let s = score(&p);
    if s.made {
        assert_eq!(s.award.0[2], 0);
    } else {
        assert_eq!(s.award.0[2], 0, "the dummy never scores");
        assert_eq!(
            s.award.0[0],
            4 * s.multiplier,
            "the defending person is paid once"
        );
    }
}

#[test]
fn c_d21_only_chiamata() {
    let opts = Options {
        only_chiamo: true,
        ..Options::default()
    };
    let mut p = Play::new(opts, 0, chiamo_deal());
    assert_eq!(
        p.hand.legal_actions().as_slice(),
        &[Action::Pass, Action::Bid(Contract::Chiamo)]
    );
    p.reject("bid solo", "only chiamo")
        .act("pass")
        .act("bid chiamo");
    assert_eq!(
        p.hand.soloist(),
        Some(seat(2)),
        "the first to bid it is the soloist"
    );
    assert_eq!(p.hand.phase(), Phase::Call);
}

#[test]
fn c_d22_terziglio_preset() {
    let mut o = Options::default();
    o.set("preset", "terziglio").unwrap();
    assert_eq!(o.target, 31);
    assert_eq!(o, Options::terziglio());
}

#[test]
fn c_d24_first_dealer_given_or_drawn_from_the_seed() {
    let given = Match::seeded(Options::default(), 3, Some(seat(2))).unwrap();
    assert_eq!(given.first_dealer(), seat(2));
    let drawn: Vec<_> = (0..30)
        .map(|s| {
            Match::seeded(Options::default(), s, None)
                .unwrap()
                .first_dealer()
        })
        .collect();
    for d in [0, 1, 2] {
        assert!(drawn.contains(&seat(d)), "every seat can be drawn");
    }
    let again: Vec<_> = (0..30)
        .map(|s| {
            Match::seeded(Options::default(), s, None)
                .unwrap()
                .first_dealer()
        })
        .collect();
    assert_eq!(drawn, again, "the draw is reproducible");
}

#[test]
fn match_deal_cap_ends_in_a_draw() {
    let opts = Options {
        max_deals: 3,
        ..Options::default()
    };
    let mut m = Match::seeded(opts, 1, None).unwrap();
    while !m.is_over() {
        m.try_apply(Action::Pass).unwrap();
    }
    assert_eq!(m.hands().len(), 3);
    assert!(m.result().unwrap().draw && m.result().unwrap().winners.is_empty());
}

#[test]
fn options_reject_nonsense() {
    let mut o = Options::default();
    assert!(o.set("players", "5").is_err());
    assert!(o.set("stramazzo", "maybe").is_err());
    assert!(o.set("colour", "red").is_err());
    let bad = Options {
        players: 4,
        a_due: true,
        match_end: MatchEnd::Individual,
        ..Options::default()
    };
    assert!(bad.validate().is_err());
    let mut a = Options::default();
    a.set("a_due", "true").unwrap();
    assert_eq!(
        a.match_end,
        MatchEnd::Individual,
        "a_due brings its individual match end"
    );
    assert!(a.validate().is_ok());
}
