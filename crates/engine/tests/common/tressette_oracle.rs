//! Tressette's no-leak oracle: what the rules let a viewer know (T-D2, T-D5, T-D7), read from
//! the full event log independently of the engine's own filter.

use calabresella_engine::CardSet;
use calabresella_engine::game::GameHand;
use calabresella_engine::game::Viewer;
use calabresella_engine::tressette::{Event, Hand, Observation};

/// What the rules let `viewer` know: its own cards, every card played or drawn, and the cards
/// each accuso shows (an independent reading of T-D2, T-D5 and T-D7).
pub fn allowed(h: &Hand, viewer: Viewer) -> CardSet {
    let mut k = CardSet::EMPTY;
    for e in h.events() {
        match e {
            Event::Dealt { seat, cards } if Viewer::Seat(seat) == viewer => k |= cards,
            Event::Declared { accuso, .. } => k |= accuso.cards(),
            Event::Played { card, .. } | Event::Drew { card, .. } => k.insert(card),
            _ => {}
        }
    }
    k
}

/// Every card an observation mentions anywhere.
pub fn shown(o: &Observation) -> CardSet {
    let mut s = o.hand | o.trick.iter().map(|(_, c)| *c).collect();
    for a in &o.legal_actions {
        s |= super::action_cards(a);
    }
    for e in &o.events {
        s |= match e {
            Event::Dealt { cards, .. } | Event::TrickWon { cards, .. } => *cards,
            Event::Declared { accuso, .. } => accuso.cards(),
            Event::Played { card, .. } | Event::Drew { card, .. } => CardSet::single(*card),
            Event::Scored(_) => CardSet::EMPTY,
        };
    }
    s
}
