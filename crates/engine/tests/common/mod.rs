//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

pub mod calabresella_oracle;
pub mod chiamata_oracle;
pub mod tressette_oracle;

use calabresella_engine::calabresella::{Deal, Event, Hand, Observation, Options};
use calabresella_engine::game::HandRules;
use calabresella_engine::game::Rollout;
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, Card, CardSet, PerSeat, Seat};

/// Parses space-separated cards.
pub fn cards(s: &str) -> CardSet {
    s.split_whitespace()
        .map(|c| c.parse::<Card>().expect("test card"))
        .collect()
}

/// A deal from one string per seat (in seat order) and the monte in deal order.
pub fn deal(hands: &[&str], monte: &str) -> Deal {
    let mut h = PerSeat::splat(CardSet::EMPTY);
    for (i, s) in hands.iter().enumerate() {
        h.0[i] = cards(s);
    }
    let m: Vec<Card> = monte
        .split_whitespace()
        .map(|c| c.parse().expect("monte card"))
        .collect();
    Deal {
        hands: h,
        monte: [m[0], m[1], m[2], m[3]],
    }
}

pub fn seat(i: u8) -> Seat {
    Seat::new(i).expect("seat")
}

/// A hand under test, with terse helpers.
pub struct Play {
    pub hand: Hand,
}

impl Play {
    pub fn new(opts: Options, dealer: u8, d: Deal) -> Play {
        Play {
            hand: Hand::new(opts, seat(dealer), d).expect("valid test deal"),
        }
    }

    /// Applies an action string, which must be legal.
    pub fn act(&mut self, a: &str) -> &mut Self {
        let action: Action = a.parse().expect("test action");
        if let Err(e) = self.hand.try_apply(action) {
            panic!("{a} refused: {e}");
        }
        self
    }

    /// Applies several actions.
    pub fn acts(&mut self, list: &[&str]) -> &mut Self {
        for a in list {
            self.act(a);
        }
        self
    }

    /// The action must be refused with a message containing `why`, leaving the hand unchanged.
    pub fn reject(&mut self, a: &str, why: &str) -> &mut Self {
        let before = self.hand.clone();
        let action: Action = a.parse().expect("test action");
        match self.hand.try_apply(action) {
            Ok(()) => panic!("{a} was accepted, expected refusal ({why})"),
            Err(e) => assert!(
                e.to_string().contains(why),
                "{a}: got {e:?} ({e}), expected {why:?}"
            ),
        }
        assert_eq!(self.hand, before, "a refused action changed the hand");
        self
    }

    /// Plays the first legal action until the hand is over.
    pub fn first_legal_to_end(&mut self) -> &mut Self {
        while !self.hand.is_over() {
            let a = self.hand.legal_actions()[0];
            self.hand.try_apply(a).expect("first legal action");
        }
        self
    }

    pub fn actor(&self) -> Seat {
        self.hand.actor().expect("hand not over")
    }
}

/// Every valid combination of the rule options (targets vary too): the engine's own list.
pub fn all_option_combos() -> Vec<Options> {
    <calabresella_engine::calabresella::Match as calabresella_engine::game::Game>::option_sets()
}

/// Every card an observation mentions anywhere.
pub fn cards_in(obs: &Observation) -> CardSet {
    let mut s = obs.hand;
    for (_, h) in &obs.visible_hands {
        s |= *h;
    }
    for (_, c) in &obs.trick {
        s.insert(*c);
    }
    if let Some(c) = obs.called {
        s.insert(c);
    }
    for a in &obs.legal_actions {
        // A call option names a card the viewer does not hold: it says nothing of where it is.
        if !matches!(a, Action::Call(_)) {
            s |= action_cards(a);
        }
    }
    for e in &obs.events {
        s |= event_cards(e);
    }
    if let Some(calabresella_engine::calabresella::HandOutcome::Scored(sc)) = obs.outcome {
        s |= sc.monte;
        if let Some(c) = sc.called {
            s.insert(c);
        }
    }
    for o in &obs.previous {
        if let calabresella_engine::calabresella::HandOutcome::Scored(sc) = o {
            s |= sc.monte;
        }
    }
    s
}

pub fn action_cards(a: &Action) -> CardSet {
    match *a {
        Action::Call(c) | Action::Return(c) | Action::Discard(c) | Action::Play(c, _) => {
            CardSet::single(c)
        }
        Action::Take(set) => set,
        Action::Pass | Action::Bid(_) | Action::Promise(_) => CardSet::EMPTY,
    }
}

pub fn event_cards(e: &Event) -> CardSet {
    let one = |c: Option<Card>| c.map_or(CardSet::EMPTY, CardSet::single);
    match e {
        Event::Dealt { cards, .. }
        | Event::DummyExposed { cards, .. }
        | Event::HandShown { cards, .. } => *cards,
        Event::Called { card } => CardSet::single(*card),
        Event::Returned { card, .. } | Event::Discarded { card, .. } => one(*card),
        Event::MonteTaken { cards, .. } => {
            cards.map_or(CardSet::EMPTY, |c| c.into_iter().collect())
        }
        Event::MonteReceived { cards, .. } => cards.unwrap_or(CardSet::EMPTY),
        Event::MonteShown { cards } => cards.iter().copied().collect(),
        Event::MonteSplit { first, second } => first.1 | second.1,
        Event::Played { card, .. } => CardSet::single(*card),
        Event::TrickWon { cards, .. } | Event::MonteRevealed { cards, .. } => *cards,
        Event::Scored(o) => match o.as_ref() {
            calabresella_engine::calabresella::HandOutcome::Scored(s) => {
                s.monte | s.called.map_or(CardSet::EMPTY, CardSet::single)
            }
            calabresella_engine::calabresella::HandOutcome::Void => CardSet::EMPTY,
        },
        Event::Bid { .. }
        | Event::AuctionWon { .. }
        | Event::AllPassed
        | Event::HandedOver { .. }
        | Event::CalledInMonte => CardSet::EMPTY,
    }
}

/// Maps every card of an action through `f`.
pub fn map_action(a: Action, f: &dyn Fn(Card) -> Card) -> Action {
    match a {
        Action::Call(c) => Action::Call(f(c)),
        Action::Return(c) => Action::Return(f(c)),
        Action::Discard(c) => Action::Discard(f(c)),
        Action::Play(c, s) => Action::Play(f(c), s),
        Action::Take(set) => Action::Take(set.iter().map(f).collect()),
        other => other,
    }
}

/// A random bijection of `hidden` onto itself; `by_suit` keeps every card in its suit.
pub fn permutation(hidden: CardSet, by_suit: bool, rng: &mut GameRng) -> [u8; 40] {
    let mut map: [u8; 40] = std::array::from_fn(|i| i as u8);
    let groups: Vec<CardSet> = if by_suit {
        calabresella_engine::Suit::ALL
            .iter()
            .map(|&s| hidden.of_suit(s))
            .collect()
    } else {
        vec![hidden]
    };
    for g in groups {
        let from: Vec<Card> = g.iter().collect();
        let mut to = from.clone();
        rng.shuffle(&mut to);
        for (a, b) in from.iter().zip(&to) {
            map[a.index() as usize] = b.index();
        }
    }
    map
}

/// Compares a playthrough with its golden file `tests/golden/<file>` (or writes it when
/// `UPDATE_GOLDEN` is set), naming the first differing line and the command that regenerates
/// it (`cargo test -p calabresella-engine --test <test>`).
pub fn check_golden(file: &str, now: &str, test: &str) {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(file);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, now).expect("golden file written");
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    if stored != now {
        let line = stored
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| stored.lines().count().min(now.lines().count()));
        panic!(
            "the playthrough differs from {} at line {} (stored {:?}, now {:?}); if intended (or \
             new), regenerate with UPDATE_GOLDEN=1 cargo test -p calabresella-engine --test {test} \
             and review the diff",
            path.display(),
            line + 1,
            stored.lines().nth(line),
            now.lines().nth(line)
        );
    }
}
