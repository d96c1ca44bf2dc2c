//! Every text the engine parses, fuzzed: rule options (as key/value pairs, for every game),
//! records of every game with any node of their JSON replaced (parsed, replayed and checked
//! against their deal scheme), bot names with parameters, and notation in any characters.
//! Whatever comes in, the answer is a value or a typed, one-line error, never a panic.
//!
//! Bounded by proptest's case count (`PROPTEST_CASES`, 256 by default); a long run:
//! `PROPTEST_CASES=100000 cargo test -p calabresella-engine --test parsers`. Every case that
//! ever failed is kept in `parsers.proptest-regressions` and runs first.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

use calabresella_engine::bots::{RandomBot, bot_from_spec};
use calabresella_engine::fair;
use calabresella_engine::game::{AnyMatch, Rules, Viewer, every_option_set, game_names};
use calabresella_engine::record::{Record, replay, replay_json};
use calabresella_engine::search::pimc::Budget;
use calabresella_engine::{Action, Card};
use proptest::prelude::*;
use serde_json::Value;

/// Keys every game knows, and some no game does.
fn option_keys() -> Vec<String> {
    let mut keys: Vec<String> = every_option_set()
        .iter()
        .flat_map(|r| r.non_default().keys().cloned().collect::<Vec<_>>())
        .collect();
    keys.extend(
        [
            "target", "hands", "players", "preset", "", " ", "TARGET", "a=b", "\u{0}",
        ]
        .map(str::to_owned),
    );
    keys.sort();
    keys.dedup();
    keys
}

/// Values that are often near a boundary, or no value at all.
fn option_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{0,25}",
        "(true|false|yes|no|on|off|TRUE|1|0)",
        ".{0,12}",
        Just("18446744073709551616".to_owned()),
        Just("4294967296".to_owned()),
        Just("-0".to_owned()),
    ]
}

/// A finished seeded match of any game, as JSON.
fn record_json(set: usize, seed: u64) -> Value {
    let sets = every_option_set();
    let rules = sets[set % sets.len()];
    let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
    let mut bot = RandomBot::new(seed);
    let mut n = 0;
    while let Some(seat) = m.decider() {
        let obs = m.observation(Viewer::Seat(seat)).unwrap();
        let a = calabresella_engine::bots::Bot::act(&mut bot, &obs);
        m.try_apply_as(seat, a).unwrap();
        n += 1;
        if n > 400 {
            break;
        }
    }
    let meta = serde_json::json!({"deals": {"scheme": "seeded", "seed": seed.to_string()}});
    serde_json::from_str(&m.record(Some(meta)).to_json()).unwrap()
}

/// Any JSON value, small.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,8}".prop_map(Value::String),
        "(play|bid|pass|call|take|discard|return) ?[0-9a-zA-Z]{0,3}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every node of `v`, by its JSON pointer.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                pointers(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

proptest! {
    #[test]
    fn options_of_every_game_parse_or_are_refused(
        game in 0usize..8,
        pairs in prop::collection::vec((0usize..200, option_value()), 0..5),
    ) {
        let keys = option_keys();
        let names = game_names();
        let name = names.get(game).copied().unwrap_or("no-such-game");
        let pairs: Vec<(String, String)> = pairs
            .into_iter()
            .map(|(k, v)| (keys[k % keys.len()].clone(), v))
            .collect();
        match Rules::parse(name, pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))) {
            Ok(rules) => {
                // Accepted options make a match that starts and shows its options back.
                let m = AnyMatch::seeded(rules, 1, None);
                prop_assert!(m.is_ok(), "{name} {pairs:?}: {:?}", m.err());
                let again = Rules::parse(
                    name,
                    rules
                        .non_default()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
                        .collect::<Vec<_>>()
                        .iter()
                        .map(|(k, v)| (k.as_str(), v.as_str())),
                );
                prop_assert_eq!(again.ok(), Some(rules));
            }
            Err(e) => prop_assert!(!e.to_string().is_empty() && !e.to_string().contains('\n')),
        }
    }

    #[test]
    fn records_of_every_game_with_any_node_replaced_never_panic(
        set in 0usize..1000,
        seed in any::<u64>(),
        at in any::<prop::sample::Index>(),
        with in json_value(),
    ) {
        let mut v = record_json(set, seed);
        let mut nodes = Vec::new();
        pointers(&v, String::new(), &mut nodes);
        let node = at.get(&nodes).clone();
        if node.is_empty() {
            v = with;
        } else if let Some(slot) = v.pointer_mut(&node) {
            *slot = with;
        }
        let text = v.to_string();
        match Record::parse(&text) {
            Ok(r) => {
                for e in [
                    replay(&r).err().map(|e| e.to_string()),
                    replay_json(&r).err().map(|e| e.to_string()),
                    fair::verify(&r).err().map(|e| e.to_string()),
                ]
                .into_iter()
                .flatten()
                {
                    prop_assert!(!e.contains('\n'), "{node}: {e}");
                }
            }
            Err(e) => prop_assert!(!e.to_string().contains('\n'), "{node}: {e}"),
        }
    }

    #[test]
    fn bot_names_and_budgets_parse_or_are_refused(
        name in "(random|heuristic|pimc|best|x)?(:[a-z]{0,7}(=[-0-9a-z.]{0,22})?){0,4}",
        junk in ".{0,20}",
    ) {
        for spec in [name.as_str(), junk.as_str()] {
            if let Err(e) = bot_from_spec(spec, 1) {
                prop_assert!(!e.to_string().contains('\n'), "{spec:?}: {e}");
            }
            if let Err(e) = Budget::parse(spec) {
                prop_assert!(!e.to_string().contains('\n'), "{spec:?}: {e}");
            }
        }
    }

    #[test]
    fn notation_in_any_characters_parses_or_is_refused(bytes in prop::collection::vec(any::<u8>(), 0..24)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(a) = text.parse::<Action>() {
            // What parses, prints as text that parses to the same action.
            prop_assert_eq!(a.to_string().parse::<Action>().ok(), Some(a));
        }
        if let Ok(c) = text.parse::<Card>() {
            prop_assert_eq!(c.to_string().parse::<Card>().ok(), Some(c));
        }
        let _ = fair::unhex(&text);
    }
}
