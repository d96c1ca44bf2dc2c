//! Search for every game: the world sampler, the exact solver and the PIMC bot.
//!
//! - Every world sampled from a seat's observation, at many points of random matches of every
//!   option set, looks to that seat exactly like the real hand, and the worlds vary.
//! - On small positions the sampler's distribution matches an exhaustive enumeration of the
//!   consistent worlds (chi-square), the enumeration made without the sampler: every placement
//!   of the unseen cards is dealt and replayed through the public match interface.
//! - The solver's value equals plain minimax on small endgames of every game.
//! - The PIMC bot is deterministic for a seed and a budget in worlds, and always legal.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

use calabresella_engine::game::Rollout;
use std::collections::HashMap;

use calabresella_engine::bots::{Bot, RandomBot, best_for, bot_from_spec};
use calabresella_engine::game::{AnyMatch, Rules, Viewer, every_option_set};
use calabresella_engine::search::{Searchable, Solver};
use calabresella_engine::{Action, Card, CardSet, Contract, PerSeat, Seat};

/// Plays `m` with random bots for `steps` decisions (or to the end of its current hand).
fn advance(m: &mut AnyMatch, steps: usize, rng_seed: u64) {
    let mut bot = RandomBot::new(rng_seed);
    let start = m.hands_dealt();
    for _ in 0..steps {
        let Some(d) = m.decider() else { break };
        let obs = m.observation(Viewer::Seat(d)).unwrap();
        m.try_apply_as(d, bot.act(&obs)).unwrap();
        if m.hands_dealt() != start {
            break;
        }
    }
}

/// The match seeded with `seed` after `actions` (a seeded match deals its first hand again as
/// it was, so a prefix of that hand's actions returns to any of its positions).
fn replayed(rules: Rules, seed: u64, actions: &[Action]) -> AnyMatch {
    let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
    for &a in actions {
        let d = m.decider().unwrap();
        m.try_apply_as(d, a).unwrap();
    }
    m
}

fn current(m: &AnyMatch) -> usize {
    m.hands_dealt() - 1
}

#[test]
fn sampled_worlds_look_like_the_real_hand_to_the_seat() {
    for (k, rules) in every_option_set().into_iter().enumerate() {
        let mut varied = 0usize;
        let mut checked = 0usize;
        for seed in 0..3u64 {
            let mut m = AnyMatch::seeded(rules, seed * 97 + k as u64, None).unwrap();
            let mut step = 0u64;
            while m.decider().is_some() && step < 60 {
                let i = current(&m);
                for s in Seat::first_n(rules.seats()) {
                    let v = Viewer::Seat(s);
                    let obs = m.hand_observation(i, v).unwrap();
                    let worlds = obs.sample_worlds(2, seed ^ step).unwrap_or_else(|e| {
                        panic!("{rules}: seed {seed} step {step} seat {s}: {e}")
                    });
                    for w in &worlds {
                        assert_eq!(
                            w.hand_observation(0, v),
                            Some(obs.clone()),
                            "{rules}: a world the seat can tell apart"
                        );
                        checked += 1;
                        if w.card_places(0) != m.card_places(i) {
                            varied += 1;
                        }
                    }
                }
                assert!(
                    m.hand_observation(i, Viewer::Spectator)
                        .unwrap()
                        .sample_worlds(1, 0)
                        .is_err(),
                    "a spectator has no worlds"
                );
                advance(&mut m, 7, step);
                step += 7;
            }
        }
        assert!(
            varied * 4 > checked,
            "{rules}: worlds hardly vary ({varied} of {checked})"
        );
    }
}

/// The consistent worlds of `obs` (seat `v`, hand `i` of `m`) by brute force: every placement
/// of the unseen cards into the other seats' hands (and, with `aside` cards face down, the
/// monte) is dealt and replayed with the real actions; those that replay and look the same to
/// the seat are kept. Keyed by each seat's cards now and the cards apart.
fn enumerate(m: &AnyMatch, i: usize, v: Seat) -> Vec<Vec<CardSet>> {
    let rules = m.rules();
    let real = m.card_places(i).unwrap();
    let n = rules.seats();
    let obs = m.hand_observation(i, Viewer::Seat(v)).unwrap();
    let played: PerSeat<CardSet> = played_by(m, i);
    let others: Vec<Seat> = Seat::first_n(n).filter(|&s| s != v).collect();
    let mut places: Vec<u8> = others.iter().map(|&s| real.hands[s].len() as u8).collect();
    places.push(real.aside.len() as u8);
    let unseen: Vec<Card> = others
        .iter()
        .fold(real.aside, |a, &s| a | real.hands[s])
        .iter()
        .collect();
    let dealer = m.dealer(i).unwrap();
    let actions = m.hand_actions(i);
    let mut out = Vec::new();
    let mut assign = vec![CardSet::EMPTY; places.len()];
    fn go(
        k: usize,
        unseen: &[Card],
        caps: &mut Vec<u8>,
        assign: &mut Vec<CardSet>,
        f: &mut dyn FnMut(&[CardSet]),
    ) {
        if k == unseen.len() {
            f(assign);
            return;
        }
        for p in 0..caps.len() {
            if caps[p] > 0 {
                caps[p] -= 1;
                assign[p].insert(unseen[k]);
                go(k + 1, unseen, caps, assign, f);
                assign[p].remove(unseen[k]);
                caps[p] += 1;
            }
        }
    }
    go(
        0,
        &unseen,
        &mut places,
        &mut assign,
        &mut |a: &[CardSet]| {
            let mut hands = PerSeat::splat(CardSet::EMPTY);
            for (j, &s) in others.iter().enumerate() {
                hands[s] = a[j] | played[s];
            }
            hands[v] = real.hands[v] | played[v];
            let rest: Vec<Card> = a[others.len()].iter().collect();
            let Ok(mut w) = AnyMatch::new(rules, dealer) else {
                return;
            };
            if w.start_hand_cards(dealer, hands, &rest).is_err() {
                return;
            }
            for &act in &actions {
                let Some(d) = w.decider() else { return };
                if w.try_apply_as(d, act).is_err() {
                    return;
                }
            }
            if w.hand_observation(0, Viewer::Seat(v)).as_ref() == Some(&obs) {
                out.push(a.to_vec());
            }
        },
    );
    out
}

/// The cards each seat has played in hand `i` (replayed from its deal).
fn played_by(m: &AnyMatch, i: usize) -> PerSeat<CardSet> {
    let rules = m.rules();
    let dealer = m.dealer(i).unwrap();
    let dealt = m.dealt(i).unwrap();
    let rest: Vec<Card> = dealt.monte.iter().chain(&dealt.stock).copied().collect();
    let mut w = AnyMatch::new(rules, dealer).unwrap();
    w.start_hand_cards(dealer, dealt.hands, &rest).unwrap();
    let mut played = PerSeat::splat(CardSet::EMPTY);
    for a in m.hand_actions(i) {
        let actor = w.actor().unwrap();
        if let Action::Play(c, _) = a {
            played[actor].insert(c);
        }
        w.try_apply_as(w.decider().unwrap(), a).unwrap();
    }
    played
}

/// Whether hand `i` is a Solissimo (its monte stays whole and face down).
fn solissimo(m: &AnyMatch, i: usize) -> bool {
    let acts = m.hand_actions(i);
    acts.contains(&Action::Bid(Contract::Solissimo))
        && !acts
            .iter()
            .any(|a| matches!(a, Action::Bid(Contract::Dividete | Contract::Scegliete)))
}

/// A sampled world's placement in the enumeration's terms.
fn placement(w: &AnyMatch, v: Seat, n: u8) -> Vec<CardSet> {
    let p = w.card_places(0).unwrap();
    let mut key: Vec<CardSet> = Seat::first_n(n)
        .filter(|&s| s != v)
        .map(|s| p.hands[s])
        .collect();
    key.push(p.aside);
    key
}

/// The number of placements of `unseen` cards into places of `sizes`.
fn multinomial(sizes: &[usize]) -> f64 {
    let fact = |n: usize| (1..=n).map(|k| k as f64).product::<f64>();
    fact(sizes.iter().sum()) / sizes.iter().map(|&k| fact(k)).product::<f64>()
}

#[test]
fn late_positions_sample_uniformly_among_the_consistent_worlds() {
    let games = [
        "tressette",
        "tressette-chiamata",
        "briscola-chiamata",
        "calabresella",
    ];
    for game in games {
        let rules = Rules::parse(game, []).unwrap();
        let mut done = false;
        'seeds: for seed in 0..200u64 {
            let mut full = AnyMatch::seeded(rules, seed, None).unwrap();
            advance(&mut full, 400, seed);
            let actions = full.hand_actions(0);
            if game == "calabresella" && !solissimo(&full, 0) {
                continue;
            }
            // Walk the first hand until a position small enough to enumerate.
            let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
            for &a in &actions {
                let d = m.decider().unwrap();
                m.try_apply_as(d, a).unwrap();
                if m.hands_dealt() > 1 {
                    continue 'seeds;
                }
                let Some(v) = m.decider() else {
                    continue 'seeds;
                };
                let real = m.card_places(0).unwrap();
                let mut sizes: Vec<usize> = Seat::first_n(rules.seats())
                    .filter(|&s| s != v)
                    .map(|s| real.hands[s].len())
                    .collect();
                sizes.push(real.aside.len());
                let size = multinomial(&sizes);
                if !(20.0..=3000.0).contains(&size) {
                    continue;
                }
                let all = enumerate(&m, 0, v);
                assert!(!all.is_empty());
                let mut key: Vec<CardSet> = Seat::first_n(rules.seats())
                    .filter(|&s| s != v)
                    .map(|s| real.hands[s])
                    .collect();
                key.push(real.aside);
                assert!(
                    all.contains(&key),
                    "{game}: the real world is not among the consistent ones"
                );
                if all.len() < 10 {
                    continue;
                }
                let obs = m.hand_observation(0, Viewer::Seat(v)).unwrap();
                let draws = 40 * all.len();
                let worlds = obs.sample_worlds(draws, seed).unwrap();
                let mut counts: HashMap<Vec<CardSet>, u32> = HashMap::new();
                for w in &worlds {
                    let key = placement(w, v, rules.seats());
                    assert!(
                        all.contains(&key),
                        "{game}: a world outside the enumeration"
                    );
                    *counts.entry(key).or_default() += 1;
                }
                let expected = draws as f64 / all.len() as f64;
                let chi: f64 = all
                    .iter()
                    .map(|k| {
                        let o = f64::from(*counts.get(k).unwrap_or(&0));
                        (o - expected).powi(2) / expected
                    })
                    .sum();
                let dof = (all.len() - 1) as f64;
                assert!(
                    chi < dof + 5.0 * (2.0 * dof).sqrt(),
                    "{game}: chi2 {chi:.0} for {dof} degrees of freedom"
                );
                done = true;
                break 'seeds;
            }
        }
        assert!(done, "{game}: no small position found");
    }
}

/// Plain minimax, no pruning and no table.
fn minimax<H: Searchable>(h: &H, seat: Seat) -> i32 {
    if h.is_over() {
        return h.value(seat);
    }
    let side = h.side(seat);
    let max = h.to_move().is_some_and(|m| h.side(m) == side);
    let vals = (0..h.num_legal_actions()).map(|i| {
        let mut c = h.clone();
        c.apply_unchecked(h.legal_action(i).unwrap());
        minimax(&c, seat)
    });
    if max {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}

fn check_solver<H: Searchable>(h: &H, tricks: u32) -> bool {
    if !h.in_play() || h.tricks_left() > tricks || h.is_over() {
        return false;
    }
    let mover = h.to_move().unwrap();
    let mut solver = Solver::new();
    {
        let seat = mover;
        let exact = minimax(h, seat);
        assert_eq!(solver.solve(h, seat), exact);
        // Again with the table filled: the same value.
        assert_eq!(solver.solve(h, seat), exact);
        let per_action = solver.solve_actions(h, seat);
        let best = per_action.iter().map(|&(_, v)| v).max().unwrap();
        assert_eq!(best, exact, "the best action's value is the position's");
    }
    true
}

#[test]
fn the_solver_agrees_with_minimax_on_small_endgames() {
    for rules in every_option_set() {
        let mut solved = 0;
        for seed in 0..40u64 {
            let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
            advance(&mut m, 400, seed);
            // Back up to a position with two or three tricks left: replay a prefix of the
            // first hand (a seeded match deals it again as it was).
            let i = 0;
            let actions = m.hand_actions(i);
            let n = usize::from(rules.seats());
            for back in [2 * n + 1, 3 * n - 1] {
                if actions.len() <= back {
                    continue;
                }
                let p = replayed(rules, seed, &actions[..actions.len() - back]);
                let ok = match &p {
                    AnyMatch::Calabresella(g) => check_solver(g.hands().last().unwrap(), 3),
                    AnyMatch::Tressette(g) => check_solver(g.hands().last().unwrap(), 3),
                    AnyMatch::Chiamata(g) => check_solver(g.hands().last().unwrap(), 3),
                };
                solved += usize::from(ok);
            }
        }
        assert!(solved >= 5, "{rules}: only {solved} endgames solved");
    }
}

/// Every game in its default seating, by name.
const GAMES: [&str; 5] = [
    "calabresella",
    "tressette",
    "tressette-in-due",
    "tressette-chiamata",
    "briscola-chiamata",
];

/// Plays the first hand of every game with each bot spec (the same seed each time): every
/// answer legal, and the first two specs (the same) giving the same choices.
fn search_bot_is_deterministic_and_legal(specs: &[&str]) {
    for name in GAMES {
        let rules = Rules::parse(name, []).unwrap();
        let mut runs = Vec::new();
        for spec in specs {
            let mut m = AnyMatch::seeded(rules, 5, None).unwrap();
            let mut bot = bot_from_spec(spec, 9).unwrap();
            let mut taken = Vec::new();
            while let Some(d) = m.decider() {
                if m.hands_dealt() > 1 {
                    break;
                }
                let obs = m.observation(Viewer::Seat(d)).unwrap();
                let a = bot.act(&obs);
                assert!(
                    obs.legal_actions().contains(&a),
                    "{name} {spec}: illegal {a}"
                );
                m.try_apply_as(d, a).unwrap();
                taken.push(a);
            }
            runs.push(taken);
        }
        assert_eq!(
            runs[0], runs[1],
            "{name}: the same seed and budget, other choices"
        );
    }
}

#[test]
fn pimc_is_deterministic_for_a_seed_and_always_legal() {
    search_bot_is_deterministic_and_legal(&[
        "pimc:worlds=4:solve=2",
        "pimc:worlds=4:solve=2",
        "pimc:worlds=3:infer=30",
    ]);
    assert!(bot_from_spec("pimc:worlds=0", 1).is_err());
    assert!(bot_from_spec("pimc:depth=3", 1).is_err());
    assert!(bot_from_spec("heuristic:ms=3", 1).is_err());
    assert!(bot_from_spec("pimc:ms=20", 1).is_ok());
    assert!(bot_from_spec("pimc:infer=100", 1).is_err());
}

#[test]
fn every_game_hand_is_searchable_through_the_trait() {
    // The trait facts agree with the match: sides are formed in play, a finished hand's values
    // are zero-sum between the sides.
    for rules in every_option_set() {
        let mut m = AnyMatch::seeded(rules, 3, None).unwrap();
        advance(&mut m, 1000, 3);
        let check = |over: bool, vals: Vec<(u8, i32)>| {
            if over {
                let a: Vec<i32> = vals.iter().filter(|(s, _)| *s == 0).map(|v| v.1).collect();
                let b: Vec<i32> = vals.iter().filter(|(s, _)| *s == 1).map(|v| v.1).collect();
                if let (Some(x), Some(y)) = (a.first(), b.first()) {
                    assert!(
                        *x == -*y || rules.game_name().contains("chiamata"),
                        "{rules}"
                    );
                }
            }
        };
        match &m {
            AnyMatch::Calabresella(g) => {
                let h = g.hands().last().unwrap();
                check(
                    h.is_over(),
                    Seat::first_n(3).map(|s| (h.side(s), h.value(s))).collect(),
                );
            }
            AnyMatch::Tressette(g) => {
                let h = g.hands().last().unwrap();
                let n = rules.seats();
                check(
                    h.is_over(),
                    Seat::first_n(n).map(|s| (h.side(s), h.value(s))).collect(),
                );
            }
            AnyMatch::Chiamata(g) => {
                let h = g.hands().last().unwrap();
                let n = rules.seats();
                let total: i32 = Seat::first_n(n).map(|s| h.value(s)).sum();
                if h.is_over() {
                    assert_eq!(total, 0, "{rules}: the calling games' awards are zero-sum");
                }
            }
        }
    }
}

/// Calabresella a due: from the dummy's exposure on, through its taking monte cards and
/// discarding (dividete, or scegliete with the dummy a taker), both people find worlds, and every one of them looks
/// to its seat like the real hand. The soloist knows the dummy's discards in part from the hand
/// exposed after the auction; the defending person sees them.
/// The card-point margin of a finished hand: opposite between the sides, within -1..1, and
/// where the contract is made by points alone (Calabresella, Tressette con la Chiamata: 6 of
/// 11) of the value's sign.
#[test]
fn the_points_margin_breaks_ties_without_contradicting_the_value() {
    fn check<H: Searchable>(h: &H, n: u8, by_points: bool, rules: &Rules) -> usize {
        if !h.is_over() {
            return 0;
        }
        for s in Seat::first_n(n) {
            let m = h.points_margin(s);
            assert!((-1.0..=1.0).contains(&m), "{rules}: {m}");
            if h.side(s) == 2 {
                assert_eq!(m, 0.0, "{rules}: a seat out of the hand");
                continue;
            }
            for o in Seat::first_n(n).filter(|&o| h.side(o) < 2 && h.side(o) != h.side(s)) {
                assert_eq!(m, -h.points_margin(o), "{rules}");
            }
            if by_points && h.value(s) != 0 {
                assert_eq!(
                    m > 0.0,
                    h.value(s) > 0,
                    "{rules}: margin {m}, value {}",
                    h.value(s)
                );
            }
        }
        1
    }
    let mut finished = 0;
    for rules in every_option_set() {
        for seed in 0..12 {
            let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
            let i = current(&m);
            advance(&mut m, 1000, seed);
            let n = rules.seats();
            match &m {
                AnyMatch::Calabresella(g) => {
                    finished += check(&g.hands()[i], n, true, &rules);
                }
                AnyMatch::Chiamata(g) => {
                    let tressette = rules.game_name() == "tressette-chiamata";
                    finished += check(&g.hands()[i], n, tressette, &rules);
                }
                AnyMatch::Tressette(g) => {
                    // Its value is the points already.
                    let h = &g.hands()[i];
                    assert!(Seat::first_n(n).all(|s| h.points_margin(s) == 0.0));
                }
            }
        }
    }
    // Most random hands are played out (some are void deals, without sides).
    assert!(finished > 100, "{finished} finished hands checked");
}

/// One exact solve values every seat (ismcts's `finish`): in every finished hand each seat's
/// value is its `value_scale` times one unit, seats of a side have scales of one sign, and the
/// solver's values near the end keep the same proportions; the caller is paid twice what his
/// partner is.
#[test]
fn every_seats_value_is_its_scale_of_one_unit() {
    fn check<H: Searchable>(h: &H, n: u8, rules: &Rules) -> (usize, usize) {
        let seats: Vec<Seat> = Seat::first_n(n).collect();
        let mut solved = 0;
        for &s in &seats {
            let scale = h.value_scale(s);
            if h.side(s) == 2 {
                assert_eq!(scale, 0, "{rules}: a seat out of the hand");
            }
            for &o in &seats {
                let other = h.value_scale(o);
                if h.side(s) < 2 && h.side(o) < 2 {
                    assert_eq!(
                        scale.signum() * other.signum(),
                        if h.side(s) == h.side(o) { 1 } else { -1 },
                        "{rules}: scales {scale} and {other} of sides {} and {}",
                        h.side(s),
                        h.side(o)
                    );
                }
                if h.is_over() {
                    assert_eq!(
                        h.value(s) * other,
                        h.value(o) * scale,
                        "{rules}: {s:?} and {o:?}"
                    );
                } else if h.in_play() && h.tricks_left() <= 2 && s != o && scale != 0 {
                    let v = Solver::new().solve(h, s);
                    assert_eq!(v % scale, 0, "{rules}: {v} is not a multiple of {scale}");
                    assert_eq!(
                        Solver::new().solve(h, o),
                        v / scale * other,
                        "{rules}: solved for {s:?} and {o:?}"
                    );
                    solved += 1;
                }
            }
        }
        (usize::from(h.is_over()), solved)
    }
    let (mut finished, mut solved) = (0, 0);
    let mut callers = 0;
    for rules in every_option_set() {
        for seed in 0..12 {
            let n = rules.seats();
            let back = 2 * usize::from(n) - 1;
            let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
            advance(&mut m, 1000, seed);
            let actions = m.hand_actions(0);
            // The finished hand, and the same hand a trick and more from its end.
            let p = replayed(rules, seed, &actions[..actions.len().saturating_sub(back)]);
            for g in [&m, &p] {
                let (f, s) = match g {
                    AnyMatch::Calabresella(g) => check(&g.hands()[0], n, &rules),
                    AnyMatch::Tressette(g) => check(&g.hands()[0], n, &rules),
                    AnyMatch::Chiamata(g) => {
                        let h = &g.hands()[0];
                        if let (Some(c), Some(p)) = (h.caller(), h.partner())
                            && n == 5
                        {
                            assert_eq!(h.value_scale(c), 2 * h.value_scale(p), "{rules}");
                            callers += 1;
                        }
                        check(h, n, &rules)
                    }
                };
                finished += f;
                solved += s;
            }
        }
    }
    assert!(
        finished > 100 && solved > 50 && callers > 10,
        "{finished} finished hands, {solved} solves compared, {callers} callers with a partner"
    );
}

#[test]
fn a_due_positions_after_the_dummy_discards_have_worlds() {
    let rules = Rules::parse("calabresella", [("a_due", "true")]).unwrap();
    let mut after_discards = 0usize;
    let mut contracts: HashMap<&str, usize> = HashMap::new();
    for seed in 0..400u64 {
        let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
        let mut bot = RandomBot::new(seed);
        while m.hands_dealt() == 1 {
            let Some(d) = m.decider() else { break };
            let events = m.events(0);
            let exposed = events
                .iter()
                .any(|e| e.to_string().starts_with("the dummy (seat 2) is exposed"));
            let dummy_discarded = events
                .iter()
                .any(|e| e.to_string().starts_with("seat 2 discards"));
            // Every position from the exposure on: the monte received, the discards, play.
            if exposed {
                after_discards += usize::from(dummy_discarded);
                let contract = events.iter().find_map(|e| {
                    let e = e.to_string();
                    ["dividete", "scegliete"]
                        .into_iter()
                        .find(|c| e.contains("is the soloist in") && e.contains(c))
                });
                if dummy_discarded {
                    *contracts.entry(contract.unwrap_or("other")).or_default() += 1;
                }
                for s in [Seat::ALL[0], Seat::ALL[1]] {
                    let v = Viewer::Seat(s);
                    let obs = m.hand_observation(0, v).unwrap();
                    let worlds = obs
                        .sample_worlds(3, seed)
                        .unwrap_or_else(|e| panic!("seed {seed} seat {s}: {e}\n{events:#?}"));
                    for w in &worlds {
                        assert_eq!(w.hand_observation(0, v), Some(obs.clone()));
                    }
                }
            }
            let obs = m.observation(Viewer::Seat(d)).unwrap();
            m.try_apply_as(d, bot.act(&obs)).unwrap();
        }
        if after_discards > 400 {
            break;
        }
    }
    for c in ["dividete", "scegliete"] {
        assert!(
            contracts.get(c).copied().unwrap_or(0) > 10,
            "too few {c} positions: {contracts:?}"
        );
    }
}

/// Tressette in due once the stock is out: each player knows the other's cards, so every
/// world is the true deal and the analysis's values are exact. In such endgames the analysis
/// names the card plain minimax finds best (computed here without the solver), and each other
/// card's loss is its minimax gap.
#[test]
fn the_analysis_names_the_best_card_of_settled_endgames() {
    use calabresella_engine::search::analysis::{AnalysisOptions, analyse};
    let rules = Rules::parse("tressette-in-due", [("target", "1")]).unwrap();
    let options = AnalysisOptions {
        budget: calabresella_engine::search::Budget::parse("worlds=3:work=50").unwrap(),
        exact_tricks: Some(4),
        ..AnalysisOptions::default()
    };
    let mut checked = 0;
    let mut lossy = 0;
    for seed in 0..20u64 {
        let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
        advance(&mut m, 400, seed);
        let actions = m.hand_actions(0);
        let a = analyse(&m.record(None), &options).unwrap();
        for d in a
            .decisions
            .iter()
            .filter(|d| d.hand == 0 && d.exact_loss.is_some())
        {
            let p = replayed(rules, seed, &actions[..d.index]);
            let AnyMatch::Tressette(g) = &p else {
                panic!("a tressette match");
            };
            let h = g.hands().last().unwrap();
            let seat = Seat::new(d.seat as u8).unwrap();
            let values: Vec<(String, i32)> = (0..h.num_legal_actions())
                .map(|i| {
                    let a = h.legal_action(i).unwrap();
                    let mut c = h.clone();
                    c.apply_unchecked(a);
                    (a.to_string(), minimax(&c, seat))
                })
                .collect();
            let top = values.iter().map(|v| v.1).max().unwrap();
            let best = values.iter().find(|v| v.1 == top).unwrap();
            assert_eq!(d.best, best.0, "seed {seed}: {d:?} against {values:?}");
            for v in &d.actions {
                let exact = values.iter().find(|x| x.0 == v.action).unwrap().1;
                assert_eq!(v.exact, Some(exact));
                assert_eq!(v.value, f64::from(exact), "every world is the true deal");
            }
            let chosen = values.iter().find(|x| x.0 == d.chosen).unwrap().1;
            assert_eq!(d.loss, f64::from(top - chosen));
            assert_eq!(d.exact_loss, Some(top - chosen));
            checked += 1;
            lossy += usize::from(top > chosen);
        }
    }
    assert!(
        checked >= 40 && lossy >= 3,
        "{checked} endgame decisions, {lossy} with a loss"
    );
}

#[test]
fn ismcts_is_deterministic_for_a_seed_and_always_legal() {
    search_bot_is_deterministic_and_legal(&["ismcts:iterations=40", "ismcts:iterations=40"]);
    assert!(bot_from_spec("ismcts:iterations=0", 1).is_err());
    assert!(bot_from_spec("ismcts:depth=3", 1).is_err());
    assert!(bot_from_spec("ismcts:explore=141:solve=3", 1).is_ok());
    search_bot_is_deterministic_and_legal(&[
        "ismcts:iterations=40:bid=ismcts",
        "ismcts:iterations=40:bid=ismcts",
    ]);
    assert!(bot_from_spec("ismcts:bid=heuristic", 1).is_err());
    // Inferring from a weighted pool of worlds: as deterministic, as legal.
    search_bot_is_deterministic_and_legal(&[
        "ismcts:iterations=40:infer=30:pool=16",
        "ismcts:iterations=40:infer=30:pool=16",
    ]);
    assert!(bot_from_spec("ismcts:infer=100", 1).is_err());
    // Play-outs finished by the solver: as deterministic, as legal; bad depths refused.
    search_bot_is_deterministic_and_legal(&[
        "ismcts:iterations=40:finish=solve",
        "ismcts:iterations=40:finish=solve",
        "ismcts:iterations=40:infer=30:finish=3",
    ]);
    // A tree that leads without signals: as deterministic, as legal.
    search_bot_is_deterministic_and_legal(&[
        "ismcts:iterations=40:signals=none",
        "ismcts:iterations=40:signals=none",
    ]);
    for bad in [
        "signals=off",
        "finish=21",
        "finish=exact",
        "finish=-1",
        "finish=3:shape=50",
    ] {
        assert!(bot_from_spec(&format!("ismcts:{bad}"), 1).is_err(), "{bad}");
    }
}

/// Tressette in due once the stock is out: every world is the true deal. With every play-out
/// finished by the solver (and no hand-over to PIMC), each leaf of the tree is valued exactly,
/// so the search plays a card the solver values best, and more often than with the
/// heuristic's play-outs: a `finish` that never solved, or valued the wrong seat, shows here.
#[test]
fn play_outs_finished_by_the_solver_find_the_best_card_of_settled_endgames() {
    let rules = Rules::parse("tressette-in-due", [("target", "1")]).unwrap();
    let (mut checked, mut finished, mut played_out) = (0, 0, 0);
    for seed in 0..150u64 {
        let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
        let mut bot = RandomBot::new(seed);
        // Random play to a position with four or five tricks left.
        loop {
            let AnyMatch::Tressette(g) = &m else {
                panic!("a tressette match")
            };
            let h = g.hands().last().unwrap();
            if h.is_over() || (h.in_play() && h.tricks_left() <= 5) {
                break;
            }
            let d = m.decider().unwrap();
            let obs = m.observation(Viewer::Seat(d)).unwrap();
            m.try_apply_as(d, bot.act(&obs)).unwrap();
        }
        let AnyMatch::Tressette(g) = &m else {
            unreachable!()
        };
        let h = g.hands().last().unwrap();
        if h.is_over() || h.tricks_left() < 4 || h.num_legal_actions() < 2 {
            continue;
        }
        let d = m.decider().unwrap();
        let exact = Solver::new().solve_actions(h, d);
        let top = exact.iter().map(|&(_, v)| v).max().unwrap();
        let obs = m.observation(Viewer::Seat(d)).unwrap();
        let value = |spec: &str| {
            let chosen = bot_from_spec(spec, seed).unwrap().act(&obs);
            exact.iter().find(|&&(a, _)| a == chosen).unwrap().1
        };
        checked += 1;
        finished += usize::from(value("ismcts:solve=0:finish=20:iterations=20") == top);
        played_out += usize::from(value("ismcts:solve=0:iterations=20") == top);
    }
    assert!(checked >= 100, "{checked} endgames");
    // Twenty iterations cannot grow the whole tree, so even exact leaves miss now and then; the
    // heuristic's play-outs miss more often.
    assert!(
        finished * 100 >= checked * 95 && finished > played_out,
        "the best card in {finished} of {checked} endgames finished by the solver, \
         {played_out} played out by the heuristic"
    );
}

#[test]
fn a_finish_at_no_tricks_left_is_the_heuristic_play_out() {
    // `finish=0` never reaches the solver: the same bot as without it, in every game.
    let mut compared = 0;
    for name in GAMES {
        let rules = Rules::parse(name, []).unwrap();
        for seed in 0..6 {
            let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
            // Into the card play, where the tree searches (PIMC takes the auction).
            advance(&mut m, 14 + 3 * seed as usize, seed);
            let Some(d) = m.decider() else { continue };
            let obs = m.observation(Viewer::Seat(d)).unwrap();
            let legal = obs.legal_actions();
            if legal.len() < 2 || !legal.iter().all(|a| matches!(a, Action::Play(..))) {
                continue;
            }
            let act = |spec: &str| bot_from_spec(spec, seed).unwrap().act(&obs);
            assert_eq!(
                act("ismcts:iterations=60:finish=0"),
                act("ismcts:iterations=60"),
                "{name} seed {seed}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 12, "{compared} card-play positions");
}

#[test]
fn with_signals_none_the_tree_leads_every_card_without_a_signal() {
    // Leads of the two games with signals, reached by random play. Searching every signal as
    // an action of its own, the most visited lead sometimes carries one; told not to, the
    // tree never offers one, so none is ever chosen, nor by PIMC in the last tricks.
    let (mut leads, mut signalled, mut plain, mut late) = (0, 0, 0, 0);
    for name in ["tressette", "tressette-chiamata"] {
        let rules = Rules::parse(name, []).unwrap();
        for seed in 0..40 {
            let mut m = AnyMatch::seeded(rules, seed, None).unwrap();
            // Leads from the first trick to the last (where the tree hands over to PIMC).
            advance(&mut m, 5 + (seed as usize % 8) * 5, seed);
            // On to the next lead, where a signal may go with the card.
            let leads_here = |m: &AnyMatch| {
                let d = m.decider()?;
                let obs = m.observation(Viewer::Seat(d)).unwrap();
                let lead = obs
                    .legal_actions()
                    .iter()
                    .any(|a| matches!(a, Action::Play(_, Some(_))));
                lead.then_some(obs)
            };
            let mut obs = leads_here(&m);
            while obs.is_none() && m.decider().is_some() && m.hands_dealt() == 1 {
                advance(&mut m, 1, seed);
                obs = leads_here(&m);
            }
            let Some(obs) = obs else { continue };
            let legal = obs.legal_actions();
            leads += 1;
            let act = |spec: &str| bot_from_spec(spec, seed).unwrap().act(&obs);
            let with = act("ismcts:iterations=200:solve=0");
            let without = act("ismcts:iterations=200:solve=0:signals=none");
            let handed_over = act("ismcts:iterations=200:signals=none");
            // Three tricks or fewer left: PIMC decides for `ismcts` at its default depth.
            late += usize::from(
                matches!(&m, AnyMatch::Tressette(g) if g.hands().last().unwrap().tricks_left() <= 3)
                    || matches!(&m, AnyMatch::Chiamata(g) if g.hands().last().unwrap().tricks_left() <= 3),
            );
            assert!(
                [with, without, handed_over]
                    .iter()
                    .all(|a| legal.contains(a))
            );
            signalled += usize::from(matches!(with, Action::Play(_, Some(_))));
            plain += usize::from(
                matches!(without, Action::Play(_, None))
                    && matches!(handed_over, Action::Play(_, None)),
            );
        }
    }
    assert!(leads >= 60, "{leads} leads");
    assert!(signalled > 0, "no signalled lead in {leads}");
    assert_eq!(plain, leads, "a signal chosen with signals=none");
    assert!(late >= 5, "{late} leads handed over to PIMC");
}

#[test]
fn best_plays_as_the_bot_chosen_for_each_game() {
    // One `best` bot asked about every game in turn answers each position as the bot chosen
    // for that game would, seeded alike: it switches when the game does.
    let mut best = bot_from_spec("best", 11).unwrap();
    assert_eq!(best.name(), "best");
    let mut chosen = std::collections::BTreeSet::new();
    for (name, options) in [
        ("calabresella", vec![]),
        ("calabresella", vec![("a_due", "true")]),
        ("tressette", vec![]),
        ("tressette-in-due", vec![]),
        ("tressette-chiamata", vec![]),
        ("briscola-chiamata", vec![]),
    ] {
        let rules = Rules::parse(name, options).unwrap();
        let spec = best_for(&rules);
        chosen.insert(spec.name());
        for steps in [0, 9, 17] {
            let mut m = AnyMatch::seeded(rules, 3, None).unwrap();
            advance(&mut m, steps, 5);
            let Some(d) = m.decider() else { continue };
            let obs = m.observation(Viewer::Seat(d)).unwrap();
            let a = best.act(&obs);
            assert!(obs.legal_actions().contains(&a), "{name}: illegal {a}");
            assert_eq!(
                a,
                spec.build(11).act(&obs),
                "{name} after {steps}: best is not {}",
                spec.name()
            );
        }
    }
    // Every choice is a search bot.
    assert!(
        chosen.iter().all(|n| ["pimc", "ismcts"].contains(n)),
        "{chosen:?}"
    );
}

#[test]
fn ismcts_leaves_the_auction_to_pimc_unless_told_otherwise() {
    // A hand's first decision is a bid in every game with an auction: by default `ismcts`
    // answers it as `pimc` with the same seed does.
    let mut differs = 0;
    for name in ["calabresella", "tressette-chiamata", "briscola-chiamata"] {
        let rules = Rules::parse(name, []).unwrap();
        for seed in 0..6 {
            let m = AnyMatch::seeded(rules, seed, None).unwrap();
            let obs = m.observation(Viewer::Seat(m.decider().unwrap())).unwrap();
            let act = |spec: &str| bot_from_spec(spec, seed).unwrap().act(&obs);
            assert_eq!(act("ismcts"), act("pimc"), "{name} seed {seed}");
            assert_eq!(act("ismcts:bid=pimc"), act("pimc"), "{name} seed {seed}");
            differs += usize::from(act("ismcts:iterations=300:bid=ismcts") != act("pimc"));
        }
    }
    // Searching the auction itself is another bot: somewhere it bids otherwise.
    assert!(
        differs > 0,
        "ismcts:bid=ismcts bid as pimc in every position"
    );
}
