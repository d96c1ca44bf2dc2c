//! The committed deal scheme (`fair`): matches dealt from keys play to the end in every game,
//! their records verify, and every kind of tampering is named at its first mismatch.

use calabresella_engine::bots::{Bot, RandomBot};
use calabresella_engine::fair::{self, DealKeys, Dealing, VerifyError};
use calabresella_engine::game::{AnyMatch, Rules, Viewer, every_option_set};
use calabresella_engine::record::Record;
use calabresella_engine::{Seat, rng::GameRng};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Plays `m` to its end with random bots, dealing each hand from `keys` as a table does.
fn play_out(m: &mut AnyMatch, keys: &DealKeys, seed: u64) {
    let mut bot = RandomBot::new(seed);
    let mut guard = 0;
    while let Some(seat) = m.decider() {
        let obs = m.observation(Viewer::Seat(seat)).expect("view");
        let a = bot.act(&obs);
        m.try_apply_as(seat, a).expect("legal");
        keys.deal_due(m).expect("deals");
        guard += 1;
        assert!(guard < 100_000, "the match ends");
    }
}

/// Who contributes to a table's deals.
#[derive(Debug, Clone, Copy)]
enum Contributing {
    /// Every other seat (the even ones), 32 bytes each.
    Some,
    /// Nobody (an all-bot table, a duplicate seating).
    Nobody,
    /// Every seat, with lengths from 1 to 64 bytes.
    Everyone,
}

fn keys_with(rules: Rules, salt: u8, who: Contributing) -> DealKeys {
    let seats = usize::from(rules.seats());
    let contributions = (0..seats)
        .map(|s| match who {
            Contributing::Some if s % 2 == 0 => vec![salt ^ s as u8; 32],
            Contributing::Some | Contributing::Nobody => Vec::new(),
            Contributing::Everyone => vec![salt.wrapping_add(s as u8); [1, 64, 17, 32, 2][s % 5]],
        })
        .collect();
    DealKeys::new([salt; 32], format!("t-{salt}"), contributions).expect("keys")
}

fn keys_for(rules: Rules, salt: u8) -> DealKeys {
    keys_with(rules, salt, Contributing::Some)
}

fn record_of(m: &AnyMatch, keys: &DealKeys, given: bool) -> Record {
    m.record(Some(json!({ "deals": keys.reveal(given) })))
}

#[test]
fn committed_matches_of_every_game_verify_hand_by_hand() {
    let every = [
        Contributing::Some,
        Contributing::Nobody,
        Contributing::Everyone,
    ];
    for (i, rules) in every_option_set().into_iter().enumerate() {
        let keys = keys_with(rules, i as u8, every[i % every.len()]);
        let mut m = keys.first_match(rules, None).expect("dealt");
        assert_eq!(m.first_dealer(), keys.drawn_dealer(rules.seats()));
        play_out(&mut m, &keys, i as u64);
        let record = record_of(&m, &keys, false);
        let v = fair::verify(&record).unwrap_or_else(|e| panic!("{rules}: {e}"));
        assert_eq!(v.hands, m.hands_dealt());
        assert!(v.summary().starts_with("deals verified"), "{}", v.summary());
        // Through JSON and back, as a file would be.
        let back = Record::parse(&record.to_json()).expect("parses");
        assert!(fair::verify(&back).is_ok());
    }
}

#[test]
fn a_named_first_dealer_keeps_the_draw_so_hand_zero_is_the_same_deal() {
    let rules = Rules::defaults("calabresella").expect("game");
    let keys = keys_for(rules, 3);
    let drawn = keys.drawn_dealer(3);
    let named = keys.first_match(rules, Some(drawn)).expect("dealt");
    let free = keys.first_match(rules, None).expect("dealt");
    assert_eq!(named.dealt(0), free.dealt(0));
    // Another dealer: verified as given, refused as drawn.
    let other = Seat::ALL[(drawn.index() + 1) % 3];
    let mut m = keys.first_match(rules, Some(other)).expect("dealt");
    play_out(&mut m, &keys, 1);
    assert!(fair::verify(&record_of(&m, &keys, true)).is_ok());
    assert_eq!(
        fair::verify(&record_of(&m, &keys, false)),
        Err(VerifyError::FirstDealer {
            recorded: other.index(),
            derived: drawn.index()
        })
    );
}

/// A finished committed Calabresella match as JSON.
fn finished_json(salt: u8) -> Value {
    let rules = Rules::parse("calabresella", [("target", "61")]).expect("game");
    let keys = keys_for(rules, salt);
    let mut m = keys.first_match(rules, None).expect("dealt");
    play_out(&mut m, &keys, u64::from(salt));
    assert!(m.hands_dealt() >= 2, "a match of several hands");
    serde_json::from_str(&record_of(&m, &keys, false).to_json()).expect("json")
}

fn verify_json(v: &Value) -> Result<fair::Verified, VerifyError> {
    fair::verify(&Record::parse(&v.to_string()).expect("parses"))
}

#[test]
fn tampering_is_named_at_its_first_mismatch() {
    let good = finished_json(9);
    assert!(verify_json(&good).is_ok());

    // Another secret: its hash is not the commitment.
    let mut r = good.clone();
    r["meta"]["deals"]["secret"] = json!("00".repeat(32));
    assert!(matches!(
        verify_json(&r),
        Err(VerifyError::Commitment { .. })
    ));

    // A consistent but different secret and commitment: hand 0 differs (or its drawn dealer).
    let mut r = good.clone();
    r["meta"]["deals"]["secret"] = json!("11".repeat(32));
    r["meta"]["deals"]["commitment"] = json!(fair::hex(&fair::commitment(&[0x11; 32])));
    assert!(matches!(
        verify_json(&r),
        Err(VerifyError::Deal { hand: 0, .. } | VerifyError::FirstDealer { .. })
    ));

    // A contribution changed after the fact: caught.
    let mut r = good.clone();
    r["meta"]["deals"]["contributions"][1] = json!("ff");
    r["meta"]["deals"]["first_dealer"] = json!("given");
    assert!(matches!(
        verify_json(&r),
        Err(VerifyError::Deal { hand: 0, .. })
    ));

    // Two cards swapped between seats in hand 1 only: the record still replays (if the play
    // allows) or is invalid, and is never verified.
    let mut r = good.clone();
    let a = r["hands"][1]["deal"]["hands"][0][0].clone();
    let b = r["hands"][1]["deal"]["hands"][1][0].clone();
    r["hands"][1]["deal"]["hands"][0][0] = b;
    r["hands"][1]["deal"]["hands"][1][0] = a;
    match verify_json(&r) {
        Err(VerifyError::Deal { hand, .. }) => assert_eq!(hand, 1),
        Err(VerifyError::Record(_)) => {}
        other => panic!("{other:?}"),
    }

    // Hands out of their order (hand 1 recorded as hand 0 and the reverse), or the first
    // hand dropped so every later one is numbered one less: hand 0 is not the one key 0
    // deals.
    let mut r = good.clone();
    let hands = r["hands"].as_array_mut().expect("hands");
    hands.swap(0, 1);
    r["first_dealer"] = r["hands"][0]["dealer"].clone();
    r["meta"]["deals"]["first_dealer"] = json!("given");
    match verify_json(&r) {
        Err(VerifyError::Deal { hand: 0, .. } | VerifyError::Record(_)) => {}
        other => panic!("{other:?}"),
    }
    let mut r = good.clone();
    r["hands"].as_array_mut().expect("hands").remove(0);
    r["first_dealer"] = r["hands"][0]["dealer"].clone();
    r["meta"]["deals"]["first_dealer"] = json!("given");
    match verify_json(&r) {
        Err(VerifyError::Deal { hand: 0, .. } | VerifyError::Record(_)) => {}
        other => panic!("{other:?}"),
    }

    // Another table id (the derivation's context): hand 0 differs, or its drawn dealer.
    let mut r = good.clone();
    r["meta"]["deals"]["context"] = json!("t-another");
    assert!(matches!(
        verify_json(&r),
        Err(VerifyError::Deal { hand: 0, .. } | VerifyError::FirstDealer { .. })
    ));

    // No scheme at all, a scheme this version does not know, a secret not yet revealed.
    let mut r = good.clone();
    r["meta"] = json!({});
    assert!(matches!(verify_json(&r), Err(VerifyError::Scheme(_))));
    let mut r = good.clone();
    r["meta"]["deals"]["scheme"] = json!("calabresella-deal/9");
    assert!(matches!(verify_json(&r), Err(VerifyError::Scheme(_))));
    let mut r = good;
    r["meta"]["deals"]["secret"] = Value::Null;
    let e = verify_json(&r).expect_err("a tampered record fails");
    assert!(e.to_string().contains("not revealed"), "{e}");
}

#[test]
fn seeded_records_verify_as_seeded_and_say_so() {
    for rules in every_option_set().into_iter().take(12) {
        let mut m = AnyMatch::seeded(rules, 77, None).expect("seeded");
        let mut bot = RandomBot::new(5);
        while let Some(seat) = m.decider() {
            let obs = m.observation(Viewer::Seat(seat)).expect("view");
            let a = bot.act(&obs);
            m.try_apply_as(seat, a).expect("legal");
        }
        let record = m.record(Some(json!({"deals": {"scheme": "seeded", "seed": "77"}})));
        let v = fair::verify(&record).expect("verifies");
        assert_eq!(v.dealing, Dealing::Seed(77));
        assert!(
            v.summary()
                .starts_with("seeded by the creator: reproducible, not committed")
        );
        // The wrong seed is caught at hand 0.
        let wrong = m.record(Some(json!({"seed": 78})));
        assert!(matches!(
            fair::verify(&wrong),
            Err(VerifyError::Deal { hand: 0, .. })
        ));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any keys deal a valid hand of every game, and the same keys deal the same hand.
    #[test]
    fn keys_deal_valid_reproducible_hands(
        secret in any::<[u8; 32]>(),
        context in "[a-z0-9-]{0,40}",
        hand in 0u64..1000,
        game in 0usize..5,
    ) {
        let rules = every_option_set()[game * 7 % every_option_set().len()];
        let seats = usize::from(rules.seats());
        let keys = DealKeys::new(secret, context, vec![b"x".to_vec(); seats]).expect("keys");
        let dealer = Seat::ALL[(hand as usize) % seats];
        let a = keys.deal(rules, hand, dealer).expect("a deal");
        prop_assert_eq!(&a, &keys.deal(rules, hand, dealer).expect("a deal"));
        let mut all = calabresella_engine::CardSet::EMPTY;
        for s in Seat::first_n(rules.seats()) {
            prop_assert!((all & a.hands[s]).is_empty());
            all |= a.hands[s];
        }
        prop_assert_eq!(all.len() + a.monte.len() + a.stock.len(), 40);
        // The keyed generator is a different stream from any seed's.
        prop_assert_ne!(keys.rng(hand), GameRng::from_seed(hand));
    }
}
