//! Tressette con la Chiamata and Briscola Chiamata: one hand-checked scenario per decision ID of
//! `rules.md` (TC-D1 .. TC-D16, BC-D1 .. BC-D13, CH-D1 .. CH-D6), each test named by its ID.
//! Deals are explicit; whole hands are written trick by trick as `"<leader>: <cards in play
//! order>"`, with the points worked out by hand in the comments. Where only an invariant is
//! checked the hand is finished with the first legal action.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use calabresella_engine::chiamata::{
    Deal, Event, Hand, Match, Observation, Options, Outcome, Role, Variant, briscola_order,
    briscola_points, briscola_points_of, payout, target_multiplier,
};
use calabresella_engine::deals::DealRefused;
use calabresella_engine::game::GameOptions;
use calabresella_engine::game::HandRules;
use calabresella_engine::game::Rollout;
use calabresella_engine::game::{Game, GameHand, HandError, OptionError, Phase, Viewer};
use calabresella_engine::record::{Record, replay_json};
use calabresella_engine::rng::GameRng;
use calabresella_engine::{
    Action, Card, CardSet, Contract, IllegalAction, PerSeat, Promise, Rank, Seat, Signal, Suit,
};
use common::{cards, seat};
use serde_json::{Value, json};

// --- Helpers ----------------------------------------------------------------------------------

/// A deal from one card string per seat, in seat order.
fn deal(hands: &[&str]) -> Deal {
    let mut h = PerSeat::splat(CardSet::EMPTY);
    for (i, s) in hands.iter().enumerate() {
        h.0[i] = cards(s);
    }
    Deal { hands: h }
}

fn a(s: &str) -> Action {
    s.parse()
        .unwrap_or_else(|e| panic!("test action {s:?}: {e}"))
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn tc() -> Options {
    Options::new(Variant::Tressette)
}

fn bc() -> Options {
    Options::new(Variant::Briscola)
}

/// `base` with options set from strings, validated.
fn with(mut base: Options, kv: &[(&str, &str)]) -> Options {
    for (k, v) in kv {
        base.set(k, v).unwrap();
    }
    base.validate().unwrap();
    base
}

fn hand(opts: Options, dealer: u8, hands: &[&str]) -> Hand {
    Hand::new(opts, seat(dealer), deal(hands)).unwrap()
}

/// A hand or a match: whatever takes actions seat by seat.
trait Table {
    fn to_act(&self) -> Option<Seat>;
    fn take(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction>;
    fn legal(&self) -> Vec<Action>;
    fn hand_done(&self) -> bool;
}

impl Table for Hand {
    fn to_act(&self) -> Option<Seat> {
        self.actor()
    }
    fn take(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.try_apply_as(seat, action)
    }
    fn legal(&self) -> Vec<Action> {
        self.legal_actions().to_vec()
    }
    fn hand_done(&self) -> bool {
        self.is_over()
    }
}

impl Table for Match {
    fn to_act(&self) -> Option<Seat> {
        self.actor()
    }
    fn take(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.try_apply_as(seat, action)
    }
    fn legal(&self) -> Vec<Action> {
        self.legal_actions().to_vec()
    }
    fn hand_done(&self) -> bool {
        self.current().is_none()
    }
}

/// `who` must be the one to act, and `action` must be legal.
fn act<T: Table>(t: &mut T, who: u8, action: &str) {
    assert_eq!(t.to_act(), Some(seat(who)), "who acts before {action:?}");
    t.take(seat(who), a(action))
        .unwrap_or_else(|e| panic!("seat {who}: {action}: {e}"));
}

fn acts<T: Table>(t: &mut T, steps: &[(u8, &str)]) {
    for (who, action) in steps {
        act(t, *who, action);
    }
}

/// Plays tricks written `"<leader>: <cards in play order>"`, checking each trick's leader; a
/// card not in the acting seat's hand fails, so the seat order is checked too.
fn tricks<T: Table>(t: &mut T, list: &[&str]) {
    for tr in list {
        let (leader, played) = tr.split_once(':').unwrap();
        let leader: u8 = leader.trim().parse().unwrap();
        assert_eq!(t.to_act(), Some(seat(leader)), "the leader of {tr:?}");
        for c in played.split_whitespace() {
            let who = t.to_act().unwrap();
            t.take(who, a(&format!("play {c}")))
                .unwrap_or_else(|e| panic!("{tr}: seat {who} play {c}: {e}"));
        }
    }
}

/// The action must be refused and leave the hand unchanged; returns why.
fn refuse(h: &mut Hand, who: u8, action: &str) -> IllegalAction {
    let before = h.clone();
    let err = h
        .try_apply_as(seat(who), a(action))
        .expect_err(&format!("seat {who} {action} was accepted"));
    assert_eq!(*h, before, "a refused action changed the hand");
    err
}

/// Plays the first legal action for everyone until the hand is over.
fn first_legal_to_end<T: Table>(t: &mut T) {
    while !t.hand_done() {
        let who = t.to_act().unwrap();
        let x = t.legal()[0];
        t.take(who, x).unwrap();
    }
}

/// One action: in the auction the highest bid on offer, else the first legal action.
fn bid_high_then_first<T: Table>(t: &mut T) {
    let who = t.to_act().unwrap();
    let legal = t.legal();
    let x = if legal[0] == Action::Pass {
        *legal.last().unwrap()
    } else {
        legal[0]
    };
    t.take(who, x).unwrap();
}

fn texts(list: &[Action]) -> Vec<String> {
    list.iter().map(|x| x.to_string()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The cards the actor may call now (every legal action must be a call).
fn calls(h: &Hand) -> CardSet {
    h.legal_actions()
        .iter()
        .map(|x| match x {
            Action::Call(c) => *c,
            other => panic!("{other} in the call phase"),
        })
        .collect()
}

fn view(h: &Hand, s: u8) -> Observation {
    h.observation(Viewer::Seat(seat(s)))
}

/// The awards of seats 0..n, checked to sum to zero over every seat.
fn awards(o: &Outcome, n: u8) -> Vec<i32> {
    assert_eq!(o.award.0.iter().sum::<i32>(), 0, "awards are zero-sum");
    o.award.first_n(n).to_vec()
}

fn outcome(h: &Hand) -> Outcome {
    *h.outcome().expect("the hand is scored")
}

fn totals(m: &Match) -> Vec<i32> {
    let n = m.options().players;
    let t = m.tally().totals;
    assert_eq!(t.0.iter().sum::<i32>(), 0, "totals are zero-sum");
    t.first_n(n).to_vec()
}

// --- Deals (seat 0 first) ---------------------------------------------------------------------
//
// Most five-seat Tressette deals give each seat two cards of each suit, and every trick is one
// suit: a "high" trick 3 2 A K C (7 thirds) or a "low" trick F 7 6 5 4 (1 third, won by the F).
// Whoever holds the trick's top card wins it, whatever the order of play.

/// Dealer 0. The tricks of `TRICKS_T`: seat 1 (caller, chiamo) wins T1 (7) and T6 (1), seat 3
/// (holder of 3s) T3 (7) and T7 (7): 22 thirds, 7 points. Defenders: seat 2 T2 (1) and T8 (1 +
/// 3 for the last trick), seat 4 T4 (1), seat 0 T5 (7): 13 thirds, 4 points.
const DEAL_T: [&str; 5] = [
    "Cb 5b 2c 7c 3d 4d 2s 6s",
    "3b 4b Kc 6c Ad Fd Cs 5s",
    "Ab Fb Cc 5c Kd 7d Ks Fs",
    "Kb 7b 3c 4c 2d 6d 3s 4s",
    "2b 6b Ac Fc Cd 5d As 7s",
];
const TRICKS_T: [&str; 8] = [
    "1: 3b Ab Kb 2b Cb", // seat 1, 7 thirds
    "1: 4b Fb 7b 6b 5b", // seat 2, 1
    "2: Cc 3c Ac 2c Kc", // seat 3, 7
    "3: 4c Fc 7c 6c 5c", // seat 4, 1
    "4: Cd 3d Ad Kd 2d", // seat 0, 7
    "0: 4d Fd 7d 6d 5d", // seat 1, 1
    "1: Cs Ks 3s As 2s", // seat 3, 7 (the called 3s comes out here)
    "3: 4s 7s 6s 5s Fs", // seat 2, 1 + 3 last trick
];

/// Dealer 0; seat 1 calls 3c (seat 3). Caller's side: T1 7 (seat 1), T3 7 (seat 3), T6 1
/// (seat 1), T8 1 + 3 (seat 3) = 19 thirds = 6 points; defenders T2 1, T4 1, T5 7, T7 7 = 16
/// thirds = 5 points.
const DEAL_M: [&str; 5] = [
    "2b 6b Ac 4c 3d 5d 2s 5s",
    "3b 7b 2c 7c Cd Fd Cs 6s",
    "Kb Fb Kc 5c 2d 4d As 7s",
    "Cb 4b 3c 6c Ad 7d Ks Fs",
    "Ab 5b Cc Fc Kd 6d 3s 4s",
];
const TRICKS_M: [&str; 8] = [
    "1: 3b Kb Cb Ab 2b", // seat 1, 7
    "1: 7b Fb 4b 5b 6b", // seat 2, 1
    "2: Kc 3c Cc Ac 2c", // seat 3, 7
    "3: 6c Fc 4c 7c 5c", // seat 4, 1
    "4: Kd 3d Cd 2d Ad", // seat 0, 7
    "0: 5d Fd 4d 7d 6d", // seat 1, 1
    "1: Cs As Ks 3s 2s", // seat 4, 7
    "4: 4s 5s 6s 7s Fs", // seat 3, 1 + 3
];

/// `DEAL_M` with Fs and 5s swapped between seats 0 and 3: the last trick goes to seat 0, a
/// defender. Caller's side 7 + 7 + 1 = 15 thirds = 5 points; defenders 20 thirds = 6.
const DEAL_F: [&str; 5] = [
    "2b 6b Ac 4c 3d 5d 2s Fs",
    "3b 7b 2c 7c Cd Fd Cs 6s",
    "Kb Fb Kc 5c 2d 4d As 7s",
    "Cb 4b 3c 6c Ad 7d Ks 5s",
    "Ab 5b Cc Fc Kd 6d 3s 4s",
];
const TRICKS_F: [&str; 8] = [
    TRICKS_M[0],
    TRICKS_M[1],
    TRICKS_M[2],
    TRICKS_M[3],
    TRICKS_M[4],
    TRICKS_M[5],
    TRICKS_M[6],
    "4: 4s Fs 6s 7s 5s", // seat 0, 1 + 3
];

/// Dealer 0; seat 1 calls 3c (seat 3). The caller's side wins every trick but T2 (Fb, 1 third,
/// seat 2): 31 + 3 = 34 thirds = 11 points against 1 third = 0 points. Seat 1 alone (his own
/// tricks T1 7, T5 7, T6 1, T8 1 + 3) has 19 thirds = 6 points.
const DEAL_S: [&str; 5] = [
    "2b 5b Ac 6c Ad 4d 2s 5s",
    "3b 4b Cc 5c 3d Fd Ks Fs",
    "Ab Fb Kc 4c Cd 7d Cs 4s",
    "Kb 7b 3c Fc Kd 6d 3s 7s",
    "Cb 6b 2c 7c 2d 5d As 6s",
];
const TRICKS_S: [&str; 8] = [
    "1: 3b Ab Kb Cb 2b", // seat 1, 7
    "1: 4b Fb 7b 6b 5b", // seat 2, 1
    "2: Kc 3c 2c Ac Cc", // seat 3, 7
    "3: Fc 7c 6c 5c 4c", // seat 3, 1
    "3: Kd 2d Ad 3d Cd", // seat 1, 7
    "1: Fd 7d 6d 5d 4d", // seat 1, 1
    "1: Ks Cs 3s As 2s", // seat 3, 7
    "3: 7s 6s 5s Fs 4s", // seat 1, 1 + 3
];

/// One suit to each of seats 1..4 (3 down to 6), the 5s and 4s to seat 0.
const DEAL_O: [&str; 5] = [
    "5b 4b 5c 4c 5d 4d 5s 4s",
    "3b 2b Ab Kb Cb Fb 7b 6b",
    "3c 2c Ac Kc Cc Fc 7c 6c",
    "3d 2d Ad Kd Cd Fd 7d 6d",
    "3s 2s As Ks Cs Fs 7s 6s",
];

/// `DEAL_O` moved on one seat: seat 2 holds the top bastoni, seat 1 the 5s and 4s.
const DEAL_O1: [&str; 5] = [
    "3s 2s As Ks Cs Fs 7s 6s",
    "5b 4b 5c 4c 5d 4d 5s 4s",
    "3b 2b Ab Kb Cb Fb 7b 6b",
    "3c 2c Ac Kc Cc Fc 7c 6c",
    "3d 2d Ad Kd Cd Fd 7d 6d",
];

/// By rank: seat 1 every 3 and every 2, seat 2 the aces and kings.
const DEAL_R: [&str; 5] = [
    "5b 5c 5d 5s 4b 4c 4d 4s",
    "3b 3c 3d 3s 2b 2c 2d 2s",
    "Ab Ac Ad As Kb Kc Kd Ks",
    "Cb Cc Cd Cs Fb Fc Fd Fs",
    "7b 7c 7d 7s 6b 6c 6d 6s",
];

/// Four seats, dealer 0: seat 1 nine bastoni and 4s, seat 0 nine spade and 4b, seat 2 coppe,
/// seat 3 denari. In `TRICKS_Q` seat 1 wins nine bastoni tricks (29 thirds) and seat 0 the last
/// (3c 3d 3s = 3 thirds + 3 = 6).
const DEAL_Q: [&str; 4] = [
    "4b 5s 6s 7s Fs Cs Ks As 2s 3s",
    "3b 2b Ab Kb Cb Fb 7b 6b 5b 4s",
    "3c 2c Ac Kc Cc Fc 7c 6c 5c 4c",
    "3d 2d Ad Kd Cd Fd 7d 6d 5d 4d",
];
const TRICKS_Q: [&str; 10] = [
    "1: 3b 4c 4d 4b", // 1 third
    "1: 2b 5c 5d 5s", // 1
    "1: Ab 6c 6d 6s", // 3
    "1: Kb 7c 7d 7s", // 1
    "1: Cb Fc Fd Fs", // 4
    "1: Fb Cc Cd Cs", // 4
    "1: 7b Kc Kd Ks", // 3
    "1: 6b Ac Ad As", // 9
    "1: 5b 2c 2d 2s", // 3
    "1: 4s 3c 3d 3s", // seat 0: 3 + 3 for the last trick
];

/// Briscola, dealer 0. With trumps denari (the call 3d, held by seat 4) and seat 2 the caller:
/// T1 seat 2 (Ab beats 3b: 11 + 10 + 4 + 3 + 2 = 30), T2 seat 2 (Ac 11, Kc 4, 3c 10, Cc 3 = 28),
/// T3 seat 4 (2d, the lowest trump, beats the led Cs: 3): caller's side 61. Defenders: T4 seat
/// 0 (Ad over 3d: 21), T5 seat 0 (As 11, 3s 10, Ks 4, Fs 2 = 27), T6 seat 0 (Kd 4, Cd 3, Fd 2,
/// Fc 2 = 11), T7 and T8 seat 0 (0): 59.
const DEAL_B: [&str; 5] = [
    "Fb Cc 5s Ad As Kd 7b 6c",
    "Kb 7c 6s 4d 3s Cd 6b 5c",
    "Ab Ac Cs 5d 7s 7d 5b 4c",
    "3b Kc 4s 6d Ks Fd 4b 2c",
    "Cb 3c 2d 3d Fs Fc 2b 2s",
];
const TRICKS_B: [&str; 8] = [
    "1: Kb Ab 3b Cb Fb", // seat 2, 30
    "2: Ac Kc 3c Cc 7c", // seat 2, 28
    "2: Cs 4s 2d 5s 6s", // seat 4 (trump), 3
    "4: 3d Ad 4d 5d 6d", // seat 0, 21
    "0: As 3s 7s Ks Fs", // seat 0, 27
    "0: Kd Cd 7d Fd Fc", // seat 0, 11
    "0: 7b 6b 5b 4b 2b", // seat 0, 0
    "0: 6c 5c 4c 2c 2s", // seat 0, 0
];

/// `DEAL_B` with Cs and Fs swapped between seats 2 and 4: T3 is worth 2 and T5 28, so 60-60.
const DEAL_B60: [&str; 5] = [
    "Fb Cc 5s Ad As Kd 7b 6c",
    "Kb 7c 6s 4d 3s Cd 6b 5c",
    "Ab Ac Fs 5d 7s 7d 5b 4c",
    "3b Kc 4s 6d Ks Fd 4b 2c",
    "Cb 3c 2d 3d Cs Fc 2b 2s",
];
const TRICKS_B60: [&str; 8] = [
    TRICKS_B[0],
    TRICKS_B[1],
    "2: Fs 4s 2d 5s 6s", // seat 4, 2
    TRICKS_B[3],
    "0: As 3s 7s Ks Cs", // seat 0, 28
    TRICKS_B[5],
    TRICKS_B[6],
    TRICKS_B[7],
];

/// Briscola: one suit to each of seats 1..4 (A down to 5), the 4s and 2s to seat 0.
const DEAL_BO: [&str; 5] = [
    "4b 2b 4c 2c 4d 2d 4s 2s",
    "Ab 3b Kb Cb Fb 7b 6b 5b",
    "Ac 3c Kc Cc Fc 7c 6c 5c",
    "Ad 3d Kd Cd Fd 7d 6d 5d",
    "As 3s Ks Cs Fs 7s 6s 5s",
];

/// The Briscola auction used with `DEAL_B`: seat 1 bids A, seat 2 bids 3, the rest pass (seat
/// 1 last): seat 2 is the caller and must call a 3.
const AUCTION_B: [(u8, &str); 6] = [
    (1, "bid A"),
    (2, "bid 3"),
    (3, "pass"),
    (4, "pass"),
    (0, "pass"),
    (1, "pass"),
];

/// `DEAL_T`, seat 1 bids chiamo and calls 3s (seat 3), played as `TRICKS_T`.
fn hand_t() -> Hand {
    let mut h = hand(tc(), 0, &DEAL_T);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3s")]);
    tricks(&mut h, &TRICKS_T);
    h
}

// --- Tressette con la Chiamata ----------------------------------------------------------------

#[test]
fn tc_d1_five_seats_eight_cards_all_forty_dealt_reproducibly() {
    let d = Deal::shuffled(&mut GameRng::from_seed(11), 5, seat(0));
    let mut union = CardSet::EMPTY;
    for s in Seat::first_n(5) {
        assert_eq!(d.hands[s].len(), 8, "seat {s}");
        assert!((union & d.hands[s]).is_empty(), "a card dealt twice");
        union |= d.hands[s];
    }
    assert_eq!(
        union,
        CardSet::ALL,
        "no monte: all 40 cards are in the hands"
    );
    d.validate(5).unwrap();
    assert_eq!(
        d,
        Deal::shuffled(&mut GameRng::from_seed(11), 5, seat(0)),
        "the same seed deals the same"
    );
    assert_ne!(d, Deal::shuffled(&mut GameRng::from_seed(12), 5, seat(0)));
    let one = Match::seeded(tc(), 77, None).unwrap();
    let two = Match::seeded(tc(), 77, None).unwrap();
    assert_eq!(one.current().unwrap().deal(), two.current().unwrap().deal());

    let h = hand(tc(), 0, &DEAL_T);
    assert_eq!(h.players(), 5);
    assert_eq!(view(&h, 2).hand_sizes.first_n(5), &[8, 8, 8, 8, 8]);
    assert!(GameHand::dealt(&h).monte.is_empty() && GameHand::dealt(&h).stock.is_empty());
    // Nine cards to seat 1 and seven to seat 0 is not a deal.
    let mut bad = deal(&DEAL_T);
    bad.hands.0[0].remove(card("Cb"));
    bad.hands.0[1].insert(card("Cb"));
    assert!(matches!(
        Hand::new(tc(), seat(0), bad),
        Err(HandError::Deal(_))
    ));
}

#[test]
fn tc_d2_one_round_and_the_first_chiamo_wins_at_once() {
    let mut h = hand(tc(), 0, &DEAL_T);
    assert_eq!(h.phase(), Phase::Auction);
    assert_eq!(h.actor(), Some(seat(1)), "the eldest speaks first");
    assert_eq!(texts(&h.legal_actions()), ["pass", "bid chiamo"]);
    assert!(matches!(
        refuse(&mut h, 1, "bid solo"),
        IllegalAction::BidNotTaken { .. }
    ));
    assert!(matches!(
        refuse(&mut h, 1, "bid A"),
        IllegalAction::BidNotTaken { .. }
    ));
    act(&mut h, 1, "pass");
    act(&mut h, 2, "pass");
    act(&mut h, 3, "bid chiamo");
    // Seat 3 is the caller at once: seats 4 and 0 never speak.
    assert_eq!(h.phase(), Phase::Call);
    assert_eq!(h.caller(), Some(seat(3)));
    assert_eq!(h.bid(), Some(Action::Bid(Contract::Chiamo)));
    assert_eq!(h.actor(), Some(seat(3)));
    assert_eq!(
        refuse(&mut h, 4, "pass"),
        IllegalAction::NotYourTurn { actor: seat(3) }
    );
    assert_eq!(
        refuse(&mut h, 3, "bid chiamo"),
        IllegalAction::WrongPhase { phase: Phase::Call }
    );
    let spoke: Vec<(Seat, Action)> = h
        .observation(Viewer::Spectator)
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Spoke { seat, action } => Some((*seat, *action)),
            _ => None,
        })
        .collect();
    assert_eq!(
        spoke,
        [
            (seat(1), Action::Pass),
            (seat(2), Action::Pass),
            (seat(3), Action::Bid(Contract::Chiamo)),
        ]
    );
    assert!(
        h.observation(Viewer::Spectator)
            .events
            .contains(&Event::AuctionWon {
                seat: seat(3),
                bid: Action::Bid(Contract::Chiamo)
            })
    );
}

#[test]
fn tc_d3_all_pass_is_void_same_dealer_not_counted() {
    let mut m = Match::new(with(tc(), &[("hands", "1")]), seat(2)).unwrap();
    m.start_hand(seat(2), deal(&DEAL_T)).unwrap();
    // The eldest is seat 3; everyone passes once.
    acts(
        &mut m,
        &[
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
            (1, "pass"),
            (2, "pass"),
        ],
    );
    let void = &m.hands()[0];
    assert!(void.is_over() && void.is_void());
    assert!(void.outcome().is_none(), "no score");
    assert!(void.events().contains(&Event::AllPassed));
    assert_eq!(
        m.hands_scored(),
        0,
        "a void deal is not a hand of the match"
    );
    assert!(!m.is_over(), "hands = 1 and no hand is scored yet");
    assert_eq!(totals(&m), [0; 5]);
    assert_eq!(
        m.next_dealer(),
        Some(seat(2)),
        "the same dealer deals again"
    );
    assert_eq!(
        m.start_hand(seat(3), deal(&DEAL_T)),
        Err(DealRefused::WrongDealer {
            expected: seat(2),
            got: seat(3)
        })
    );
    m.start_hand(seat(2), deal(&DEAL_T)).unwrap();
    act(&mut m, 3, "bid chiamo");
    act(&mut m, 3, "call 3b"); // held by seat 1
    first_legal_to_end(&mut m);
    assert_eq!(m.hands_scored(), 1);
    assert!(m.is_over(), "the one scored hand ends the match");
    assert_eq!(m.hands().len(), 2);
}

#[test]
fn tc_d4_the_call_names_a_card_not_in_hand() {
    let mut h = hand(tc(), 0, &DEAL_T);
    act(&mut h, 1, "bid chiamo");
    assert_eq!(h.phase(), Phase::Call);
    let offered = calls(&h);
    assert_eq!(offered, CardSet::ALL - cards(DEAL_T[1]));
    assert_eq!(offered.len(), 32);
    assert_eq!(
        refuse(&mut h, 1, "call 3b"),
        IllegalAction::CallOwnCard(card("3b"))
    );
    // All 40 cards are dealt: every legal call has a holder, and he is another seat.
    for c in offered {
        let mut g = h.clone();
        g.try_apply_as(seat(1), Action::Call(c)).unwrap();
        let holder = g.holder().unwrap();
        assert_ne!(holder, seat(1));
        assert!(cards(DEAL_T[holder.index()]).contains(c));
    }
    act(&mut h, 1, "call 3s");
    assert_eq!(h.called(), Some(card("3s")));
    assert_eq!(h.holder(), Some(seat(3)));
    assert_eq!(h.partner(), Some(seat(3)));
    assert_eq!(h.phase(), Phase::Play);

    // call_threes_only: the highest rank of which the caller lacks a card. Seat 1 holds 3b only.
    let o = with(tc(), &[("call_threes_only", "true")]);
    let mut h = hand(o, 0, &DEAL_T);
    act(&mut h, 1, "bid chiamo");
    assert_eq!(calls(&h), cards("3c 3d 3s"));
    assert!(matches!(
        refuse(&mut h, 1, "call 2c"),
        IllegalAction::CallMustBe {
            rank: Rank::Three,
            ..
        }
    ));
    assert_eq!(
        refuse(&mut h, 1, "call 3b"),
        IllegalAction::CallOwnCard(card("3b"))
    );
    // Seat 1 holds all four 3s and all four 2s: he must call an ace.
    let mut h = hand(o, 0, &DEAL_R);
    act(&mut h, 1, "bid chiamo");
    assert_eq!(calls(&h), cards("Ab Ac Ad As"));
    assert!(matches!(
        refuse(&mut h, 1, "call Kb"),
        IllegalAction::CallMustBe {
            rank: Rank::Ace,
            ..
        }
    ));
    // Seat 2 (aces and kings) lacks every 3.
    let mut h = hand(o, 0, &DEAL_R);
    acts(&mut h, &[(1, "pass"), (2, "bid chiamo")]);
    assert_eq!(calls(&h), cards("3b 3c 3d 3s"));
}

#[test]
fn tc_d5_calling_an_own_card_only_by_option_and_then_alone_untold() {
    let mut h = hand(tc(), 0, &DEAL_T);
    act(&mut h, 1, "bid chiamo");
    assert_eq!(
        refuse(&mut h, 1, "call Ad"),
        IllegalAction::CallOwnCard(card("Ad"))
    );

    let o = with(tc(), &[("call_own_card", "true")]);
    let mut h = hand(o, 0, &DEAL_T);
    act(&mut h, 1, "bid chiamo");
    assert_eq!(calls(&h), CardSet::ALL, "own cards may be called too");
    act(&mut h, 1, "call Ad"); // seat 1's own card
    assert_eq!(h.holder(), Some(seat(1)));
    assert_eq!(h.partner(), None);
    assert!(h.is_alone());
    let me = view(&h, 1);
    assert_eq!(me.role, Some(Role::CallerAlone));
    assert!(me.alone);
    assert_eq!(me.partner, None);
    for s in [0, 2, 3, 4] {
        let v = view(&h, s);
        assert_eq!(v.role, Some(Role::Defender), "seat {s}");
        assert!(!v.alone, "seat {s} is not told");
        assert_eq!(v.partner, None);
        assert!(
            !v.events
                .iter()
                .any(|e| matches!(e, Event::PartnerKnown { .. }))
        );
    }
    assert!(!h.observation(Viewer::Spectator).alone);
    tricks(&mut h, &TRICKS_T[..4]);
    act(&mut h, 4, "play Cd");
    act(&mut h, 0, "play 3d");
    assert!(!view(&h, 0).alone, "still secret before Ad is played");
    act(&mut h, 1, "play Ad");
    for s in 0..5 {
        assert!(view(&h, s).alone, "seat {s}: the played Ad shows him alone");
        assert_eq!(view(&h, s).partner, None);
    }
    assert!(
        h.observation(Viewer::Spectator)
            .events
            .contains(&Event::PartnerKnown { partner: None })
    );
    act(&mut h, 2, "play Kd");
    act(&mut h, 3, "play 2d");
    tricks(&mut h, &TRICKS_T[5..]);
    // Seat 1 alone: T1 7 + T6 1 = 8 thirds = 2 points; the four defenders 27 thirds = 9.
    let o = outcome(&h);
    assert!(o.alone);
    assert_eq!(o.partner, None);
    assert_eq!(o.points, [2, 9]);
    assert_eq!(o.tricks, [2, 6]);
    assert!(!o.made);
    assert_eq!(o.multiplier, 1);
    assert_eq!(awards(&o, 5), [1, -4, 1, 1, 1]);
}

#[test]
fn tc_d6_the_partner_is_secret_until_the_called_card_is_played() {
    let mut h = hand(tc(), 0, &DEAL_T);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3s")]);
    let check_secret = |h: &Hand| {
        let caller = view(h, 1);
        assert_eq!(caller.role, Some(Role::Caller));
        assert_eq!(caller.partner, None, "the caller does not know his partner");
        assert!(!caller.alone);
        let holder = view(h, 3);
        assert_eq!(holder.role, Some(Role::Partner));
        assert_eq!(holder.partner, Some(seat(3)), "the holder knows");
        for s in [0, 2, 4] {
            let v = view(h, s);
            assert_eq!(v.role, Some(Role::Defender), "seat {s}");
            assert_eq!(v.partner, None, "seat {s}");
        }
        let spectator = h.observation(Viewer::Spectator);
        assert_eq!((spectator.partner, spectator.role), (None, None));
        assert!(
            !spectator
                .events
                .iter()
                .any(|e| matches!(e, Event::PartnerKnown { .. }))
        );
    };
    check_secret(&h);
    // Seat 3 plays six other cards and stays secret.
    tricks(&mut h, &TRICKS_T[..6]);
    act(&mut h, 1, "play Cs");
    act(&mut h, 2, "play Ks");
    check_secret(&h);
    // He has no action to declare himself: every legal action is a card.
    let legal = h.legal_actions();
    assert!(legal.iter().all(|x| matches!(x, Action::Play(_, None))));
    assert!(legal.contains(&a("play 3s")));
    act(&mut h, 3, "play 3s");
    for s in 0..5 {
        let v = view(&h, s);
        assert_eq!(v.partner, Some(seat(3)), "public to seat {s}");
        assert!(v.events.contains(&Event::PartnerKnown {
            partner: Some(seat(3))
        }));
    }
    assert_eq!(
        h.observation(Viewer::Spectator).partner,
        Some(seat(3)),
        "public to everyone"
    );
    assert_eq!(view(&h, 1).role, Some(Role::Caller));
}

#[test]
fn tc_d7_eldest_leads_follow_suit_no_trumps_eight_tricks() {
    let mut h = hand(tc(), 0, &DEAL_O);
    acts(
        &mut h,
        &[(1, "pass"), (2, "pass"), (3, "bid chiamo"), (3, "call 3b")],
    );
    assert_eq!(h.actor(), Some(seat(1)), "the eldest leads, not the caller");
    act(&mut h, 1, "play 6b");
    // Seat 2 has no bastoni: any of his cards.
    assert_eq!(h.legal_actions().len(), 8);
    act(&mut h, 2, "play 3c");
    act(&mut h, 3, "play 3d");
    act(&mut h, 4, "play 3s");
    // Seat 0 holds 5b and 4b: he must follow.
    assert_eq!(sorted(texts(&h.legal_actions())), ["play 4b", "play 5b"]);
    assert_eq!(
        refuse(&mut h, 0, "play 5c"),
        IllegalAction::MustFollowSuit(Suit::Bastoni)
    );
    assert_eq!(
        refuse(&mut h, 0, "play 3b"),
        IllegalAction::NotInHand(card("3b"))
    );
    act(&mut h, 0, "play 5b");
    // The 6b, highest of the led suit, beats three 3s of other suits: no trumps.
    assert_eq!(h.tricks_done(), 1);
    assert_eq!(h.actor(), Some(seat(1)));
    assert_eq!(h.seat_won(seat(1)), cards("6b 3c 3d 3s 5b"));
    first_legal_to_end(&mut h);
    assert_eq!(h.tricks_done(), 8);
    let o = outcome(&h);
    assert_eq!(o.tricks[0] + o.tricks[1], 8, "a hand has 8 tricks");
    assert!(Seat::first_n(5).all(|s| h.hand_of(s).is_empty()));
}

#[test]
fn tc_d8_signals_on_a_lead_only_public_and_without_effect() {
    let mut h = hand(tc(), 0, &DEAL_T);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3s")]);
    let leads = h.legal_actions();
    assert_eq!(
        leads.len(),
        32,
        "8 cards, each plain or with one of 3 signals"
    );
    for s in [
        "play 3b",
        "play 3b busso",
        "play 3b striscio",
        "play 3b volo",
    ] {
        assert!(leads.contains(&a(s)), "{s}");
    }
    act(&mut h, 1, "play 3b busso");
    // A follow takes no signal: seat 2 must follow with Ab or Fb, plain.
    assert_eq!(sorted(texts(&h.legal_actions())), ["play Ab", "play Fb"]);
    assert_eq!(
        refuse(&mut h, 2, "play Ab volo"),
        IllegalAction::SignalNotAllowed
    );
    acts(
        &mut h,
        &[
            (2, "play Ab"),
            (3, "play Kb"),
            (4, "play 2b"),
            (0, "play Cb"),
        ],
    );
    act(&mut h, 1, "play 4b volo");
    acts(
        &mut h,
        &[
            (2, "play Fb"),
            (3, "play 7b"),
            (4, "play 6b"),
            (0, "play 5b"),
        ],
    );
    for viewer in [Viewer::Seat(seat(4)), Viewer::Spectator] {
        let events = h.observation(viewer).events;
        assert!(events.contains(&Event::Played {
            seat: seat(1),
            card: card("3b"),
            signal: Some(Signal::Busso)
        }));
        assert!(events.contains(&Event::Played {
            seat: seat(1),
            card: card("4b"),
            signal: Some(Signal::Volo)
        }));
    }
    tricks(&mut h, &TRICKS_T[2..]);
    assert_eq!(
        h.outcome(),
        hand_t().outcome(),
        "the same hand without signals scores the same"
    );
}

#[test]
fn tc_d9_thirds_per_side_truncated_and_summing_to_eleven() {
    let h = hand_t();
    // Caller's side (seats 1, 3): 7 + 7 + 1 + 7 = 22 thirds -> 7 points. Defenders: 1 + 1 + 7
    // + 1 = 10 thirds, + 3 for the last trick (seat 2) = 13 -> 4 points. 7 + 4 = 11.
    let [caller_side, defenders] = h.piles();
    assert_eq!(caller_side.thirds(), 22);
    assert_eq!(defenders.thirds(), 10);
    let o = outcome(&h);
    assert_eq!(o.points, [7, 4]);
    assert_eq!(o.tricks, [4, 4]);
    assert_eq!(o.last_trick, 1, "the defenders took trick 8");
    assert_eq!(o.target, 6);
    // The captured thirds per seat (no last-trick bonus in them): 32 in all.
    assert_eq!(
        h.observation(Viewer::Spectator).seat_points.first_n(5),
        &[7, 8, 2, 14, 1]
    );

    // DEAL_M: 19 thirds (6 1/3) and 16 thirds (5 1/3): truncated to 6 and 5, still 11.
    let mut h = hand(tc(), 0, &DEAL_M);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3c")]);
    tricks(&mut h, &TRICKS_M);
    assert_eq!(outcome(&h).points, [6, 5]);
    assert_eq!(outcome(&h).last_trick, 0);
}

#[test]
fn tc_d10_no_accusi() {
    assert!(matches!(
        tc().set("accusi", "true"),
        Err(OptionError::Unknown { .. })
    ));
    // Seat 1 holds all four 3s and all four 2s, seat 2 all four aces: in Tressette that would
    // be 8 points of accusi. Here nothing is declared, and the points are the cards' only.
    let mut h = hand(tc(), 0, &DEAL_R);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call Ab")]);
    let before_play = h.observation(Viewer::Spectator).events;
    assert_eq!(
        before_play.len(),
        3,
        "bid, auction won, call: nothing declared ({before_play:?})"
    );
    first_legal_to_end(&mut h);
    let o = outcome(&h);
    let mut thirds = h.piles().map(|p| p.thirds());
    thirds[o.last_trick] += 3;
    assert_eq!(thirds[0] + thirds[1], 35);
    assert_eq!(o.points, thirds.map(|t| t / 3));
    assert_eq!(o.points[0] + o.points[1], 11);
}

#[test]
fn tc_d11_the_caller_side_makes_it_with_six_points() {
    // DEAL_M: exactly 6 points (19 thirds) is made.
    let mut h = hand(tc(), 0, &DEAL_M);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3c")]);
    tricks(&mut h, &TRICKS_M);
    let o = outcome(&h);
    assert_eq!((o.points, o.target, o.made), ([6, 5], 6, true));
    assert_eq!(o.tricks, [4, 4]);
    // DEAL_F: the defenders take the last trick: 15 thirds, 5 points, failed; they have 6.
    let mut h = hand(tc(), 0, &DEAL_F);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3c")]);
    tricks(&mut h, &TRICKS_F);
    let o = outcome(&h);
    assert_eq!((o.points, o.made), ([5, 6], false));
    assert_eq!(o.tricks, [3, 5]);
}

#[test]
fn tc_d12_payout_two_one_against_one_each_or_four_alone() {
    // Made (DEAL_T, 7-4): caller seat 1 +2, partner seat 3 +1, defenders -1.
    let o = outcome(&hand_t());
    assert!(o.made);
    assert_eq!(o.partner, Some(seat(3)));
    assert_eq!(awards(&o, 5), [-1, 2, -1, 1, -1]);
    // Failed (DEAL_F, 5-6): every sign reversed.
    let mut h = hand(tc(), 0, &DEAL_F);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3c")]);
    tricks(&mut h, &TRICKS_F);
    assert_eq!(awards(&outcome(&h), 5), [1, -2, 1, -1, 1]);
    // Alone and made (DEAL_S, call_own_card, seat 1 calls his own 3d): his own tricks are 19
    // thirds, 6 points. +4 for him, -1 for each of the four others.
    let mut h = hand(with(tc(), &[("call_own_card", "true")]), 0, &DEAL_S);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3d")]);
    tricks(&mut h, &TRICKS_S);
    let o = outcome(&h);
    assert!(o.alone && o.made);
    assert_eq!(o.points, [6, 5]);
    assert_eq!(awards(&o, 5), [-1, 4, -1, -1, -1]);
    // Alone and failed: tc_d5 (-4 for him, +1 each).
    assert_eq!(
        payout(5, seat(1), None, true, false, 1).first_n(5),
        &[1, -4, 1, 1, 1]
    );
}

#[test]
fn tc_d13_cappotto_doubles_and_there_is_no_stramazzo() {
    // DEAL_O: seat 1 holds the eight top bastoni and leads them; only seat 0 holds bastoni
    // (5b, 4b). Seat 1 calls 3c (seat 2) and wins all 8 tricks: 35 thirds = 11 points.
    let mut h = hand(tc(), 0, &DEAL_O);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3c")]);
    first_legal_to_end(&mut h);
    let o = outcome(&h);
    assert_eq!((o.tricks, o.points), ([8, 0], [11, 0]));
    assert!(o.made);
    assert_eq!(o.multiplier, 2);
    assert_eq!(awards(&o, 5), [-2, 4, 2, -2, -2]);
    // The defenders' cappotto: seat 0 calls 3d (seat 3); seat 1, a defender, wins every trick.
    let mut h = hand(tc(), 0, &DEAL_O);
    acts(
        &mut h,
        &[
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (4, "pass"),
            (0, "bid chiamo"),
            (0, "call 3d"),
        ],
    );
    first_legal_to_end(&mut h);
    let o = outcome(&h);
    assert_eq!((o.tricks, o.points, o.made), ([0, 8], [0, 11], false));
    assert_eq!(o.multiplier, 2);
    assert_eq!(awards(&o, 5), [-4, 2, 2, -2, 2]);
    // DEAL_S: all 11 points but one trick lost (34 thirds to 1): x1, no stramazzo.
    let mut h = hand(tc(), 0, &DEAL_S);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3c")]);
    tricks(&mut h, &TRICKS_S);
    let o = outcome(&h);
    assert_eq!((o.tricks, o.points), ([7, 1], [11, 0]));
    assert_eq!(o.multiplier, 1);
    assert_eq!(awards(&o, 5), [-1, 2, -1, 1, -1]);
}

#[test]
fn tc_d14_a_fixed_number_of_scored_hands_ties_share_the_win() {
    assert_eq!(tc().match_hands(), 10, "default: 2 x 5 players");
    assert_eq!(with(tc(), &[("hands", "3")]).match_hands(), 3);

    let mut m = Match::new(with(tc(), &[("hands", "2")]), seat(0)).unwrap();
    // Hand 1, DEAL_O: seat 1 calls 3c (seat 2), cappotto: +4, +2, -2 each.
    m.start_hand(seat(0), deal(&DEAL_O)).unwrap();
    acts(&mut m, &[(1, "bid chiamo"), (1, "call 3c")]);
    first_legal_to_end(&mut m);
    assert_eq!(totals(&m), [-2, 4, 2, -2, -2]);
    assert!(!m.is_over());
    assert_eq!(m.next_dealer(), Some(seat(1)));
    // A void deal in between counts for nothing.
    m.start_hand(seat(1), deal(&DEAL_O1)).unwrap();
    acts(
        &mut m,
        &[
            (2, "pass"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
            (1, "pass"),
        ],
    );
    assert_eq!(m.hands_scored(), 1);
    assert!(!m.is_over());
    // Hand 2, DEAL_O1 (dealer 1): seat 2 calls 5c (seat 1) and takes every trick.
    m.start_hand(seat(1), deal(&DEAL_O1)).unwrap();
    acts(&mut m, &[(2, "bid chiamo"), (2, "call 5c")]);
    first_legal_to_end(&mut m);
    // Totals: seat 1 4 + 2 = 6, seat 2 2 + 4 = 6, the rest -4: seats 1 and 2 share the win.
    assert_eq!(totals(&m), [-4, 6, 6, -4, -4]);
    assert_eq!(m.hands_scored(), 2);
    assert!(m.is_over());
    let r = m.result().unwrap();
    assert_eq!(r.winners, [seat(1), seat(2)]);
    assert!(!r.draw);

    // The default length, from a seed: ten scored hands, each seat dealing twice.
    let mut m = Match::seeded(tc(), 2024, Some(seat(0))).unwrap();
    while !m.is_over() {
        assert!(m.hands_scored() < 10);
        bid_high_then_first(&mut m);
    }
    assert_eq!(m.hands_scored(), 10);
    assert_eq!(m.hands().len(), 10);
    let mut sum = PerSeat::splat(0i32);
    for (i, h) in m.hands().iter().enumerate() {
        assert_eq!(h.dealer(), seat((i % 5) as u8));
        for s in Seat::first_n(5) {
            sum[s] += h.outcome().unwrap().award[s];
        }
    }
    assert_eq!(m.tally().totals, sum);
    let best = *totals(&m).iter().max().unwrap();
    let top: Vec<Seat> = Seat::first_n(5).filter(|&s| sum[s] == best).collect();
    assert_eq!(m.result().unwrap().winners, top);
}

#[test]
fn tc_d15_four_players_the_eldest_calls_two_against_two() {
    let o = with(tc(), &[("players", "4")]);
    assert_eq!(o.match_hands(), 8);
    assert!(tc().set("players", "3").is_err());
    let d = Deal::shuffled(&mut GameRng::from_seed(5), 4, seat(0));
    assert!(Seat::first_n(4).all(|s| d.hands[s].len() == 10));
    d.validate(4).unwrap();

    let mut h = hand(o, 0, &DEAL_Q);
    // No auction: the eldest is the caller and must call.
    assert_eq!(h.phase(), Phase::Call);
    assert_eq!(
        (h.actor(), h.caller(), h.bid()),
        (Some(seat(1)), Some(seat(1)), None)
    );
    assert_eq!(
        refuse(&mut h, 1, "pass"),
        IllegalAction::WrongPhase { phase: Phase::Call }
    );
    assert_eq!(
        refuse(&mut h, 1, "bid chiamo"),
        IllegalAction::WrongPhase { phase: Phase::Call }
    );
    assert_eq!(calls(&h), CardSet::ALL - cards(DEAL_Q[1]));
    let mut cappotto = h.clone();
    act(&mut h, 1, "call 3d"); // seat 3
    tricks(&mut h, &TRICKS_Q);
    // Seats 1 + 3: 29 thirds = 9 points; seats 2 + 0: 3 + 3 = 6 thirds = 2 points.
    let out = outcome(&h);
    assert_eq!((out.points, out.tricks, out.made), ([9, 2], [9, 1], true));
    assert_eq!(out.multiplier, 1);
    assert_eq!(awards(&out, 4), [-1, 1, -1, 1]);
    // Calling 3s instead makes seat 0 the partner: all 10 tricks, x2.
    act(&mut cappotto, 1, "call 3s");
    tricks(&mut cappotto, &TRICKS_Q);
    let out = outcome(&cappotto);
    assert_eq!(
        (out.points, out.tricks, out.multiplier),
        ([11, 0], [10, 0], 2)
    );
    assert_eq!(awards(&out, 4), [2, 2, -2, -2]);
    // Failed with four: -1 for the caller and partner, +1 for the other two (here x1).
    assert_eq!(
        payout(4, seat(1), Some(seat(3)), false, false, 1).first_n(4),
        &[1, -1, 1, -1]
    );
    // call_own_card does not apply with four players.
    let mut h = hand(with(o, &[("call_own_card", "true")]), 0, &DEAL_Q);
    assert_eq!(
        refuse(&mut h, 1, "call 3b"),
        IllegalAction::CallOwnCard(card("3b"))
    );
}

#[test]
fn tc_d16_solo_bid_above_chiamo_closes_and_plays_alone() {
    let o = with(tc(), &[("solo_bid", "true")]);
    let mut h = hand(o, 0, &DEAL_T);
    assert_eq!(
        texts(&h.legal_actions()),
        ["pass", "bid chiamo", "bid solo"]
    );
    act(&mut h, 1, "bid chiamo");
    // Chiamo no longer closes: the others still speak, and only solo is higher.
    assert_eq!(h.phase(), Phase::Auction);
    assert_eq!(texts(&h.legal_actions()), ["pass", "bid solo"]);
    assert_eq!(
        refuse(&mut h, 2, "bid chiamo"),
        IllegalAction::BidTooLow {
            highest: Some(Contract::Chiamo)
        }
    );
    act(&mut h, 2, "pass");
    act(&mut h, 3, "bid solo");
    // Solo closes the auction: no call, the eldest leads.
    assert_eq!(h.phase(), Phase::Play);
    assert_eq!(h.caller(), Some(seat(3)));
    assert!(h.is_solo());
    assert_eq!(h.called(), None);
    assert_eq!(h.actor(), Some(seat(1)));
    let spoke = h
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Spoke { .. }))
        .count();
    assert_eq!(spoke, 3, "seats 4 and 0 never speak");
    for s in 0..5 {
        let v = view(&h, s);
        assert!(v.alone, "seat {s}: a solo is public");
        assert_eq!(v.partner, None);
        let role = if s == 3 {
            Role::CallerAlone
        } else {
            Role::Defender
        };
        assert_eq!(v.role, Some(role), "seat {s}");
    }
    // Seat 3 alone wins T3 and T7: 14 thirds = 4 points; the four others 21 = 7.
    tricks(&mut h, &TRICKS_T);
    let out = outcome(&h);
    assert!(out.alone && !out.made);
    assert_eq!((out.partner, out.called), (None, None));
    assert_eq!((out.points, out.tricks), ([4, 7], [2, 6]));
    assert_eq!(awards(&out, 5), [1, 1, 1, -4, 1]);
    // Chiamo still wins when nobody bids solo after it.
    let mut h = hand(o, 0, &DEAL_T);
    acts(
        &mut h,
        &[
            (1, "bid chiamo"),
            (2, "pass"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
        ],
    );
    assert_eq!((h.phase(), h.caller()), (Phase::Call, Some(seat(1))));
    // A solo from the eldest closes at once.
    let mut h = hand(o, 0, &DEAL_T);
    act(&mut h, 1, "bid solo");
    assert_eq!((h.phase(), h.caller()), (Phase::Play, Some(seat(1))));
}

// --- Briscola Chiamata ------------------------------------------------------------------------

/// `DEAL_B` after `AUCTION_B` and the call 3d: trumps denari, seat 4 the partner.
fn hand_b_called() -> Hand {
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(&mut h, &AUCTION_B);
    act(&mut h, 2, "call 3d");
    h
}

#[test]
fn bc_d1_five_seats_eight_cards_nothing_turned_up() {
    let d = Deal::shuffled(&mut GameRng::from_seed(3), 5, seat(4));
    let mut union = CardSet::EMPTY;
    for s in Seat::first_n(5) {
        assert_eq!(d.hands[s].len(), 8);
        union |= d.hands[s];
    }
    assert_eq!(union, CardSet::ALL, "no stock: every card is dealt");
    let mut h = hand(bc(), 0, &DEAL_B);
    // No card turned up: nothing public before the auction, no trump until the call.
    assert!(h.observation(Viewer::Spectator).events.is_empty());
    assert_eq!(h.trump(), None);
    assert_eq!(view(&h, 1).trump, None);
    assert_eq!(view(&h, 1).hand_sizes.first_n(5), &[8, 8, 8, 8, 8]);
    let dealt = GameHand::dealt(&h);
    assert!(dealt.monte.is_empty() && dealt.stock.is_empty());
    acts(&mut h, &AUCTION_B);
    assert_eq!(h.trump(), None, "the trump comes from the call");
    act(&mut h, 2, "call 3d");
    assert_eq!(h.trump(), Some(Suit::Denari));
    tricks(&mut h, &TRICKS_B);
    assert_eq!(h.tricks_done(), 8);
    // A deal of 8, 8, 8, 8 and 7 cards (one left over) is refused.
    let mut short = deal(&DEAL_B);
    short.hands.0[0].remove(card("Fb"));
    assert!(Hand::new(bc(), seat(0), short).is_err());
}

#[test]
fn bc_d2_order_a_3_k_c_f_7_6_5_4_2_and_120_points() {
    let order: String = {
        let mut r = Rank::ALL.to_vec();
        r.sort_by_key(|&r| std::cmp::Reverse(briscola_order(r)));
        r.iter().map(|r| r.letter()).collect()
    };
    assert_eq!(order, "A3KCF76542");
    let pts: Vec<u32> = [
        Rank::Ace,
        Rank::Three,
        Rank::Re,
        Rank::Cavallo,
        Rank::Fante,
        Rank::Seven,
        Rank::Two,
    ]
    .iter()
    .map(|&r| briscola_points(r))
    .collect();
    assert_eq!(pts, [11, 10, 4, 3, 2, 0, 0]);
    assert_eq!(briscola_points_of(CardSet::ALL), 120);

    let mut h = hand_b_called();
    // T1 led Kb: the ace beats the 3 (in Tressette the 3 would win).
    tricks(&mut h, &TRICKS_B[..1]);
    assert_eq!(h.actor(), Some(seat(2)), "Ab wins");
    assert_eq!(h.seat_points(seat(2)), 30, "A 11 + 3 10 + K 4 + C 3 + F 2");
    tricks(&mut h, &TRICKS_B[1..]);
    // T7 led 7b: the 2b is the lowest card and the 7b wins.
    assert_eq!(h.seat_won(seat(0)) & cards("7b 2b"), cards("7b 2b"));
    // The last trick (seat 0, 0 points) adds nothing: 61 + 59 = 120.
    let o = outcome(&h);
    assert_eq!(o.points, [61, 59]);
    assert_eq!(o.points, h.piles().map(briscola_points_of));
    assert_eq!(o.last_trick, 1);
}

#[test]
fn bc_d3_rank_auction_strictly_higher_jumps_and_final_passes() {
    let mut h = hand(bc(), 0, &DEAL_B);
    assert_eq!(h.actor(), Some(seat(1)), "the eldest speaks first");
    let ladder = texts(&h.legal_actions());
    assert_eq!(ladder.len(), 1 + 10 + 59);
    assert_eq!(
        ladder[..12],
        [
            "pass", "bid A", "bid 3", "bid K", "bid C", "bid F", "bid 7", "bid 6", "bid 5",
            "bid 4", "bid 2", "bid 2 62"
        ]
    );
    assert_eq!(ladder.last().unwrap(), "bid 2 120");
    act(&mut h, 1, "bid A");
    act(&mut h, 2, "bid K"); // a jump over 3
    assert_eq!(
        refuse(&mut h, 3, "bid 3"),
        IllegalAction::PromiseTooLow {
            highest: Promise::Rank(Rank::Re)
        }
    );
    assert!(matches!(
        refuse(&mut h, 3, "bid K"),
        IllegalAction::PromiseTooLow { .. }
    ));
    assert!(matches!(
        refuse(&mut h, 3, "bid chiamo"),
        IllegalAction::BidNotTaken { .. }
    ));
    assert!(matches!(
        refuse(&mut h, 3, "bid 75"),
        IllegalAction::BidNotTaken { .. }
    ));
    act(&mut h, 3, "pass");
    act(&mut h, 4, "bid 2");
    // After the plain 2 come the points: 62 is the lowest.
    assert_eq!(h.legal_actions()[1], a("bid 2 62"));
    assert_eq!(h.legal_actions().len(), 1 + 59);
    act(&mut h, 0, "bid 2 62");
    act(&mut h, 1, "bid 2 70"); // outbid, not passed: seat 1 speaks again
    act(&mut h, 2, "pass");
    assert_eq!(
        h.actor(),
        Some(seat(4)),
        "seat 3 passed: skipped from now on"
    );
    act(&mut h, 4, "pass");
    act(&mut h, 0, "pass");
    assert_eq!(h.phase(), Phase::Call);
    assert_eq!(h.caller(), Some(seat(1)));
    assert_eq!(h.bid(), Some(a("bid 2 70")));
    assert_eq!(h.target(), Some(70));
    assert_eq!(calls(&h), cards("2b 2c 2d 2s"));
    assert!(matches!(
        refuse(&mut h, 1, "call Ab"),
        IllegalAction::CallMustBe {
            rank: Rank::Two,
            ..
        }
    ));
}

#[test]
fn bc_d4_the_auction_ends_when_four_have_passed_or_at_2_120() {
    // A bid and four passes.
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(
        &mut h,
        &[(1, "bid A"), (2, "pass"), (3, "pass"), (4, "pass")],
    );
    assert_eq!(h.phase(), Phase::Auction, "seat 0 has not spoken yet");
    act(&mut h, 0, "pass");
    assert_eq!((h.phase(), h.caller()), (Phase::Call, Some(seat(1))));
    assert_eq!(h.target(), Some(61));
    // Four passes, then a bid: it wins at once.
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(
        &mut h,
        &[(1, "pass"), (2, "pass"), (3, "pass"), (4, "pass")],
    );
    assert_eq!(h.legal_actions().len(), 70);
    act(&mut h, 0, "bid 4");
    assert_eq!(
        (h.phase(), h.caller(), h.actor()),
        (Phase::Call, Some(seat(0)), Some(seat(0)))
    );
    assert_eq!(calls(&h), cards("4b 4c 4d 4s"));
    // bid 2 120 closes at once.
    let mut h = hand(bc(), 0, &DEAL_B);
    act(&mut h, 1, "bid 2 120");
    assert_eq!(
        (h.phase(), h.caller(), h.target()),
        (Phase::Call, Some(seat(1)), Some(120))
    );
    // Five passes: void, same dealer, not counted.
    let mut m = Match::new(with(bc(), &[("hands", "1")]), seat(0)).unwrap();
    m.start_hand(seat(0), deal(&DEAL_B)).unwrap();
    acts(
        &mut m,
        &[
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
        ],
    );
    assert!(m.hands()[0].is_void());
    assert_eq!(m.hands()[0].caller(), None);
    assert_eq!((m.hands_scored(), m.is_over()), (0, false));
    assert_eq!(m.next_dealer(), Some(seat(0)));
    m.start_hand(seat(0), deal(&DEAL_B)).unwrap();
    acts(&mut m, &AUCTION_B);
    act(&mut m, 2, "call 3d");
    tricks(&mut m, &TRICKS_B);
    assert_eq!((m.hands_scored(), m.is_over()), (1, true));
    assert_eq!(totals(&m), [-1, -1, 2, -1, 1]);
}

#[test]
fn bc_d5_points_auction_61_to_120_and_any_card_called() {
    let o = with(bc(), &[("auction", "points")]);
    let mut h = hand(o, 0, &DEAL_B);
    let bids = texts(&h.legal_actions());
    assert_eq!(bids.len(), 1 + 60);
    assert_eq!((bids[1].as_str(), bids[60].as_str()), ("bid 61", "bid 120"));
    assert!(matches!(
        refuse(&mut h, 1, "bid A"),
        IllegalAction::BidNotTaken { .. }
    ));
    assert!(matches!(
        refuse(&mut h, 1, "bid 2 70"),
        IllegalAction::BidNotTaken { .. }
    ));
    act(&mut h, 1, "bid 61");
    assert_eq!(
        refuse(&mut h, 2, "bid 61"),
        IllegalAction::PromiseTooLow {
            highest: Promise::Points(61)
        }
    );
    acts(
        &mut h,
        &[(2, "bid 70"), (3, "pass"), (4, "pass"), (0, "pass")],
    );
    assert_eq!(h.phase(), Phase::Auction, "seat 1 may still raise");
    act(&mut h, 1, "pass");
    assert_eq!((h.caller(), h.target()), (Some(seat(2)), Some(70)));
    assert_eq!(calls(&h), CardSet::ALL, "any card, of any rank");
    act(&mut h, 2, "call 7c"); // held by seat 1
    assert_eq!((h.trump(), h.holder()), (Some(Suit::Coppe), Some(seat(1))));
}

#[test]
fn bc_d6_two_closes_a_plain_2_ends_the_auction() {
    let o = with(bc(), &[("two_closes", "true")]);
    let mut h = hand(o, 0, &DEAL_B);
    assert_eq!(h.legal_actions().len(), 11, "pass and ten ranks, no points");
    act(&mut h, 1, "bid 5");
    assert!(matches!(
        refuse(&mut h, 2, "bid 2 62"),
        IllegalAction::BidNotTaken { .. }
    ));
    act(&mut h, 2, "bid 2");
    assert_eq!(
        (h.phase(), h.caller(), h.target()),
        (Phase::Call, Some(seat(2)), Some(61))
    );
    assert_eq!(calls(&h), cards("2b 2c 2d 2s"));
    // Without the option the plain 2 leaves the auction open.
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(&mut h, &[(1, "bid 5"), (2, "bid 2")]);
    assert_eq!((h.phase(), h.actor()), (Phase::Auction, Some(seat(3))));
}

#[test]
fn bc_d7_the_call_of_the_bid_rank_names_trumps_and_may_be_own() {
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(
        &mut h,
        &[
            (1, "pass"),
            (2, "bid K"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
        ],
    );
    assert_eq!(calls(&h), cards("Kb Kc Kd Ks"));
    assert_eq!(
        refuse(&mut h, 2, "call Ad"),
        IllegalAction::CallMustBe {
            rank: Rank::Re,
            why: "the rank bid"
        }
    );
    act(&mut h, 2, "call Kd");
    assert_eq!(h.trump(), Some(Suit::Denari));
    assert_eq!((h.holder(), h.partner()), (Some(seat(0)), Some(seat(0))));
    assert!(!h.is_alone());
    // Seat 2 bids A and calls his own Ac: coppe are trumps and he plays alone, untold.
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(
        &mut h,
        &[
            (1, "pass"),
            (2, "bid A"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
        ],
    );
    assert_eq!(calls(&h), cards("Ab Ac Ad As"), "his own aces included");
    act(&mut h, 2, "call Ac");
    assert_eq!(h.trump(), Some(Suit::Coppe));
    assert!(h.is_alone());
    assert_eq!(h.partner(), None);
    assert_eq!(view(&h, 2).role, Some(Role::CallerAlone));
    assert!(view(&h, 2).alone);
    for s in [0, 1, 3, 4] {
        assert_eq!(view(&h, s).role, Some(Role::Defender));
        assert!(!view(&h, s).alone, "seat {s} is not told");
    }
}

#[test]
fn bc_d8_secret_partner_and_a_secret_lone_caller() {
    let mut h = hand_b_called();
    let secret = |h: &Hand| {
        assert_eq!(view(h, 2).partner, None, "the caller does not know");
        assert_eq!(view(h, 2).role, Some(Role::Caller));
        assert_eq!(view(h, 4).partner, Some(seat(4)));
        assert_eq!(view(h, 4).role, Some(Role::Partner));
        for s in [0, 1, 3] {
            assert_eq!(view(h, s).partner, None);
            assert_eq!(view(h, s).role, Some(Role::Defender));
        }
    };
    secret(&h);
    tricks(&mut h, &TRICKS_B[..3]);
    secret(&h);
    assert!(
        h.legal_actions()
            .iter()
            .all(|x| matches!(x, Action::Play(..)))
    );
    act(&mut h, 4, "play 3d");
    for s in 0..5 {
        assert_eq!(view(&h, s).partner, Some(seat(4)), "seat {s}");
    }

    // Seat 4 bids 3 and calls his own 3d: only he knows he is alone until the 3d is out.
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(
        &mut h,
        &[
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (4, "bid 3"),
            (0, "pass"),
            (4, "call 3d"),
        ],
    );
    assert!(view(&h, 4).alone);
    tricks(&mut h, &TRICKS_B[..3]);
    for s in 0..4 {
        assert!(!view(&h, s).alone, "seat {s}");
        assert_eq!(view(&h, s).role, Some(Role::Defender));
    }
    act(&mut h, 4, "play 3d");
    for s in 0..5 {
        assert!(view(&h, s).alone, "seat {s}: the 3d is out");
    }
    assert!(
        h.observation(Viewer::Spectator)
            .events
            .contains(&Event::PartnerKnown { partner: None })
    );
    acts(
        &mut h,
        &[
            (0, "play Ad"),
            (1, "play 4d"),
            (2, "play 5d"),
            (3, "play 6d"),
        ],
    );
    tricks(&mut h, &TRICKS_B[4..]);
    // Alone, seat 4 has only T3 (Cs, 3 points): 3 to 117, -4 for him, +1 each.
    let o = outcome(&h);
    assert!(o.alone && !o.made);
    assert_eq!(o.points, [3, 117]);
    assert_eq!(awards(&o, 5), [1, 1, 1, 1, -4]);
}

#[test]
fn bc_d9_eldest_leads_any_card_trumps_win_no_signals() {
    let mut h = hand_b_called();
    assert_eq!(h.actor(), Some(seat(1)), "the eldest leads, not the caller");
    act(&mut h, 1, "play 6b");
    // Seat 2 holds Ab and 5b, yet may play any card.
    assert_eq!(h.legal_actions().len(), 8);
    assert_eq!(
        refuse(&mut h, 2, "play Ac busso"),
        IllegalAction::SignalNotAllowed
    );
    act(&mut h, 2, "play Ac");
    act(&mut h, 3, "play 4b");
    act(&mut h, 4, "play 2b");
    act(&mut h, 0, "play 7b");
    // No trump played: the highest bastoni (7b) wins; the Ac, off suit, cannot.
    assert_eq!(h.actor(), Some(seat(0)));
    assert_eq!(h.seat_won(seat(0)), cards("6b Ac 4b 2b 7b"));
    assert_eq!(
        refuse(&mut h, 0, "play As volo"),
        IllegalAction::SignalNotAllowed,
        "no signals, not even on a lead"
    );
    act(&mut h, 0, "play As");
    act(&mut h, 1, "play 4d");
    act(&mut h, 2, "play 5d");
    act(&mut h, 3, "play Ks");
    act(&mut h, 4, "play 2d");
    // Three trumps: the highest (5d) wins over 4d and 2d and the led As.
    assert_eq!(h.actor(), Some(seat(2)));
    assert_eq!(h.seat_won(seat(2)), cards("As 4d 5d Ks 2d"));
    first_legal_to_end(&mut h);
    let o = outcome(&h);
    assert_eq!(o.tricks[0] + o.tricks[1], 8);
    assert_eq!(o.points[0] + o.points[1], 120);
    // Option first_lead = caller.
    let mut h = hand(with(bc(), &[("first_lead", "caller")]), 0, &DEAL_B);
    acts(&mut h, &AUCTION_B);
    act(&mut h, 2, "call 3d");
    assert_eq!(h.actor(), Some(seat(2)));
}

#[test]
fn bc_d10_61_makes_it_60_60_fails_a_points_bid_needs_n() {
    let mut h = hand_b_called();
    tricks(&mut h, &TRICKS_B);
    let o = outcome(&h);
    assert_eq!((o.points, o.target, o.made), ([61, 59], 61, true));
    let mut h = hand(bc(), 0, &DEAL_B60);
    acts(&mut h, &AUCTION_B);
    act(&mut h, 2, "call 3d");
    tricks(&mut h, &TRICKS_B60);
    let o = outcome(&h);
    assert_eq!((o.points, o.made), ([60, 60], false));
    // bid 2 62: seat 2 calls 2d (seat 4, the same partner and trumps); 61 < 62 fails.
    let mut h = hand(bc(), 0, &DEAL_B);
    acts(
        &mut h,
        &[
            (1, "bid A"),
            (2, "bid 2 62"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
            (1, "pass"),
            (2, "call 2d"),
        ],
    );
    assert_eq!(h.holder(), Some(seat(4)));
    tricks(&mut h, &TRICKS_B);
    let o = outcome(&h);
    assert_eq!((o.points, o.target, o.made), ([61, 59], 62, false));
    // Points auction: bid 61 and exactly 61 is made.
    let mut h = hand(with(bc(), &[("auction", "points")]), 0, &DEAL_B);
    acts(
        &mut h,
        &[
            (1, "pass"),
            (2, "bid 61"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
            (2, "call 3d"),
        ],
    );
    tricks(&mut h, &TRICKS_B);
    let o = outcome(&h);
    assert_eq!((o.points, o.target, o.made), ([61, 59], 61, true));
}

#[test]
fn bc_d11_payout_two_one_against_one_each_or_four_alone() {
    let mut h = hand_b_called();
    tricks(&mut h, &TRICKS_B);
    // Made: caller seat 2 +2, partner seat 4 +1, seats 0, 1, 3 -1.
    assert_eq!(awards(&outcome(&h), 5), [-1, -1, 2, -1, 1]);
    let mut h = hand(bc(), 0, &DEAL_B60);
    acts(&mut h, &AUCTION_B);
    act(&mut h, 2, "call 3d");
    tricks(&mut h, &TRICKS_B60);
    // Failed (60-60): reversed.
    assert_eq!(awards(&outcome(&h), 5), [1, 1, -2, 1, -1]);
    // Alone: +-4 against -+1 each (failed in bc_d8, made x2 in bc_d12).
    assert_eq!(
        payout(5, seat(1), None, true, true, 1).first_n(5),
        &[-1, 4, -1, -1, -1]
    );
}

#[test]
fn bc_d12_cappotto_doubles_and_bid_multiplier_steps() {
    // DEAL_BO: seat 1 bids A and calls his own Ab: bastoni are trumps and he holds the eight
    // highest; he leads one each trick and takes all 120 points, alone: x2, +8, -2 each.
    let mut h = hand(bc(), 0, &DEAL_BO);
    acts(
        &mut h,
        &[
            (1, "bid A"),
            (2, "pass"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
            (1, "call Ab"),
        ],
    );
    first_legal_to_end(&mut h);
    let o = outcome(&h);
    assert_eq!((o.points, o.tricks, o.made), ([120, 0], [8, 0], true));
    assert_eq!(o.multiplier, 2);
    assert_eq!(awards(&o, 5), [-2, 8, -2, -2, -2]);
    // bid_multiplier: bid 2 101 (x5) with cappotto (x2) = x10; 2b is seat 0's.
    let bm = with(bc(), &[("bid_multiplier", "true")]);
    let mut h = hand(bm, 0, &DEAL_BO);
    acts(
        &mut h,
        &[
            (1, "bid 2 101"),
            (2, "pass"),
            (3, "pass"),
            (4, "pass"),
            (0, "pass"),
            (1, "call 2b"),
        ],
    );
    first_legal_to_end(&mut h);
    let o = outcome(&h);
    assert_eq!((o.points, o.target, o.made), ([120, 0], 101, true));
    assert_eq!(o.multiplier, 10);
    assert_eq!(awards(&o, 5), [10, 20, -10, -10, -10]);
    // A failed high bid pays multiplied too: DEAL_B, bid 2 75 (x2), 61 made of 75.
    let bid_75 = |opts| {
        let mut h = hand(opts, 0, &DEAL_B);
        acts(
            &mut h,
            &[
                (1, "bid A"),
                (2, "bid 2 75"),
                (3, "pass"),
                (4, "pass"),
                (0, "pass"),
                (1, "pass"),
                (2, "call 2d"),
            ],
        );
        tricks(&mut h, &TRICKS_B);
        outcome(&h)
    };
    let o = bid_75(bm);
    assert_eq!((o.points, o.made, o.multiplier), ([61, 59], false, 2));
    assert_eq!(awards(&o, 5), [2, 2, -4, 2, -2]);
    let o = bid_75(bc());
    assert_eq!(o.multiplier, 1, "without the option");
    assert_eq!(awards(&o, 5), [1, 1, -2, 1, -1]);
    let steps: Vec<u32> = [61, 70, 71, 80, 81, 90, 91, 100, 101, 120]
        .iter()
        .map(|&t| target_multiplier(t))
        .collect();
    assert_eq!(steps, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
}

#[test]
fn bc_d13_a_fixed_number_of_hands_ties_share_the_win() {
    assert_eq!(bc().match_hands(), 10);
    // One hand: the 60-60 failure pays the three defenders +1 each, who share the win.
    let mut m = Match::new(with(bc(), &[("hands", "1")]), seat(0)).unwrap();
    m.start_hand(seat(0), deal(&DEAL_B60)).unwrap();
    acts(&mut m, &AUCTION_B);
    act(&mut m, 2, "call 3d");
    tricks(&mut m, &TRICKS_B60);
    assert!(m.is_over());
    assert_eq!(totals(&m), [1, 1, -2, 1, -1]);
    assert_eq!(m.result().unwrap().winners, [seat(0), seat(1), seat(3)]);
    // The default length from a seed.
    let mut m = Match::seeded(bc(), 8, Some(seat(3))).unwrap();
    while !m.is_over() {
        assert!(m.hands_scored() < 10);
        bid_high_then_first(&mut m);
    }
    assert_eq!(m.hands_scored(), 10);
    assert_eq!(m.hands().last().unwrap().dealer(), seat(2));
}

// --- Both games -------------------------------------------------------------------------------

/// `hands` with two cards swapped between seats `x` and `y`.
fn swapped(hands: &[&str], x: (u8, &str), y: (u8, &str)) -> Deal {
    let mut d = deal(hands);
    d.hands.0[x.0 as usize].remove(card(x.1));
    d.hands.0[y.0 as usize].remove(card(y.1));
    d.hands.0[x.0 as usize].insert(card(y.1));
    d.hands.0[y.0 as usize].insert(card(x.1));
    d
}

#[test]
fn ch_d1_only_the_hands_and_the_holder_are_hidden() {
    // DEAL_T and the same deal with 3s (seat 3) and 7s (seat 4) swapped: the holder of the
    // called 3s differs, and nothing else until the 3s is played in trick 7.
    let mut one = hand(tc(), 0, &DEAL_T);
    let mut two = Hand::new(tc(), seat(0), swapped(&DEAL_T, (3, "3s"), (4, "7s"))).unwrap();
    for h in [&mut one, &mut two] {
        acts(h, &[(1, "bid chiamo"), (1, "call 3s")]);
    }
    assert_eq!((one.holder(), two.holder()), (Some(seat(3)), Some(seat(4))));
    let same_views = |one: &Hand, two: &Hand| {
        for viewer in [0, 1, 2]
            .map(|s| Viewer::Seat(seat(s)))
            .into_iter()
            .chain([Viewer::Spectator])
        {
            assert_eq!(
                one.observation(viewer),
                two.observation(viewer),
                "{viewer:?}"
            );
            assert_eq!(
                GameHand::features(one, viewer),
                GameHand::features(two, viewer),
                "{viewer:?}"
            );
        }
    };
    same_views(&one, &two);
    for h in [&mut one, &mut two] {
        tricks(h, &TRICKS_T[..6]);
    }
    same_views(&one, &two);
    // Everything else is public: the auction, the call, every card played and each trick.
    let spectator = one.observation(Viewer::Spectator);
    let count = |f: fn(&Event) -> bool| spectator.events.iter().filter(|e| f(e)).count();
    assert_eq!(
        count(|e| matches!(e, Event::Dealt { .. })),
        0,
        "no hand is public"
    );
    assert_eq!(count(|e| matches!(e, Event::Spoke { .. })), 1);
    assert_eq!(count(|e| matches!(e, Event::Called { .. })), 1);
    assert_eq!(count(|e| matches!(e, Event::Played { .. })), 30);
    assert_eq!(count(|e| matches!(e, Event::TrickWon { .. })), 6);
    // A seat sees its own deal only.
    let mine = view(&one, 2);
    assert_eq!(mine.hand, cards("Ks Fs"), "seat 2 after six tricks");
    let dealt: Vec<Seat> = mine
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Dealt { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(dealt, [seat(2)]);
    // Once the 3s is played the two holders are told apart by everyone.
    acts(&mut one, &[(1, "play Cs"), (2, "play Ks"), (3, "play 3s")]);
    assert_eq!(view(&one, 0).partner, Some(seat(3)));
}

#[test]
fn ch_d2_what_an_observation_holds() {
    let mut h = hand_b_called();
    tricks(&mut h, &TRICKS_B[..1]);
    act(&mut h, 2, "play Ac");
    // Seat 3, a defender, to play to trick 2.
    let v = view(&h, 3);
    assert_eq!(v.viewer, Viewer::Seat(seat(3)));
    assert_eq!(v.options, bc());
    assert_eq!(v.dealer, seat(0));
    assert_eq!(v.hand, cards("Kc 4s 6d Ks Fd 4b 2c"));
    assert_eq!(v.hand_sizes.first_n(5), &[7, 7, 6, 7, 7]);
    assert_eq!(v.phase, Phase::Play);
    assert_eq!(v.actor, Some(seat(3)));
    assert_eq!(v.legal_actions.len(), 7);
    assert_eq!(v.highest, Some((seat(2), a("bid 3"))));
    assert_eq!((v.caller, v.bid), (Some(seat(2)), Some(a("bid 3"))));
    assert_eq!(v.called, Some(card("3d")));
    assert_eq!((v.trump, v.target), (Some(Suit::Denari), Some(61)));
    assert_eq!(
        (v.partner, v.role, v.alone),
        (None, Some(Role::Defender), false)
    );
    assert_eq!(v.trick, [(seat(2), card("Ac"))]);
    assert_eq!(v.tricks_done, 1);
    assert_eq!(v.seat_points.first_n(5), &[0, 0, 30, 0, 0]);
    let auction: Vec<(Seat, Action)> = v
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Spoke { seat, action } => Some((*seat, *action)),
            _ => None,
        })
        .collect();
    let expected: Vec<(Seat, Action)> = AUCTION_B.iter().map(|(s, x)| (seat(*s), a(x))).collect();
    assert_eq!(auction, expected);
    assert!(v.events.contains(&Event::TrickWon {
        number: 1,
        winner: seat(2),
        cards: cards("Kb Ab 3b Cb Fb")
    }));
    // The leader of the completed trick is the seat of its first card.
    let first_play = v.events.iter().find_map(|e| match e {
        Event::Played { seat, .. } => Some(*seat),
        _ => None,
    });
    assert_eq!(first_play, Some(seat(1)));
    // Others' views: the caller's and the holder's roles; no legal actions for a waiting seat.
    assert_eq!(
        (view(&h, 2).role, view(&h, 2).partner),
        (Some(Role::Caller), None)
    );
    assert_eq!(
        (view(&h, 4).role, view(&h, 4).partner),
        (Some(Role::Partner), Some(seat(4)))
    );
    assert!(view(&h, 4).legal_actions.is_empty());
    // Before the auction is won nobody has a role.
    assert_eq!(view(&hand(bc(), 0, &DEAL_B), 1).role, None);
    // No field tells the defenders where 3d is: swapping it with seat 3's 6d changes nothing
    // in the views of seats 0, 1, 2 and the spectator.
    let mut other = Hand::new(bc(), seat(0), swapped(&DEAL_B, (4, "3d"), (3, "6d"))).unwrap();
    acts(&mut other, &AUCTION_B);
    act(&mut other, 2, "call 3d");
    tricks(&mut other, &TRICKS_B[..1]);
    act(&mut other, 2, "play Ac");
    assert_eq!(other.holder(), Some(seat(3)));
    for viewer in [0, 1, 2]
        .map(|s| Viewer::Seat(seat(s)))
        .into_iter()
        .chain([Viewer::Spectator])
    {
        assert_eq!(
            h.observation(viewer),
            other.observation(viewer),
            "{viewer:?}"
        );
        assert_eq!(
            GameHand::features(&h, viewer),
            GameHand::features(&other, viewer),
            "{viewer:?}"
        );
    }
}

#[test]
fn ch_d3_each_trick_is_credited_to_the_seat_that_won_it() {
    let mut h = hand(tc(), 0, &DEAL_T);
    acts(&mut h, &[(1, "bid chiamo"), (1, "call 3s")]);
    tricks(&mut h, &TRICKS_T[..3]);
    assert_eq!(h.seat_won(seat(1)), cards("3b Ab Kb 2b Cb"));
    assert_eq!(h.seat_won(seat(2)), cards("4b Fb 7b 6b 5b"));
    assert_eq!(h.seat_won(seat(3)), cards("Cc 3c Ac 2c Kc"));
    // Seat 3's trick is his, not merged into the caller's pile.
    assert_eq!(
        view(&h, 0).seat_points.first_n(5),
        &[0, 7, 1, 7, 0],
        "thirds per seat"
    );
    tricks(&mut h, &TRICKS_T[3..]);
    assert_eq!(h.seat_won(seat(1)), cards("3b Ab Kb 2b Cb 4d Fd 7d 6d 5d"));
    // Merged by side only at scoring: seats 1 + 3 = 8 + 14 = 22 thirds.
    assert_eq!(view(&h, 0).seat_points.first_n(5), &[7, 8, 2, 14, 1]);
    assert_eq!(outcome(&h).points, [7, 4]);
    // Briscola: seat 2 58, seat 4 3 (= 61), seat 0 59.
    let mut h = hand_b_called();
    tricks(&mut h, &TRICKS_B);
    assert_eq!(view(&h, 1).seat_points.first_n(5), &[59, 0, 58, 0, 3]);
    assert_eq!(outcome(&h).points, [61, 59]);
}

/// The play actions of `list`, in order.
fn plays(list: &[&str]) -> Vec<String> {
    list.iter()
        .flat_map(|t| t.split_once(':').unwrap().1.split_whitespace())
        .map(|c| format!("play {c}"))
        .collect()
}

fn record(game: &str, players: u8, options: Value, hands: Value) -> Result<Value, String> {
    let text = json!({
        "format": "calabresella-record/1",
        "game": game,
        "players": players,
        "options": options,
        "first_dealer": 0,
        "hands": hands,
    })
    .to_string();
    replay_json(&Record::parse(&text).map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

fn deal_json(hands: &[&str]) -> Value {
    Value::from(
        hands
            .iter()
            .map(|h| Value::from(h.split_whitespace().collect::<Vec<_>>()))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn ch_d4_names_actions_and_replay_output() {
    assert_eq!(Variant::Tressette.game(), "tressette-chiamata");
    assert_eq!(Variant::Briscola.game(), "briscola-chiamata");
    assert_eq!(
        Variant::from_game("briscola-chiamata"),
        Some(Variant::Briscola)
    );
    assert!(<Match as Game>::NAMES.contains(&"tressette-chiamata"));
    assert!(<Match as Game>::NAMES.contains(&"briscola-chiamata"));
    for s in [
        "pass",
        "bid chiamo",
        "bid solo",
        "bid A",
        "bid 3",
        "bid 2",
        "bid 2 62",
        "bid 2 120",
        "bid 61",
        "bid 120",
        "call 3s",
        "play Ad",
        "play 3b busso",
        "play 3b striscio",
        "play 3b volo",
    ] {
        let x = a(s);
        assert_eq!(x.to_string(), s, "canonical text");
        assert_eq!(
            Action::from_id(x.to_id(None).unwrap(), None).unwrap(),
            x,
            "{s}"
        );
    }
    assert_eq!(a("  BID  2   80 ").to_string(), "bid 2 80");
    assert_eq!(a("Call 3S").to_string(), "call 3s");

    // A void deal, then DEAL_T (dealer 0 again) played out.
    let mut actions = vec!["bid chiamo".to_owned(), "call 3s".to_owned()];
    actions.extend(plays(&TRICKS_T));
    let out = record(
        "tressette-chiamata",
        5,
        json!({"hands": 1}),
        json!([
            {"dealer": 0, "deal": {"hands": deal_json(&DEAL_T)},
             "actions": ["pass", "pass", "pass", "pass", "pass"]},
            {"dealer": 0, "deal": {"hands": deal_json(&DEAL_T)}, "actions": actions},
        ]),
    )
    .unwrap();
    assert_eq!(out["hands"][0]["void"], true);
    let h = &out["hands"][1];
    assert_eq!(h["caller"], 1);
    assert_eq!(h["partner"], 3);
    assert_eq!(h["alone"], false);
    assert_eq!(h["bid"], "chiamo");
    assert_eq!(h["called"], "3s");
    assert_eq!(h["trump"], Value::Null);
    assert_eq!(h["target"], 6);
    assert_eq!(h["points"], json!({"caller_side": 7, "defenders": 4}));
    assert_eq!(h["tricks"], json!({"caller_side": 4, "defenders": 4}));
    assert_eq!(h["last_trick"], "defenders");
    assert_eq!(h["made"], true);
    assert_eq!(h["multiplier"], 1);
    assert_eq!(h["award"], json!([-1, 2, -1, 1, -1]));
    assert_eq!(h["totals"], json!([-1, 2, -1, 1, -1]));
    assert_eq!(
        out["match"],
        json!({"over": true, "winners": [1], "winning_seats": [1], "draw": false, "totals": [-1, 2, -1, 1, -1]})
    );

    // Briscola: DEAL_B.
    let mut actions: Vec<String> = AUCTION_B.iter().map(|(_, x)| (*x).to_owned()).collect();
    actions.push("call 3d".into());
    actions.extend(plays(&TRICKS_B));
    let out = record(
        "briscola-chiamata",
        5,
        json!({}),
        json!([{"dealer": 0, "deal": {"hands": deal_json(&DEAL_B)}, "actions": actions}]),
    )
    .unwrap();
    let h = &out["hands"][0];
    assert_eq!(
        (h["caller"].clone(), h["partner"].clone(), h["bid"].clone()),
        (json!(2), json!(4), json!("3"))
    );
    assert_eq!(
        (h["trump"].clone(), h["target"].clone()),
        (json!("d"), json!(61))
    );
    assert_eq!(h["points"], json!({"caller_side": 61, "defenders": 59}));
    assert_eq!(h["award"], json!([-1, -1, 2, -1, 1]));
    assert_eq!(out["match"]["over"], false);

    // Four players only in Tressette con la Chiamata.
    let four = record(
        "tressette-chiamata",
        4,
        json!({}),
        json!([{"dealer": 0, "deal": {"hands": deal_json(&DEAL_Q)},
                "actions": ["call 3d"]}]),
    )
    .unwrap();
    assert_eq!(four["hands"][0]["complete"], false);
    assert_eq!(four["hands"][0]["caller"], 1);
    assert!(record("briscola-chiamata", 4, json!({}), json!([])).is_err());
}

#[test]
fn ch_d5_the_deal_passes_on_after_a_scored_hand_only() {
    let mut m = Match::new(with(tc(), &[("hands", "3")]), seat(3)).unwrap();
    assert_eq!(m.next_dealer(), Some(seat(3)));
    m.start_hand(seat(3), deal(&DEAL_T)).unwrap();
    while m.current().is_some() {
        bid_high_then_first(&mut m);
    }
    assert_eq!(m.next_dealer(), Some(seat(4)));
    m.start_hand(seat(4), deal(&DEAL_T)).unwrap();
    acts(
        &mut m,
        &[
            (0, "pass"),
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (4, "pass"),
        ],
    );
    assert_eq!(m.next_dealer(), Some(seat(4)), "void: the same dealer");
    assert_eq!(
        m.start_hand(seat(0), deal(&DEAL_T)),
        Err(DealRefused::WrongDealer {
            expected: seat(4),
            got: seat(0)
        })
    );
    m.start_hand(seat(4), deal(&DEAL_T)).unwrap();
    let v = m.observation(Viewer::Seat(seat(0))).unwrap();
    assert_eq!((v.dealer, v.hand_number), (seat(4), 2));
    // The totals and the earlier results are public (CH-D1).
    assert_eq!(v.totals, m.tally().totals);
    assert_eq!(v.previous, [*m.hands()[0].outcome().unwrap()]);
    assert_ne!(m.tally().totals, PerSeat::splat(0));
    while m.current().is_some() {
        bid_high_then_first(&mut m);
    }
    assert_eq!(m.next_dealer(), Some(seat(0)), "round the table");
    m.start_hand(seat(0), deal(&DEAL_T)).unwrap();
    while m.current().is_some() {
        bid_high_then_first(&mut m);
    }
    assert!(m.is_over());
    assert_eq!(m.hands_scored(), 3);
    let dealers: Vec<Seat> = m.hands().iter().map(|h| h.dealer()).collect();
    assert_eq!(dealers, [seat(3), seat(4), seat(4), seat(0)]);
}

#[test]
fn ch_d6_details() {
    // Option values.
    let mut o = bc();
    o.set("auction", "points").unwrap();
    assert_eq!(o.auction, calabresella_engine::chiamata::Auction::Points);
    assert!(matches!(
        o.set("auction", "bids"),
        Err(OptionError::BadValue { .. })
    ));
    o.set("first_lead", "caller").unwrap();
    assert_eq!(
        o.first_lead,
        calabresella_engine::chiamata::FirstLead::Caller
    );
    assert!(o.set("first_lead", "dealer").is_err());
    assert!(o.set("hands", "0").is_err());
    assert!(o.set("hands", "-2").is_err());
    o.set("hands", "7").unwrap();
    assert_eq!(o.match_hands(), 7);

    // bid 2 61 is never a bid: not as text, nor as a value after a plain 2.
    assert!("bid 2 61".parse::<Action>().is_err());
    let mut h = hand(bc(), 0, &DEAL_B);
    act(&mut h, 1, "bid 2");
    let before = h.clone();
    assert!(matches!(
        h.try_apply_as(seat(2), Action::Promise(Promise::TwoFor(61))),
        Err(IllegalAction::BidNotTaken { .. })
    ));
    assert_eq!(h, before);
    // bid 120 closes the points auction at once.
    let pts = with(bc(), &[("auction", "points")]);
    let mut h = hand(pts, 0, &DEAL_B);
    act(&mut h, 1, "bid 120");
    assert_eq!(
        (h.phase(), h.caller(), h.target()),
        (Phase::Call, Some(seat(1)), Some(120))
    );
    // two_closes has no effect with auction = points.
    let both = with(bc(), &[("auction", "points"), ("two_closes", "true")]);
    let mut h = hand(both, 0, &DEAL_B);
    assert_eq!(h.legal_actions().len(), 61);
    act(&mut h, 1, "bid 61");
    assert_eq!(h.phase(), Phase::Auction);
    assert!(matches!(
        refuse(&mut h, 2, "bid 2"),
        IllegalAction::BidNotTaken { .. }
    ));

    // call_threes_only with call_own_card: the rank is still forced, an own 3 may be called.
    let o = with(
        tc(),
        &[("call_threes_only", "true"), ("call_own_card", "true")],
    );
    let mut h = hand(o, 0, &DEAL_T);
    act(&mut h, 1, "bid chiamo");
    assert_eq!(calls(&h), cards("3b 3c 3d 3s"));
    assert!(matches!(
        refuse(&mut h, 1, "call Ad"),
        IllegalAction::CallMustBe {
            rank: Rank::Three,
            ..
        }
    ));
    act(&mut h, 1, "call 3b");
    assert!(h.is_alone());

    // Four players: call_threes_only applies, solo_bid does nothing.
    let o = with(
        tc(),
        &[
            ("players", "4"),
            ("call_threes_only", "true"),
            ("solo_bid", "true"),
        ],
    );
    let mut h = hand(o, 0, &DEAL_Q);
    assert_eq!(h.phase(), Phase::Call);
    assert_eq!(calls(&h), cards("3c 3d 3s"));
    assert_eq!(
        refuse(&mut h, 1, "bid solo"),
        IllegalAction::WrongPhase { phase: Phase::Call }
    );

    // A soloist is public from the start; a lone caller by his own call is not.
    let mut solo = hand(with(tc(), &[("solo_bid", "true")]), 0, &DEAL_T);
    act(&mut solo, 1, "bid solo");
    assert!(view(&solo, 2).alone);
    assert!(solo.observation(Viewer::Spectator).alone);
    let mut own = hand(with(tc(), &[("call_own_card", "true")]), 0, &DEAL_T);
    acts(&mut own, &[(1, "bid chiamo"), (1, "call Ad")]);
    assert!(view(&own, 1).alone);
    assert!(!view(&own, 2).alone);
    assert_eq!(view(&own, 1).role, Some(Role::CallerAlone));

    // bid_multiplier applies made or failed: bc_d12.

    // Actions after the match has ended are refused.
    let mut m = Match::new(with(tc(), &[("hands", "1")]), seat(0)).unwrap();
    m.start_hand(seat(0), deal(&DEAL_T)).unwrap();
    acts(&mut m, &[(1, "bid chiamo"), (1, "call 3s")]);
    tricks(&mut m, &TRICKS_T);
    assert!(m.is_over());
    assert_eq!(m.actor(), None);
    assert!(m.legal_actions().is_empty());
    for s in 0..5 {
        assert_eq!(
            m.try_apply_as(seat(s), Action::Pass),
            Err(IllegalAction::HandOver)
        );
        assert_eq!(
            m.try_apply_as(seat(s), a("play 3b")),
            Err(IllegalAction::HandOver)
        );
    }
    assert_eq!(m.next_dealer(), None);
    assert_eq!(
        m.start_hand(seat(1), deal(&DEAL_T)),
        Err(DealRefused::MatchOver)
    );
    assert_eq!(totals(&m), [-1, 2, -1, 1, -1]);
}

#[test]
fn ch_d6_hands_takes_any_positive_integer() {
    // CH-D6: `hands` is a positive integer (up to 100,000: every hand is kept in the match).
    let mut o = tc();
    o.set("hands", "100000").unwrap();
    assert_eq!(o.match_hands(), 100_000);
    assert!(o.set("hands", "0").is_err());
    assert!(o.set("hands", "-3").is_err());
    assert!(o.set("hands", "100001").is_err());
    // The number given is kept whatever `players` is set to afterwards.
    o.set("hands", "10").unwrap();
    o.set("players", "4").unwrap();
    assert_eq!(o.match_hands(), 10);
    // A struct built by hand is checked too.
    assert!(
        Options {
            hands: Some(0),
            ..tc()
        }
        .validate()
        .is_err()
    );
    assert!(
        Options {
            max_deals: 0,
            ..tc()
        }
        .validate()
        .is_err()
    );
}

#[test]
fn tc_d14_a_long_match_plays_all_its_hands() {
    // TC-D14: a match is a fixed number of scored hands: with hands = 1001 the match ends after
    // the 1001st scored hand, with winners, not earlier as a draw (the `max_deals` safety cap
    // counts void deals only).
    let opts = Options {
        hands: Some(1001),
        ..tc()
    };
    opts.validate().unwrap();
    let mut m = Match::seeded(opts, 1, Some(seat(0))).unwrap();
    while !m.is_over() {
        bid_high_then_first(&mut m);
    }
    assert_eq!(m.hands_scored(), 1001);
    let r = m.result().unwrap();
    assert!(!r.draw);
    assert!(!r.winners.is_empty());
}

#[test]
fn max_deals_ends_a_match_of_void_deals_as_a_draw() {
    // The safety cap (an engine convention): players who always pass cannot loop forever;
    // after `max_deals` void deals the match is a draw, and the same dealer dealt every one.
    for mut o in [tc(), bc()] {
        o.set("max_deals", "3").unwrap();
        let mut m = Match::seeded(o, 9, Some(seat(2))).unwrap();
        while let Some(s) = m.actor() {
            m.try_apply_as(s, Action::Pass).unwrap();
        }
        assert_eq!(m.hands().len(), 3);
        assert!(
            m.hands()
                .iter()
                .all(|h| h.is_void() && h.dealer() == seat(2))
        );
        assert_eq!(
            m.result().unwrap(),
            &calabresella_engine::game::MatchResult::draw()
        );
        assert_eq!(m.hands_scored(), 0);
    }
}

#[test]
fn the_rollout_takes_the_actions_of_the_per_action_loop() {
    // The rollout's fast paths (auction and tricks) against `legal_action` + `apply_unchecked`
    // with the same generator: the same actions, the same final hand.
    for o in [
        tc(),
        bc(),
        Options {
            players: 4,
            call_threes_only: true,
            ..tc()
        },
    ] {
        for seed in 0..300u64 {
            let dealer = seat((seed % u64::from(o.players)) as u8);
            let d = Deal::shuffled(&mut GameRng::from_seed(seed), o.players, dealer);
            let mut a = Hand::new(o, dealer, d).unwrap();
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
            assert_eq!((&a, taken), (&b, steps), "{o}, seed {seed}");
        }
    }
}
