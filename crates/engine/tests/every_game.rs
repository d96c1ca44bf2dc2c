//! The generic game tests, run for every registered game and every option set the game lists
//! (`Game::option_sets`), the way OpenSpiel's basic tests run for every game: a seeded
//! random-play sweep that checks the interface's invariants at every step, refused actions
//! that change nothing, record round trips, replay determinism, and logged events equal to the
//! replayed ones. A new game gets all of them by registering.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

use calabresella_engine::game::{
    AnyMatch, OptionKind, Rules, RulesError, Viewer, every_option_set, game_names,
};
use calabresella_engine::record::{Record, replay};
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, CardSet, NUM_ACTION_IDS, Seat};

/// Hands to play in the sweep, at least, in every game.
const HANDS_PER_GAME: usize = 12_000;

/// The option sets of every registered game, grouped by game.
fn sets_by_game() -> Vec<(&'static str, Vec<Rules>)> {
    let all = every_option_set();
    game_names()
        .into_iter()
        .map(|g| {
            (
                g,
                all.iter().copied().filter(|r| r.game_name() == g).collect(),
            )
        })
        .collect()
}

/// The interface's invariants in one state of hand `i`.
fn check_step(m: &AnyMatch, i: usize, rng: &mut GameRng, label: &str) {
    // Cards are conserved: every card is in exactly one place.
    let p = m.card_places(i).unwrap();
    let mut places = vec![p.trick, p.won[0], p.won[1], p.aside];
    places.extend(Seat::ALL.iter().map(|&s| p.hands[s]));
    let union = places.iter().fold(CardSet::EMPTY, |a, &b| a | b);
    let total: usize = places.iter().map(|s| s.len()).sum();
    assert_eq!(
        (union, total),
        (CardSet::ALL, 40),
        "{label}: cards not conserved"
    );

    let in_play = i + 1 == m.hands_dealt() && !m.hand_over(i);
    let legal = m.legal_actions();
    assert_eq!(
        legal.is_empty(),
        m.decider().is_none(),
        "{label}: legal set empty exactly between decisions"
    );
    assert!(
        !in_play || m.decider().is_some(),
        "{label}: someone decides in play"
    );
    assert_eq!(
        m.is_over(),
        m.decider().is_none(),
        "{label}: decisions until the match ends"
    );
    assert_eq!(m.decider().is_some(), m.actor().is_some());
    assert_eq!(
        m.num_legal_actions(),
        legal.len(),
        "{label}: the fast count"
    );
    let monte = m.id_monte();
    for (k, a) in legal.iter().enumerate() {
        assert_eq!(m.legal_action(k), Some(*a), "{label}: legal_action({k})");
        assert_eq!(
            a.to_string().parse::<Action>().as_ref(),
            Ok(a),
            "{label}: notation of {a}"
        );
        let id = a.to_id(monte.as_ref()).expect("legal actions have ids");
        assert_eq!(
            Action::from_id(id, monte.as_ref()),
            Ok(*a),
            "{label}: id of {a}"
        );
    }
    // The listed ids (card plays from the playable set) are the legal actions' ids, in order.
    let mut ids = [0u16; calabresella_engine::game::MAX_LEGAL];
    let n = m.legal_ids(&mut ids);
    let expected: Vec<u16> = legal
        .iter()
        .map(|a| a.to_id(monte.as_ref()).unwrap())
        .collect();
    assert_eq!(ids[..n], expected[..], "{label}: legal_ids");
    let all_plays = !legal.is_empty() && legal.iter().all(|a| matches!(a, Action::Play(..)));
    assert_eq!(
        m.legal_plays().is_some(),
        all_plays,
        "{label}: legal_plays exactly when every legal action is a card play"
    );
    if let Some((cards, signals)) = m.legal_plays() {
        assert_eq!(
            legal.len(),
            cards.len() * if signals { 4 } else { 1 },
            "{label}: legal_plays counts every legal action"
        );
        assert!(
            legal
                .iter()
                .all(|a| matches!(a, Action::Play(c, _) if cards.contains(*c))),
            "{label}: legal_plays lists only card plays"
        );
    }
    assert_eq!(m.legal_action(legal.len()), None);

    // is_legal agrees with the list for every action id, and a refused action (as the decider,
    // and as another seat) leaves the match untouched.
    for id in 0..NUM_ACTION_IDS {
        let Ok(a) = Action::from_id(id, monte.as_ref()) else {
            continue;
        };
        let listed = legal.contains(&a);
        assert_eq!(m.is_legal(&a), listed, "{label}: is_legal({a})");
        if let Some(decider) = m.decider() {
            assert_eq!(
                m.check_as(decider, &a).is_ok(),
                listed,
                "{label}: check_as({a})"
            );
        }
        if rng.below(25) == 0 {
            for seat in Seat::first_n(m.seats()) {
                if listed && Some(seat) == m.decider() {
                    continue;
                }
                let mut copy = m.clone();
                let refused = copy.try_apply_as(seat, a);
                assert!(refused.is_err(), "{label}: {a} by {seat} accepted");
                assert_eq!(
                    m.check_as(seat, &a),
                    refused,
                    "{label}: check_as words it alike"
                );
                assert_eq!(&copy, m, "{label}: a refused {a} changed the match");
            }
        }
    }

    // Every viewer has a view; only the decider is offered actions, and exactly the legal ones.
    let viewers = Seat::first_n(m.seats())
        .map(Viewer::Seat)
        .chain([Viewer::Spectator]);
    for v in viewers {
        let obs = m.observation(v).unwrap();
        if v.seat().is_some() && v.seat() == m.decider() {
            assert_eq!(
                obs.legal_actions(),
                &legal[..],
                "{label}: the decider's actions"
            );
        } else {
            assert!(
                obs.legal_actions().is_empty(),
                "{label}: {v:?} offered actions"
            );
        }
    }
}

/// At the end of a hand every card was won (or, in a void deal, none was played).
fn check_finished(m: &AnyMatch, i: usize, label: &str) {
    let p = m.card_places(i).unwrap();
    let won = p.won[0] | p.won[1];
    assert!(
        won == CardSet::ALL || (won.is_empty() && p.trick.is_empty()),
        "{label}: every card won at the end, or none played"
    );
    assert!(
        m.hand_summary(i).is_some(),
        "{label}: a finished hand has a summary"
    );
    // What the game declares of itself holds: every seat's award within the bounds, and the
    // awards summing to zero where the game says so.
    let facts = m.rules().facts();
    let points = m.seat_points(Some(i));
    let seats: Vec<Seat> = Seat::first_n(m.rules().seats()).collect();
    for &s in &seats {
        assert!(
            (facts.min_hand_award..=facts.max_hand_award).contains(&points[s]),
            "{label}: seat {s} awarded {} outside the declared {}..={}",
            points[s],
            facts.min_hand_award,
            facts.max_hand_award
        );
    }
    if facts.zero_sum {
        assert_eq!(
            seats.iter().map(|&s| points[s]).sum::<i32>(),
            0,
            "{label}: a zero-sum game's awards sum to zero"
        );
    }
    assert_eq!(facts.distinct_actions, u32::from(NUM_ACTION_IDS));
}

#[test]
fn random_play_sweep_over_every_game_and_option_set() {
    for (game, sets) in sets_by_game() {
        assert!(!sets.is_empty(), "{game} lists no option set");
        let per_set = HANDS_PER_GAME.div_ceil(sets.len());
        let mut hands = 0;
        for (si, rules) in sets.iter().enumerate() {
            let mut rng = GameRng::from_seed(1000 + si as u64);
            let mut played = 0;
            let mut seed = si as u64 * 7919;
            while played < per_set {
                seed += 1;
                let mut m = AnyMatch::seeded(*rules, seed, None).expect("valid options");
                while let Some(seat) = m.decider() {
                    let i = m.hands_dealt() - 1;
                    let label = format!("{rules}, seed {seed}, hand {i}");
                    check_step(&m, i, &mut rng, &label);
                    let legal = m.legal_actions();
                    let a = legal[rng.below(legal.len() as u32) as usize];
                    m.try_apply_as(seat, a).expect("a listed action is legal");
                    if m.hand_over(i) {
                        check_step(&m, i, &mut rng, &label);
                        check_finished(&m, i, &label);
                        played += 1;
                    }
                }
                assert!(m.is_over(), "{rules}: the match ended");
                let result = m.result().unwrap();
                assert_eq!(
                    result.draw,
                    result.winners.is_empty(),
                    "{rules}: a draw has no winner"
                );

                // The record replays to the same match, and writing it again gives the same
                // record.
                let text = m.record(Some(serde_json::json!({"seed": seed}))).to_json();
                let (again, report) = replay(&Record::parse(&text).unwrap()).unwrap();
                assert_eq!(
                    again
                        .record(Some(serde_json::json!({"seed": seed})))
                        .to_json(),
                    text
                );
                assert_eq!((again.totals(), again.result()), (m.totals(), m.result()));
                assert_eq!(report.to_json()["match"]["over"], true);
            }
            hands += played;
        }
        assert!(hands >= HANDS_PER_GAME, "{game}: only {hands} hands");
    }
}

#[test]
fn seeded_matches_are_deterministic_and_records_replay_mid_hand() {
    for rules in every_option_set() {
        for seed in [1u64, 99] {
            let mut a = AnyMatch::seeded(rules, seed, None).unwrap();
            let mut b = AnyMatch::seeded(rules, seed, None).unwrap();
            assert_eq!(a, b, "{rules}: the same seed, the same match");
            let mut rng = GameRng::from_seed(seed);
            for step in 0..60 {
                let Some(seat) = a.decider() else { break };
                let legal = a.legal_actions();
                let act = legal[rng.below(legal.len() as u32) as usize];
                a.try_apply_as(seat, act).unwrap();
                b.try_apply_as(seat, act).unwrap();
                assert_eq!(a, b);
                if step % 17 == 0 {
                    let rec = a.record(None);
                    let (again, _) = replay(&Record::parse(&rec.to_json()).unwrap()).unwrap();
                    assert_eq!(
                        again.record(None),
                        rec,
                        "{rules}: mid-hand record round trip"
                    );
                    for v in Seat::first_n(a.seats())
                        .map(Viewer::Seat)
                        .chain([Viewer::Spectator])
                    {
                        assert_eq!(
                            again.observation(v),
                            a.observation(v),
                            "{rules}: {v:?} after replay"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn logged_events_equal_the_replayed_events_in_every_game() {
    for (si, rules) in every_option_set().into_iter().enumerate() {
        let seed = si as u64;
        let mut rng = GameRng::from_seed(seed ^ 0xabcd);
        let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
        let mut log = m.events(0);
        let mut hand = 0;
        while let Some(seat) = m.decider() {
            let legal = m.legal_actions();
            let action = legal[rng.below(legal.len() as u32) as usize];
            // A wrong seat is refused with nothing logged.
            let other = seat.next(m.seats());
            let before = log.len();
            if other != seat {
                assert!(m.clone().apply_logged(other, action).is_err());
            }
            assert_eq!(log.len(), before);
            log.extend(m.apply_logged(seat, action).unwrap());
            if m.hand_over(hand) {
                assert_eq!(log, m.events(hand), "{rules}: hand {hand}");
                hand = m.hands_dealt() - 1;
                log = m.events(hand);
            }
            if hand > 3 {
                break;
            }
        }
    }
}

#[test]
fn every_viewer_sees_its_events_through_the_one_filter() {
    for rules in every_option_set() {
        let mut m = AnyMatch::seeded(rules, 5, None).unwrap();
        let mut rng = GameRng::from_seed(5);
        for _ in 0..30 {
            let Some(seat) = m.decider() else { break };
            let legal = m.legal_actions();
            m.try_apply_as(seat, legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        let i = m.hands_dealt() - 1;
        for v in Seat::first_n(m.seats())
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
        {
            let filtered: Vec<String> = m
                .events(i)
                .iter()
                .filter_map(|e| m.visible(i, e, v))
                .map(|e| e.to_string())
                .collect();
            assert!(
                filtered.len() <= m.events(i).len(),
                "{rules}: the filter only removes or blanks"
            );
            // The spectator sees no hand as dealt.
            if v == Viewer::Spectator {
                let obs = m.hand_observation(i, v).unwrap();
                let f = m.features(v);
                assert_eq!(f.own, CardSet::EMPTY, "{rules}: a spectator holds no cards");
                assert!(obs.legal_actions().is_empty());
            }
        }
    }
}

#[test]
fn every_registered_name_parses_with_its_defaults_and_unknown_names_are_refused() {
    for name in game_names() {
        let rules = Rules::parse(name, []).unwrap();
        assert_eq!(rules.game_name(), name);
        assert_eq!(Rules::defaults(name), Some(rules));
        assert!(rules.seats() >= 2);
        let teams = rules.teams();
        assert!(teams.len() >= 2, "{name}: at least two sides");
        for s in Seat::first_n(rules.seats()) {
            let in_teams = teams.iter().filter(|t| t.contains(&s)).count();
            let dummy = rules.dummy_seats().contains(&s);
            assert_eq!(
                in_teams,
                usize::from(!dummy),
                "{name}: seat {s} in one side unless a dummy"
            );
        }
    }
    let e = Rules::parse("skat", []).unwrap_err().to_string();
    assert!(
        e.contains("unknown game \"skat\"") && e.contains(game_names()[0]),
        "{e}"
    );
}

#[test]
fn the_rollout_plays_the_same_hands_as_the_per_action_loop_in_every_game() {
    // Each game's `playout_random` may take shortcuts; it must pick what the per-action loop
    // (`legal_action(rng.below(num_legal_actions()))`) picks, action for action.
    use calabresella_engine::bots::{Driver, random_hands};
    for rules in every_option_set() {
        let fast = random_hands(rules, 5, 400, Driver::Playout);
        let slow = random_hands(rules, 5, 400, Driver::Api);
        assert_eq!(fast, slow, "{rules}");
        assert!(
            fast.actions > 400 && fast.award_sum > 0,
            "{rules}: {fast:?}"
        );
    }
}

#[test]
fn no_match_takes_more_actions_than_its_rules_bound_and_fitting_lowers_only_the_deal_cap() {
    for rules in every_option_set() {
        let full = rules.max_actions();
        assert!(full > 0, "{rules}");
        // A limit that fits the rules changes nothing.
        assert_eq!(rules.fit_actions(full), Some(rules), "{rules}");
        assert_eq!(rules.fit_actions(u64::MAX), Some(rules), "{rules}");
        assert_eq!(rules.fit_actions(0), None, "{rules}");
        // Tight limits: the fitted rules stay within them, and differ at most in max_deals.
        for limit in [1, 2, 50, 130, 400, 1_000] {
            let Some(fitted) = rules.fit_actions(limit) else {
                continue;
            };
            assert!(fitted.max_actions() <= limit, "{rules} within {limit}");
            let (mut a, mut b) = (rules.non_default(), fitted.non_default());
            a.remove("max_deals");
            b.remove("max_deals");
            assert_eq!(a, b, "{rules} within {limit}: only max_deals changes");
            // Random matches under the fitted rules, many cut short by the deal cap: every
            // one stays within the bound.
            for seed in 0..6 {
                let mut m = AnyMatch::seeded(fitted, seed, None).unwrap();
                let mut rng = GameRng::from_seed(seed);
                while m.decider().is_some() {
                    let legal = m.legal_actions();
                    m.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
                }
                let taken: u64 = (0..m.hands_dealt())
                    .map(|i| m.hand_actions(i).len() as u64)
                    .sum();
                assert!(
                    taken <= fitted.max_actions(),
                    "{fitted}, seed {seed}: {taken} actions over the bound {}",
                    fitted.max_actions()
                );
            }
        }
    }
}

#[test]
fn play_out_takes_the_actions_the_per_action_loop_takes_in_every_game() {
    // `AnyMatch::play_out` lists card plays from the playable set; with the same choices it
    // must play what `legal_action(choose(decider, num_legal_actions()))` plays, whole matches
    // and single hands alike.
    for rules in every_option_set() {
        for seed in 0..20u64 {
            for one_hand in [false, true] {
                let mut fast = AnyMatch::seeded(rules, seed, None).unwrap();
                let mut slow = fast.clone();
                let mut rng = GameRng::from_seed(seed);
                let mut seen = Vec::new();
                let played = fast.play_out(one_hand, |seat, n| {
                    seen.push((seat, n));
                    rng.below(n as u32) as usize
                });
                let mut rng = GameRng::from_seed(seed);
                let mut steps = Vec::new();
                while let Some(seat) = slow.decider() {
                    if one_hand && slow.hands_dealt() > 1 {
                        break;
                    }
                    let n = slow.num_legal_actions();
                    steps.push((seat, n));
                    let a = slow.legal_action(rng.below(n as u32) as usize).unwrap();
                    slow.apply_unchecked(a);
                }
                assert_eq!(seen, steps, "{rules} seed {seed}: the choices offered");
                assert_eq!(played, steps.len() as u64, "{rules} seed {seed}");
                assert_eq!(fast, slow, "{rules} seed {seed}: the same match");
                assert!(one_hand || fast.is_over(), "{rules}: played to the end");
            }
        }
        // An index out of range stops the loop at once, with nothing played.
        let mut m = AnyMatch::seeded(rules, 1, None).unwrap();
        let before = m.clone();
        assert_eq!(m.play_out(false, |_, n| n), 0, "{rules}");
        assert_eq!(m, before, "{rules}: nothing changed");
    }
}

/// What a game says of its options (what the server sends clients and forms) is what its parser
/// takes: every described key and value is accepted, each number's bounds are its parser's,
/// each value stated is the one in force, and the parser knows no key the description omits.
#[test]
fn every_game_describes_the_options_its_parser_takes() {
    for name in game_names() {
        let defaults = Rules::defaults(name).unwrap();
        let described = defaults.describe_options();
        assert!(!described.is_empty(), "{name} describes no option");
        for d in &described {
            let ok = |v: &str| Rules::parse(name, [(d.key, v)]);
            let label = format!("{name} {}", d.key);
            if let Some(value) = &d.value {
                assert_eq!(
                    ok(value).unwrap().describe_options(),
                    described,
                    "{label}: its stated value is the one in force"
                );
            }
            match d.kind {
                OptionKind::Flag => {
                    for v in ["true", "false"] {
                        assert!(ok(v).is_ok(), "{label}={v}");
                    }
                    assert!(ok("maybe").is_err(), "{label}=maybe");
                }
                OptionKind::Number { min, max } => {
                    assert!(min <= max, "{label}");
                    for v in [min, max] {
                        assert!(ok(&v.to_string()).is_ok(), "{label}={v} (in range)");
                    }
                    assert!(
                        ok(&(u64::from(max) + 1).to_string()).is_err(),
                        "{label} above"
                    );
                    if min > 0 {
                        assert!(ok(&(min - 1).to_string()).is_err(), "{label} below");
                    }
                    assert!(ok("many").is_err(), "{label}=many");
                }
                OptionKind::Choice(choices) => {
                    for v in choices {
                        assert!(ok(v).is_ok(), "{label}={v}");
                    }
                    assert!(ok("no-such-choice").is_err(), "{label}");
                }
            }
        }
        // The parser's own list of keys: every described key is in it, and each of its keys is
        // described for this variant or, where the module plays several, for another one
        // (there it only takes its default: `validate` refuses the rest).
        let everywhere: Vec<&str> = game_names()
            .into_iter()
            .flat_map(|g| Rules::defaults(g).unwrap().describe_options())
            .map(|d| d.key)
            .collect();
        match Rules::parse(name, [("no_such_option", "1")]) {
            Err(RulesError::Option(e)) => {
                let text = e.to_string();
                let known = text.split("known: ").nth(1).unwrap();
                let parser: Vec<&str> = known.split(',').map(str::trim).collect();
                for d in &described {
                    assert!(
                        d.key == "players" || parser.contains(&d.key),
                        "{name}: {} is described but not parsed",
                        d.key
                    );
                }
                for k in parser {
                    assert!(
                        everywhere.contains(&k),
                        "{name}: {k} is parsed but not described"
                    );
                }
            }
            other => panic!("{name}: an unknown option is refused, not {other:?}"),
        }
    }
}

/// One grammar for every game: a record's `options` object is what the descriptions say
/// differs from the defaults, it reads back to the same rules, `players` belongs at the
/// record's top level, and a number out of range is refused with its range.
#[test]
fn every_game_reads_and_writes_options_through_its_descriptions() {
    for rules in every_option_set() {
        let name = rules.game_name();
        let written = rules.non_default();
        let defaults = Rules::defaults(name).unwrap().describe_options();
        for d in rules.describe_options() {
            let default = defaults.iter().find(|e| e.key == d.key);
            let differs = d.key != "players"
                && d.value.is_some()
                && default.map(|e| &e.value) != Some(&d.value);
            assert_eq!(written.contains_key(d.key), differs, "{rules}: {}", d.key);
        }
        assert_eq!(
            Rules::from_record(name, rules.seats(), &written).unwrap(),
            rules,
            "{rules}: its record's options read back"
        );
        // A JSON object has no order and keys may come in any case: the same rules, and a key
        // given twice refused.
        let shouted: serde_json::Map<String, serde_json::Value> = written
            .iter()
            .map(|(k, v)| (k.to_ascii_uppercase(), v.clone()))
            .collect();
        assert_eq!(
            Rules::from_record(name, rules.seats(), &shouted).unwrap(),
            rules,
            "{rules}: keys in upper case"
        );
        if let Some((k, v)) = written.iter().next() {
            let mut twice = written.clone();
            twice.insert(k.to_ascii_uppercase(), v.clone());
            assert!(
                Rules::from_record(name, rules.seats(), &twice).is_err(),
                "{rules}: {k} given twice"
            );
        }
        let mut with_players = written.clone();
        with_players.insert("players".into(), rules.seats().into());
        assert!(
            Rules::from_record(name, rules.seats(), &with_players).is_err(),
            "{rules}: players inside options"
        );
        match Rules::parse(name, [("max_deals", "0")]) {
            Err(RulesError::Option(e)) => {
                assert!(e.to_string().contains("from 1 to"), "{name}: {e}")
            }
            other => panic!("{name}: max_deals=0 is refused, not {other:?}"),
        }
    }
}
