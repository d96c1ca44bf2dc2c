//! Calabresella's no-leak oracle: what the rules let a viewer know (`docs/RULES.md`, "Who sees
//! what"), read from the full event log independently of the engine's own filter.

use calabresella_engine::calabresella::{Event, Hand, Options};
use calabresella_engine::game::GameHand;
use calabresella_engine::game::Viewer;
use calabresella_engine::{CardSet, Seat};

/// Every card the rules let `viewer` know by now (`docs/RULES.md`, "Who sees what"), read from
/// the full event log independently of the engine's own visibility filter.
pub fn allowed(h: &Hand, viewer: Viewer) -> CardSet {
    let a_due = h.options().a_due;
    // Seats whose private information the viewer shares: itself, and in a due the dummy once
    // the viewer is the defending person.
    let shares = |seat: Seat, soloist: Option<Seat>| match viewer {
        Viewer::Spectator => false,
        Viewer::Seat(v) => {
            v == seat
                || (a_due
                    && seat == Options::DUMMY
                    && v != Options::DUMMY
                    && soloist.is_some_and(|s| s != v))
        }
    };
    let mut soloist: Option<Seat> = None;
    let mut dummy_up = false;
    let mut k = CardSet::EMPTY;
    for e in h.events() {
        match e {
            Event::Dealt { seat, cards } if viewer == Viewer::Seat(seat) => k |= cards,
            Event::AuctionWon { soloist: s, .. } => soloist = Some(s),
            Event::DummyExposed { cards, .. } => {
                // Face up for everyone, and so is whatever later enters the dummy's hand.
                k |= cards;
                dummy_up = true;
            }
            Event::Called { card } => k.insert(card),
            Event::Returned { to, card: Some(c) } => {
                let soloist_side = soloist.is_some_and(|s| shares(s, soloist));
                if soloist_side || shares(to, soloist) || (dummy_up && to == Options::DUMMY) {
                    k.insert(c);
                }
            }
            Event::MonteTaken {
                seat,
                cards: Some(c),
            } if shares(seat, soloist) => {
                k |= c.into_iter().collect();
            }
            Event::MonteReceived {
                seat,
                cards: Some(c),
            } if shares(seat, soloist) || (dummy_up && seat == Options::DUMMY) => {
                k |= c;
            }
            Event::MonteShown { cards } => k |= cards.into_iter().collect(),
            Event::Discarded {
                seat,
                card: Some(c),
            } if shares(seat, soloist) => k.insert(c),
            Event::Played { card, .. } => k.insert(card),
            Event::HandShown { to, cards, .. } if shares(to, soloist) => k |= cards,
            Event::MonteRevealed { cards, .. } => k |= cards,
            _ => {}
        }
    }
    k
}
