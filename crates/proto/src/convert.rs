//! Every conversion between engine types and `calabresella.v1` wire types, in one place.
//!
//! Engine → wire conversions cannot fail. Wire → engine conversions check everything a client
//! may get wrong and return a [`WireError`] naming it; they never panic.

use calabresella_engine::action::ActionIdError;
use calabresella_engine::calabresella::{
    self, HandOutcome, MatchEnd, Options as CalabresellaOptions, Phase,
};
use calabresella_engine::tressette::{self, Accuso, Variant};
use calabresella_engine::{Action, Card, CardSet, Contract, Rank, Seat, Signal, Suit};
use thiserror::Error;

use crate::v1;

/// A wire value the engine cannot accept. `Display` is a message for the client.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WireError {
    /// A card that is not one of the 40.
    #[error("bad card: {0}")]
    Card(String),
    /// An action that does not parse or names no action.
    #[error("bad action: {0}")]
    Action(String),
    /// The forms of an action (notation, id, typed fields) disagree.
    #[error("the action's forms disagree: {0}")]
    Mismatch(String),
    /// Rule options the engine refuses.
    #[error("bad options: {0}")]
    Options(String),
}

/// The rules of a table: a game and its validated options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// Calabresella.
    Calabresella(CalabresellaOptions),
    /// Tressette or Tressette in Due.
    Tressette(tressette::Options),
}

impl Rules {
    /// How many seats the game has.
    pub fn seats(&self) -> u8 {
        match self {
            Rules::Calabresella(o) => o.players,
            Rules::Tressette(o) => o.variant.players(),
        }
    }

    /// The record's `game` name.
    pub fn game_name(&self) -> &'static str {
        match self {
            Rules::Calabresella(_) => "calabresella",
            Rules::Tressette(o) => o.variant.game(),
        }
    }

    /// The validated rules of `game` (`calabresella`, `tressette` or `tressette-in-due`) with
    /// rule options as key/value pairs (`players=4`, `target=31`, `aperta=true`...), as the CLI's
    /// `--option` flags and the Python package's keyword arguments give them.
    pub fn parse<'a>(
        game: &str,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Rules, WireError> {
        let game = game.trim().to_ascii_lowercase();
        let bad =
            |e: calabresella_engine::calabresella::OptionError| WireError::Options(e.to_string());
        if let Some(variant) = tressette::Variant::from_game(&game) {
            let mut o = tressette::Options::new(variant);
            for (k, v) in pairs {
                if k.trim().eq_ignore_ascii_case("players") {
                    if v.trim() != variant.players().to_string() {
                        return Err(WireError::Options(format!(
                            "{game} is played by {} players, not {v}",
                            variant.players()
                        )));
                    }
                    continue;
                }
                o.set(k, v).map_err(bad)?;
            }
            o.validate().map_err(bad)?;
            return Ok(Rules::Tressette(o));
        }
        if game != "calabresella" {
            return Err(WireError::Options(format!(
                "unknown game {game:?}: calabresella, tressette or tressette-in-due"
            )));
        }
        let mut o = CalabresellaOptions::default();
        for (k, v) in pairs {
            o.set(k, v).map_err(bad)?;
        }
        o.validate().map_err(bad)?;
        Ok(Rules::Calabresella(o))
    }
}

fn suit_wire(s: Suit) -> v1::Suit {
    match s {
        Suit::Bastoni => v1::Suit::Bastoni,
        Suit::Coppe => v1::Suit::Coppe,
        Suit::Denari => v1::Suit::Denari,
        Suit::Spade => v1::Suit::Spade,
    }
}

fn rank_wire(r: Rank) -> v1::Rank {
    match r {
        Rank::Three => v1::Rank::Three,
        Rank::Two => v1::Rank::Two,
        Rank::Ace => v1::Rank::Ace,
        Rank::Re => v1::Rank::Re,
        Rank::Cavallo => v1::Rank::Cavallo,
        Rank::Fante => v1::Rank::Fante,
        Rank::Seven => v1::Rank::Seven,
        Rank::Six => v1::Rank::Six,
        Rank::Five => v1::Rank::Five,
        Rank::Four => v1::Rank::Four,
    }
}

/// A card on the wire.
pub fn card(c: Card) -> v1::Card {
    v1::Card {
        suit: suit_wire(c.suit()) as i32,
        rank: rank_wire(c.rank()) as i32,
        notation: c.to_string(),
    }
}

/// Cards on the wire, in deck order.
pub fn cards(set: CardSet) -> Vec<v1::Card> {
    set.into_iter().map(card).collect()
}

/// Cards on the wire, in the given order.
pub fn card_list(list: &[Card]) -> Vec<v1::Card> {
    list.iter().copied().map(card).collect()
}

/// A wire card: its `notation` when set, else its suit and rank; both must agree when both are
/// given.
pub fn card_from_wire(w: &v1::Card) -> Result<Card, WireError> {
    let typed = match (v1::Suit::try_from(w.suit), v1::Rank::try_from(w.rank)) {
        (Ok(v1::Suit::Unspecified), Ok(v1::Rank::Unspecified)) => None,
        (Ok(s), Ok(r)) if s != v1::Suit::Unspecified && r != v1::Rank::Unspecified => {
            let suit = Suit::ALL
                .into_iter()
                .find(|&x| suit_wire(x) == s)
                .ok_or_else(|| WireError::Card(format!("suit {}", w.suit)))?;
            let rank = Rank::ALL
                .into_iter()
                .find(|&x| rank_wire(x) == r)
                .ok_or_else(|| WireError::Card(format!("rank {}", w.rank)))?;
            Some(Card::new(suit, rank))
        }
        _ => {
            return Err(WireError::Card(format!(
                "suit {} and rank {} (both must be set, or neither)",
                w.suit, w.rank
            )));
        }
    };
    let parsed = if w.notation.trim().is_empty() {
        None
    } else {
        Some(
            w.notation
                .parse::<Card>()
                .map_err(|e| WireError::Card(e.to_string()))?,
        )
    };
    match (typed, parsed) {
        (Some(a), Some(b)) if a != b => Err(WireError::Card(format!(
            "suit and rank say {a} but notation says {b}"
        ))),
        (Some(c), _) | (None, Some(c)) => Ok(c),
        (None, None) => Err(WireError::Card("empty card".into())),
    }
}

/// A contract on the wire (`CONTRACT_UNSPECIFIED` for none).
pub fn contract(c: Option<Contract>) -> i32 {
    (match c {
        None => v1::Contract::Unspecified,
        Some(Contract::Chiamo) => v1::Contract::Chiamo,
        Some(Contract::Solo) => v1::Contract::Solo,
        Some(Contract::Solissimo) => v1::Contract::Solissimo,
        Some(Contract::Dividete) => v1::Contract::Dividete,
        Some(Contract::Scegliete) => v1::Contract::Scegliete,
    }) as i32
}

/// A contract from the wire (`CONTRACT_UNSPECIFIED` is none).
pub fn contract_from_wire(v: i32) -> Result<Option<Contract>, WireError> {
    Contract::ALL
        .into_iter()
        .map(Some)
        .chain([None])
        .find(|&c| contract(c) == v)
        .ok_or_else(|| WireError::Action(format!("unknown contract {v}")))
}

/// A signal on the wire (`SIGNAL_UNSPECIFIED` for none).
pub fn signal(s: Option<Signal>) -> i32 {
    (match s {
        None => v1::Signal::Unspecified,
        Some(Signal::Busso) => v1::Signal::Busso,
        Some(Signal::Striscio) => v1::Signal::Striscio,
        Some(Signal::Volo) => v1::Signal::Volo,
    }) as i32
}

fn signal_from_wire(v: i32) -> Result<Option<Signal>, WireError> {
    Signal::ALL
        .into_iter()
        .map(Some)
        .chain([None])
        .find(|&s| signal(s) == v)
        .ok_or_else(|| WireError::Action(format!("unknown signal {v}")))
}

/// An action on the wire with every form filled. `monte` is the open monte in deal order
/// (Calabresella scegliete), which `take` ids need; without it a `take` carries no id.
pub fn action(a: Action, monte: Option<&[Card; 4]>) -> v1::Action {
    use v1::ActionKind as K;
    let mut w = v1::Action {
        id: a.to_id(monte).ok().map(u32::from),
        notation: a.to_string(),
        ..v1::Action::default()
    };
    let kind = match a {
        Action::Pass => K::Pass,
        Action::Bid(c) => {
            w.contract = contract(Some(c));
            K::Bid
        }
        Action::Call(c) => {
            w.card = Some(card(c));
            K::Call
        }
        Action::Return(c) => {
            w.card = Some(card(c));
            K::Return
        }
        Action::Discard(c) => {
            w.card = Some(card(c));
            K::Discard
        }
        Action::Take(set) => {
            w.cards = match monte {
                Some(m) => m
                    .iter()
                    .copied()
                    .filter(|c| set.contains(*c))
                    .map(card)
                    .collect(),
                None => cards(set),
            };
            K::Take
        }
        Action::Play(c, s) => {
            w.card = Some(card(c));
            w.signal = signal(s);
            K::Play
        }
    };
    w.kind = kind as i32;
    w
}

fn typed_action(w: &v1::Action) -> Result<Option<Action>, WireError> {
    use v1::ActionKind as K;
    let kind = K::try_from(w.kind).map_err(|_| WireError::Action(format!("kind {}", w.kind)))?;
    let one_card = || -> Result<Card, WireError> {
        w.card
            .as_ref()
            .ok_or_else(|| WireError::Action(format!("{} needs `card`", kind.as_str_name())))
            .and_then(card_from_wire)
    };
    Ok(Some(match kind {
        K::Unspecified => return Ok(None),
        K::Pass => Action::Pass,
        K::Bid => Action::Bid(
            contract_from_wire(w.contract)?
                .ok_or_else(|| WireError::Action("a bid needs `contract`".into()))?,
        ),
        K::Call => Action::Call(one_card()?),
        K::Return => Action::Return(one_card()?),
        K::Discard => Action::Discard(one_card()?),
        K::Take => Action::Take(
            w.cards
                .iter()
                .map(card_from_wire)
                .collect::<Result<CardSet, _>>()?,
        ),
        K::Play => Action::Play(one_card()?, signal_from_wire(w.signal)?),
    }))
}

/// The action a client sent: its `notation`, its `id` and its typed fields, whichever are given;
/// they must agree. `monte` is the open monte (for `take` ids).
pub fn action_from_wire(w: &v1::Action, monte: Option<&[Card; 4]>) -> Result<Action, WireError> {
    let mut forms: Vec<(&str, Action)> = Vec::with_capacity(3);
    if !w.notation.trim().is_empty() {
        let a = w
            .notation
            .parse::<Action>()
            .map_err(|e| WireError::Action(e.to_string()))?;
        forms.push(("notation", a));
    }
    if let Some(id) = w.id {
        let id = u16::try_from(id).map_err(|_| ActionIdError::OutOfRange(u16::MAX));
        let a = id
            .and_then(|id| Action::from_id(id, monte))
            .map_err(|e| WireError::Action(e.to_string()))?;
        forms.push(("id", a));
    }
    if let Some(a) = typed_action(w)? {
        forms.push(("typed fields", a));
    }
    let Some(&(first_name, first)) = forms.first() else {
        return Err(WireError::Action(
            "empty action: give `notation`, `id` or `kind`".into(),
        ));
    };
    if let Some((name, other)) = forms.iter().find(|(_, a)| *a != first) {
        return Err(WireError::Mismatch(format!(
            "{first_name} says `{first}` but {name} says `{other}`"
        )));
    }
    Ok(first)
}

/// The seat of a wire seat number, if `n` is below `seats`.
pub fn seat_from_wire(n: u32, seats: u8) -> Option<Seat> {
    u8::try_from(n)
        .ok()
        .filter(|&n| n < seats)
        .and_then(Seat::new)
}

fn seat(s: Seat) -> u32 {
    s.index() as u32
}

/// The rules a client asked for: unset options take the engine defaults; the result is validated.
pub fn rules_from_wire(w: &v1::GameOptions) -> Result<Rules, WireError> {
    let bad = |e: &dyn std::fmt::Display| WireError::Options(e.to_string());
    let game =
        v1::Game::try_from(w.game).map_err(|_| WireError::Options(format!("game {}", w.game)))?;
    let variant = match game {
        v1::Game::Unspecified => return Err(WireError::Options("the game is not set".into())),
        v1::Game::Calabresella => None,
        v1::Game::Tressette => Some(Variant::Partnership),
        v1::Game::TressetteInDue => Some(Variant::Due),
    };
    match (variant, &w.rules) {
        (None, Some(v1::game_options::Rules::Tressette(_))) => Err(WireError::Options(
            "calabresella takes `calabresella` options".into(),
        )),
        (Some(_), Some(v1::game_options::Rules::Calabresella(_))) => Err(WireError::Options(
            "tressette games take `tressette` options".into(),
        )),
        (None, rules) => {
            let o = match rules {
                Some(v1::game_options::Rules::Calabresella(o)) => *o,
                _ => v1::CalabresellaOptions::default(),
            };
            let mut opts = CalabresellaOptions::default();
            let mut set = |k: &str, v: String| opts.set(k, &v).map_err(|e| bad(&e));
            if o.terziglio {
                set("preset", "terziglio".into())?;
            }
            if let Some(v) = o.players {
                set("players", v.to_string())?;
            }
            if let Some(v) = o.target {
                set("target", v.to_string())?;
            }
            if let Some(v) = o.a_due {
                set("a_due", v.to_string())?;
            }
            match v1::MatchEnd::try_from(o.match_end) {
                Ok(v1::MatchEnd::Unspecified) => {}
                Ok(v1::MatchEnd::Pooled) => set("match_end", "pooled".into())?,
                Ok(v1::MatchEnd::Individual) => set("match_end", "individual".into())?,
                Err(_) => return Err(WireError::Options(format!("match_end {}", o.match_end))),
            }
            for (k, v) in [
                ("stramazzo", o.stramazzo),
                ("only_chiamo", o.only_chiamo),
                ("chiamo_threes_only", o.chiamo_threes_only),
                ("aperta", o.aperta),
            ] {
                if let Some(v) = v {
                    set(k, v.to_string())?;
                }
            }
            if let Some(v) = o.max_deals {
                set("max_deals", v.to_string())?;
            }
            opts.validate().map_err(|e| bad(&e))?;
            Ok(Rules::Calabresella(opts))
        }
        (Some(variant), rules) => {
            let o = match rules {
                Some(v1::game_options::Rules::Tressette(o)) => *o,
                _ => v1::TressetteOptions::default(),
            };
            let mut opts = tressette::Options::new(variant);
            let mut set = |k: &str, v: String| opts.set(k, &v).map_err(|e| bad(&e));
            if let Some(v) = o.target {
                set("target", v.to_string())?;
            }
            if let Some(v) = o.accusi {
                set("accusi", v.to_string())?;
            }
            if let Some(v) = o.follow_suit_always {
                set("follow_suit_always", v.to_string())?;
            }
            if let Some(v) = o.max_deals {
                set("max_deals", v.to_string())?;
            }
            opts.validate().map_err(|e| bad(&e))?;
            Ok(Rules::Tressette(opts))
        }
    }
}

/// Games by the names the CLI, the store and the Python package use.
const GAMES: [(v1::Game, &str); 3] = [
    (v1::Game::Calabresella, "calabresella"),
    (v1::Game::Tressette, "tressette"),
    (v1::Game::TressetteInDue, "tressette-in-due"),
];

/// The wire game named `name` (`calabresella`, `tressette`, `tressette-in-due`).
pub fn game_by_name(name: &str) -> Option<v1::Game> {
    GAMES.iter().find(|(_, n)| *n == name).map(|(g, _)| *g)
}

/// The name of a wire game (`None` for unset or unknown values).
pub fn game_name(game: i32) -> Option<&'static str> {
    GAMES
        .iter()
        .find(|(g, _)| *g as i32 == game)
        .map(|(_, n)| *n)
}

/// The end reason named `name`, any case (`completed`, `forfeit`, `abandoned`, `shutdown`).
pub fn end_reason_by_name(name: &str) -> Option<v1::EndReason> {
    v1::EndReason::from_str_name(&format!("END_REASON_{}", name.to_ascii_uppercase()))
        .filter(|r| *r != v1::EndReason::Unspecified)
}

/// The short upper-case name of an end reason (`COMPLETED`, ...; "" for unset).
pub fn end_reason_name(reason: i32) -> &'static str {
    v1::EndReason::try_from(reason)
        .ok()
        .filter(|r| *r != v1::EndReason::Unspecified)
        .map_or("", |r| r.as_str_name().trim_start_matches("END_REASON_"))
}

/// The rules on the wire, every option set.
pub fn rules(r: &Rules) -> v1::GameOptions {
    match r {
        Rules::Calabresella(o) => v1::GameOptions {
            game: v1::Game::Calabresella as i32,
            rules: Some(v1::game_options::Rules::Calabresella(
                v1::CalabresellaOptions {
                    players: Some(u32::from(o.players)),
                    target: Some(o.target),
                    match_end: match o.match_end {
                        MatchEnd::Pooled => v1::MatchEnd::Pooled,
                        MatchEnd::Individual => v1::MatchEnd::Individual,
                    } as i32,
                    stramazzo: Some(o.stramazzo),
                    only_chiamo: Some(o.only_chiamo),
                    chiamo_threes_only: Some(o.chiamo_threes_only),
                    aperta: Some(o.aperta),
                    a_due: Some(o.a_due),
                    max_deals: Some(o.max_deals),
                    terziglio: false,
                },
            )),
        },
        Rules::Tressette(o) => v1::GameOptions {
            game: match o.variant {
                Variant::Partnership => v1::Game::Tressette,
                Variant::Due => v1::Game::TressetteInDue,
            } as i32,
            rules: Some(v1::game_options::Rules::Tressette(v1::TressetteOptions {
                target: Some(o.target),
                accusi: Some(o.accusi),
                follow_suit_always: Some(o.follow_suit_always),
                max_deals: Some(o.max_deals),
            })),
        },
    }
}

fn phase(p: Phase) -> i32 {
    (match p {
        Phase::Auction => v1::Phase::Auction,
        Phase::Call => v1::Phase::Call,
        Phase::Return => v1::Phase::Return,
        Phase::Discard => v1::Phase::Discard,
        Phase::Take => v1::Phase::Take,
        Phase::Play => v1::Phase::Play,
        Phase::Over => v1::Phase::Over,
    }) as i32
}

/// A Calabresella hand's result on the wire.
pub fn calabresella_result(hand_number: u32, o: &HandOutcome) -> v1::HandResult {
    let text = calabresella::Event::Scored(*o).to_string();
    match o {
        HandOutcome::Void => v1::HandResult {
            hand_number,
            void: true,
            award: vec![0; 4],
            text,
            ..v1::HandResult::default()
        },
        HandOutcome::Scored(s) => v1::HandResult {
            hand_number,
            void: false,
            soloist: Some(seat(s.soloist)),
            contract: contract(Some(s.contract)),
            called: s.called.map(card),
            made: s.made,
            multiplier: s.multiplier,
            points: s.points.to_vec(),
            tricks: s.tricks.to_vec(),
            card_points: Vec::new(),
            accusi: Vec::new(),
            last_trick_side: s.last_trick as u32,
            award: s.award.0.to_vec(),
            monte: cards(s.monte),
            text,
        },
    }
}

/// A Tressette hand's result on the wire.
pub fn tressette_result(hand_number: u32, o: &tressette::Outcome) -> v1::HandResult {
    v1::HandResult {
        hand_number,
        points: o.points.to_vec(),
        tricks: o.tricks.to_vec(),
        card_points: o.card_points.to_vec(),
        accusi: o.accusi.to_vec(),
        last_trick_side: o.last_trick as u32,
        award: o.points.to_vec(),
        text: tressette::Event::Scored(*o).to_string(),
        multiplier: 1,
        ..v1::HandResult::default()
    }
}

fn event_base(kind: v1::EventKind, text: String) -> v1::Event {
    v1::Event {
        kind: kind as i32,
        text,
        ..v1::Event::default()
    }
}

/// A card played to a trick (the same in every game).
fn played_event(s: Seat, c: Card, g: Option<Signal>, text: String) -> v1::Event {
    v1::Event {
        seat: Some(seat(s)),
        card: Some(card(c)),
        signal: signal(g),
        ..event_base(v1::EventKind::Played, text)
    }
}

/// A completed trick (the same in every game).
fn trick_event(number: u8, winner: Seat, c: CardSet, text: String) -> v1::Event {
    v1::Event {
        seat: Some(seat(winner)),
        number: u32::from(number),
        cards: cards(c),
        ..event_base(v1::EventKind::TrickWon, text)
    }
}

/// A Calabresella event (already filtered for its viewer) on the wire.
pub fn calabresella_event(hand_number: u32, e: &calabresella::Event) -> v1::Event {
    use calabresella::Event as E;
    use v1::EventKind as K;
    let text = e.to_string();
    match *e {
        E::Dealt { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: cards(c),
            ..event_base(K::Dealt, text)
        },
        E::Bid {
            seat: s,
            contract: c,
        } => v1::Event {
            seat: Some(seat(s)),
            contract: contract(c),
            ..event_base(K::Bid, text)
        },
        E::AuctionWon {
            soloist,
            contract: c,
        } => v1::Event {
            seat: Some(seat(soloist)),
            contract: contract(Some(c)),
            ..event_base(K::AuctionWon, text)
        },
        E::AllPassed => event_base(K::AllPassed, text),
        E::DummyExposed { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: cards(c),
            ..event_base(K::DummyExposed, text)
        },
        E::Called { card: c } => v1::Event {
            card: Some(card(c)),
            ..event_base(K::Called, text)
        },
        E::HandedOver { from } => v1::Event {
            seat: Some(seat(from)),
            ..event_base(K::HandedOver, text)
        },
        E::CalledInMonte => event_base(K::CalledInMonte, text),
        E::Returned { to, card: c } => v1::Event {
            to_seat: Some(seat(to)),
            card: c.map(card),
            ..event_base(K::Returned, text)
        },
        E::MonteTaken { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: c.map(|c| card_list(&c)).unwrap_or_default(),
            ..event_base(K::MonteTaken, text)
        },
        E::MonteReceived { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: c.map(cards).unwrap_or_default(),
            ..event_base(K::MonteReceived, text)
        },
        E::MonteShown { cards: c } => v1::Event {
            cards: card_list(&c),
            ..event_base(K::MonteShown, text)
        },
        E::MonteSplit { first, second } => v1::Event {
            seat: Some(seat(first.0)),
            cards: cards(first.1),
            to_seat: Some(seat(second.0)),
            other_cards: cards(second.1),
            ..event_base(K::MonteSplit, text)
        },
        E::Discarded { seat: s, card: c } => v1::Event {
            seat: Some(seat(s)),
            card: c.map(card),
            ..event_base(K::Discarded, text)
        },
        E::Played {
            seat: s,
            card: c,
            signal: g,
        } => played_event(s, c, g, text),
        E::TrickWon {
            number,
            winner,
            cards: c,
        } => trick_event(number, winner, c, text),
        E::HandShown {
            seat: s,
            to,
            cards: c,
        } => v1::Event {
            seat: Some(seat(s)),
            to_seat: Some(seat(to)),
            cards: cards(c),
            ..event_base(K::HandShown, text)
        },
        E::MonteRevealed { to, cards: c } => v1::Event {
            seat: Some(seat(to)),
            cards: cards(c),
            ..event_base(K::MonteRevealed, text)
        },
        E::Scored(o) => v1::Event {
            result: Some(Box::new(calabresella_result(hand_number, &o))),
            ..event_base(K::HandScored, text)
        },
    }
}

/// An accuso on the wire.
pub fn accuso(a: Accuso) -> v1::Accuso {
    let mut w = v1::Accuso {
        cards: cards(a.cards()),
        points: a.points(),
        text: a.to_string(),
        ..v1::Accuso::default()
    };
    match a {
        Accuso::Napoletana(s) => {
            w.kind = v1::AccusoKind::Napoletana as i32;
            w.suit = suit_wire(s) as i32;
        }
        Accuso::Three { rank, missing } => {
            w.kind = v1::AccusoKind::Three as i32;
            w.rank = rank_wire(rank) as i32;
            w.missing = suit_wire(missing) as i32;
        }
        Accuso::Four(rank) => {
            w.kind = v1::AccusoKind::Four as i32;
            w.rank = rank_wire(rank) as i32;
        }
    }
    w
}

/// A Tressette event on the wire.
pub fn tressette_event(hand_number: u32, e: &tressette::Event) -> v1::Event {
    use tressette::Event as E;
    use v1::EventKind as K;
    let text = e.to_string();
    match *e {
        E::Dealt { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: cards(c),
            ..event_base(K::Dealt, text)
        },
        E::Declared { seat: s, accuso: a } => v1::Event {
            seat: Some(seat(s)),
            accuso: Some(Box::new(accuso(a))),
            ..event_base(K::Declared, text)
        },
        E::Played {
            seat: s,
            card: c,
            signal: g,
        } => played_event(s, c, g, text),
        E::TrickWon {
            number,
            winner,
            cards: c,
        } => trick_event(number, winner, c, text),
        E::Drew { seat: s, card: c } => v1::Event {
            seat: Some(seat(s)),
            card: Some(card(c)),
            ..event_base(K::Drew, text)
        },
        E::Scored(o) => v1::Event {
            result: Some(Box::new(tressette_result(hand_number, &o))),
            ..event_base(K::HandScored, text)
        },
    }
}

fn played(trick: &[(Seat, Card)]) -> Vec<v1::PlayedCard> {
    trick
        .iter()
        .map(|&(s, c)| v1::PlayedCard {
            seat: seat(s),
            card: Some(card(c)),
            signal: signal(None),
        })
        .collect()
}

/// A Calabresella observation on the wire.
pub fn calabresella_observation(o: &calabresella::Observation) -> v1::Observation {
    let monte = o.shown_monte();
    let n = o.hand_number;
    v1::Observation {
        viewer: match o.viewer {
            calabresella::Viewer::Seat(s) => Some(seat(s)),
            calabresella::Viewer::Spectator => None,
        },
        options: Some(rules(&Rules::Calabresella(o.options))),
        hand_number: n,
        dealer: seat(o.dealer),
        idle: o.idle.map(seat),
        totals: o.totals.first_n(o.options.players).to_vec(),
        phase: phase(o.phase),
        actor: o.actor.map(seat),
        decider: o.decider.map(seat),
        highest_bidder: o.highest_bid.map(|(s, _)| seat(s)),
        highest_bid: contract(o.highest_bid.map(|(_, c)| c)),
        soloist: o.soloist.map(seat),
        contract: contract(o.contract),
        called: o.called.map(card),
        hand: cards(o.hand),
        visible_hands: o
            .visible_hands
            .iter()
            .map(|&(s, c)| v1::SeatCards {
                seat: seat(s),
                cards: cards(c),
            })
            .collect(),
        hand_sizes: o
            .hand_sizes
            .first_n(o.options.players)
            .iter()
            .map(|&x| u32::from(x))
            .collect(),
        trick: played(&o.trick),
        tricks_done: u32::from(o.tricks_done),
        side_tricks: o.side_tricks.to_vec(),
        stock_left: 0,
        events: o.events.iter().map(|e| calabresella_event(n, e)).collect(),
        legal_actions: o
            .legal_actions
            .iter()
            .map(|&a| action(a, monte.as_ref()))
            .collect(),
        outcome: o.outcome.as_ref().map(|r| calabresella_result(n, r)),
        previous: o
            .previous
            .iter()
            .enumerate()
            .map(|(i, r)| calabresella_result(i as u32, r))
            .collect(),
    }
}

/// A Tressette observation on the wire.
pub fn tressette_observation(o: &tressette::Observation) -> v1::Observation {
    let n = o.hand_number;
    let players = o.options.variant.players();
    let mut trick = played(&o.trick);
    // The lead's signal is public: carry it onto the trick from the event that played it.
    if let Some(first) = trick.first_mut()
        && let Some(tressette::Event::Played { signal: g, .. }) = o.events.iter().rev().find(
            |e| matches!(e, tressette::Event::Played { seat: s, .. } if seat(*s) == first.seat),
        )
    {
        first.signal = signal(*g);
    }
    v1::Observation {
        viewer: o.viewer.map(seat),
        options: Some(rules(&Rules::Tressette(o.options))),
        hand_number: n,
        dealer: seat(o.dealer),
        idle: None,
        totals: o.totals.to_vec(),
        phase: phase(if o.outcome.is_some() {
            Phase::Over
        } else {
            Phase::Play
        }),
        actor: o.actor.map(seat),
        decider: o.actor.map(seat),
        highest_bidder: None,
        highest_bid: contract(None),
        soloist: None,
        contract: contract(None),
        called: None,
        hand: cards(o.hand),
        visible_hands: Vec::new(),
        hand_sizes: o
            .hand_sizes
            .first_n(players)
            .iter()
            .map(|&x| u32::from(x))
            .collect(),
        trick,
        tricks_done: u32::from(o.tricks_done),
        side_tricks: Vec::new(),
        stock_left: u32::from(o.stock_left),
        events: o.events.iter().map(|e| tressette_event(n, e)).collect(),
        legal_actions: o.legal_actions.iter().map(|&a| action(a, None)).collect(),
        outcome: o.outcome.as_ref().map(|r| tressette_result(n, r)),
        previous: o
            .previous
            .iter()
            .enumerate()
            .map(|(i, r)| tressette_result(i as u32, r))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn game_and_end_reason_names_round_trip() {
        for (g, n) in GAMES {
            assert_eq!(game_by_name(n), Some(g));
            assert_eq!(game_name(g as i32), Some(n));
        }
        assert_eq!(game_by_name("skat"), None);
        assert_eq!(game_name(v1::Game::Unspecified as i32), None);
        for r in [
            v1::EndReason::Completed,
            v1::EndReason::Forfeit,
            v1::EndReason::Abandoned,
            v1::EndReason::Shutdown,
        ] {
            let name = end_reason_name(r as i32);
            assert_eq!(end_reason_by_name(name), Some(r));
            assert_eq!(end_reason_by_name(&name.to_ascii_lowercase()), Some(r));
        }
        assert_eq!(end_reason_name(0), "");
        assert_eq!(end_reason_by_name("unspecified"), None);
        assert_eq!(end_reason_by_name("resigned"), None);
    }

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_card_round_trips_in_each_form() {
        for c in Card::all() {
            let w = card(c);
            assert_eq!(card_from_wire(&w), Ok(c));
            let by_notation = v1::Card {
                notation: format!(" {} ", c.to_string().to_lowercase()),
                ..v1::Card::default()
            };
            assert_eq!(card_from_wire(&by_notation), Ok(c));
            let typed = v1::Card {
                notation: String::new(),
                ..w.clone()
            };
            assert_eq!(card_from_wire(&typed), Ok(c));
        }
    }

    #[test]
    fn bad_cards_are_refused_with_a_reason() {
        for bad in [
            v1::Card::default(),
            v1::Card {
                notation: "Zb".into(),
                ..v1::Card::default()
            },
            v1::Card {
                suit: 99,
                rank: 1,
                notation: String::new(),
            },
            v1::Card {
                suit: 1,
                rank: 0,
                notation: String::new(),
            },
            v1::Card {
                notation: "Ad".into(),
                ..card("3b".parse().expect("card"))
            },
        ] {
            assert!(
                matches!(card_from_wire(&bad), Err(WireError::Card(_))),
                "{bad:?}"
            );
        }
    }

    fn any_action() -> impl Strategy<Value = u16> {
        0..calabresella_engine::NUM_ACTION_IDS
    }

    proptest! {
        #[test]
        fn actions_round_trip_through_every_form(id in any_action(), m in 0u8..36) {
            let monte: [Card; 4] = std::array::from_fn(|i| Card::from_index(m + i as u8).expect("card"));
            let a = Action::from_id(id, Some(&monte)).expect("id");
            let w = action(a, Some(&monte));
            prop_assert_eq!(w.id, Some(u32::from(id)));
            prop_assert_eq!(action_from_wire(&w, Some(&monte)), Ok(a));
            let only_text = v1::Action { notation: w.notation.clone(), ..v1::Action::default() };
            prop_assert_eq!(action_from_wire(&only_text, Some(&monte)), Ok(a));
            let only_id = v1::Action { id: w.id, ..v1::Action::default() };
            prop_assert_eq!(action_from_wire(&only_id, Some(&monte)), Ok(a));
            let only_typed = v1::Action { id: None, notation: String::new(), ..w.clone() };
            prop_assert_eq!(action_from_wire(&only_typed, Some(&monte)), Ok(a));
        }

        #[test]
        fn disagreeing_forms_are_refused(a in any_action(), b in any_action()) {
            let monte: [Card; 4] = std::array::from_fn(|i| Card::from_index(i as u8).expect("card"));
            let x = Action::from_id(a, Some(&monte)).expect("id");
            let y = Action::from_id(b, Some(&monte)).expect("id");
            let w = v1::Action { notation: x.to_string(), id: Some(u32::from(b)), ..v1::Action::default() };
            let got = action_from_wire(&w, Some(&monte));
            if x == y {
                prop_assert_eq!(got, Ok(x));
            } else {
                prop_assert!(matches!(got, Err(WireError::Mismatch(_))));
            }
        }

        #[test]
        fn arbitrary_wire_actions_never_panic(kind in -2i32..10, contract in -2i32..8, sig in -2i32..6,
                                              id in proptest::option::of(0u32..400), text in ".{0,20}",
                                              suit in -1i32..6, rank in -1i32..12) {
            let w = v1::Action {
                kind, contract, signal: sig, id, notation: text,
                card: Some(v1::Card { suit, rank, notation: String::new() }),
                cards: vec![],
            };
            let _ = action_from_wire(&w, None);
        }
    }

    #[test]
    fn rules_round_trip_and_bad_options_are_refused() {
        for game in [
            v1::Game::Calabresella,
            v1::Game::Tressette,
            v1::Game::TressetteInDue,
        ] {
            let r = rules_from_wire(&v1::GameOptions {
                game: game as i32,
                rules: None,
            })
            .expect("defaults");
            assert_eq!(rules_from_wire(&rules(&r)), Ok(r));
        }
        let four = v1::GameOptions {
            game: v1::Game::Calabresella as i32,
            rules: Some(v1::game_options::Rules::Calabresella(
                v1::CalabresellaOptions {
                    players: Some(4),
                    aperta: Some(true),
                    terziglio: true,
                    ..Default::default()
                },
            )),
        };
        let Ok(Rules::Calabresella(o)) = rules_from_wire(&four) else {
            panic!("valid options")
        };
        assert_eq!((o.players, o.aperta, o.target), (4, true, 31));
        for bad in [
            v1::GameOptions::default(),
            v1::GameOptions {
                game: 42,
                rules: None,
            },
            v1::GameOptions {
                game: v1::Game::Calabresella as i32,
                rules: Some(v1::game_options::Rules::Calabresella(
                    v1::CalabresellaOptions {
                        players: Some(5),
                        ..Default::default()
                    },
                )),
            },
            v1::GameOptions {
                game: v1::Game::Calabresella as i32,
                rules: Some(v1::game_options::Rules::Calabresella(
                    v1::CalabresellaOptions {
                        a_due: Some(true),
                        aperta: Some(true),
                        ..Default::default()
                    },
                )),
            },
            v1::GameOptions {
                game: v1::Game::Tressette as i32,
                rules: Some(v1::game_options::Rules::Tressette(v1::TressetteOptions {
                    follow_suit_always: Some(true),
                    ..Default::default()
                })),
            },
            v1::GameOptions {
                game: v1::Game::Tressette as i32,
                rules: Some(v1::game_options::Rules::Calabresella(Default::default())),
            },
        ] {
            assert!(
                matches!(rules_from_wire(&bad), Err(WireError::Options(_))),
                "{bad:?}"
            );
        }
    }
}
