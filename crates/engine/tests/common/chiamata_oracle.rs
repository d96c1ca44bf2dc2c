//! The calling games' no-leak oracle (CH-D1, CH-D2, TC-D6, BC-D8): a viewer may know its own
//! cards, every card played, and the called card's name; never, before it is played, where the
//! called card is (the secret partner). Read from the full event log independently of the
//! engine's own filter.

use calabresella_engine::chiamata::{Event, Hand, Observation};
use calabresella_engine::game::GameHand;
use calabresella_engine::game::Viewer;
use calabresella_engine::{Card, CardSet};

/// What the rules let `viewer` know: its own cards, every card played, the called card's name.
pub fn allowed(h: &Hand, viewer: Viewer) -> CardSet {
    let mut k = CardSet::EMPTY;
    for e in h.events() {
        match e {
            Event::Dealt { seat, cards } if Viewer::Seat(seat) == viewer => k |= cards,
            Event::Played { card, .. } | Event::Called { card, .. } => k.insert(card),
            _ => {}
        }
    }
    k
}

/// The called card, when its name is public but its place is hidden from `viewer`: called,
/// not yet played, and not in the viewer's own hand. Its holder is the secret partner.
pub fn secret_place(h: &Hand, viewer: Viewer) -> Option<Card> {
    let mut called = None;
    let mut own = CardSet::EMPTY;
    for e in h.events() {
        match e {
            Event::Dealt { seat, cards } if Viewer::Seat(seat) == viewer => own = cards,
            Event::Called { card, .. } => called = Some(card),
            Event::Played { card, .. } if Some(card) == called => return None,
            _ => {}
        }
    }
    called.filter(|c| !own.contains(*c))
}

/// Every card an observation mentions anywhere.
pub fn shown(o: &Observation) -> CardSet {
    let mut s = o.hand | o.trick.iter().map(|(_, c)| *c).collect();
    if let Some(c) = o.called {
        s.insert(c);
    }
    for a in &o.legal_actions {
        // A call option names a card: it says nothing of where that card is.
        if !matches!(a, calabresella_engine::Action::Call(_)) {
            s |= super::action_cards(a);
        }
    }
    for e in &o.events {
        s |= match e {
            Event::Dealt { cards, .. } | Event::TrickWon { cards, .. } => *cards,
            Event::Played { card, .. } | Event::Called { card, .. } => CardSet::single(*card),
            _ => CardSet::EMPTY,
        };
    }
    s
}
