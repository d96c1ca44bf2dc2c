//! What every game's observation and events share on the wire: phases, event skeletons, played
//! cards and tricks.

use calabresella_engine::game::Phase;
use calabresella_engine::{Card, CardSet, Seat, Signal};

use super::cards::{card, cards, seat, signal};
use crate::v1;

/// A phase on the wire.
pub(crate) fn phase(p: Phase) -> i32 {
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

/// An event of `kind` with its text, every other field empty.
pub(crate) fn event_base(kind: v1::EventKind, text: String) -> v1::Event {
    v1::Event {
        kind: kind as i32,
        text,
        ..v1::Event::default()
    }
}

/// A seat's cards as dealt (the same in every game).
pub(crate) fn dealt_event(s: Seat, c: CardSet, text: String) -> v1::Event {
    v1::Event {
        seat: Some(seat(s)),
        cards: cards(c),
        ..event_base(v1::EventKind::Dealt, text)
    }
}

/// A card played to a trick (the same in every game).
pub(crate) fn played_event(s: Seat, c: Card, g: Option<Signal>, text: String) -> v1::Event {
    v1::Event {
        seat: Some(seat(s)),
        card: Some(card(c)),
        signal: signal(g),
        ..event_base(v1::EventKind::Played, text)
    }
}

/// A completed trick (the same in every game).
pub(crate) fn trick_event(number: u8, winner: Seat, c: CardSet, text: String) -> v1::Event {
    v1::Event {
        seat: Some(seat(winner)),
        number: u32::from(number),
        cards: cards(c),
        ..event_base(v1::EventKind::TrickWon, text)
    }
}

/// The trick in progress on the wire, in play order.
pub(crate) fn played(trick: &[(Seat, Card)]) -> Vec<v1::PlayedCard> {
    trick
        .iter()
        .map(|&(s, c)| v1::PlayedCard {
            seat: seat(s),
            card: Some(card(c)),
            signal: signal(None),
        })
        .collect()
}
