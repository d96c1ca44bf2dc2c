//! Events of a Tressette hand and who may see them.

use std::fmt;

use crate::action::Signal;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::Viewer;
use crate::seat::Seat;

use super::accusi::Accuso;
use super::score::Outcome;

/// Something that happened in a Tressette hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Event {
    /// A seat received its cards (private to that seat).
    Dealt {
        /// The seat.
        seat: Seat,
        /// Its 10 cards.
        cards: CardSet,
    },
    /// A compulsory declaration before the first lead (public, T-D2).
    Declared {
        /// The declarer.
        seat: Seat,
        /// The combination; [`Accuso::cards`] is what it makes public.
        accuso: Accuso,
    },
    /// A card played, with an optional lead signal (public, T-D3).
    Played {
        /// Who played.
        seat: Seat,
        /// The card.
        card: Card,
        /// Busso, striscio or volo on a lead.
        signal: Option<Signal>,
    },
    /// A trick completed (public).
    TrickWon {
        /// Trick number, 1-based.
        number: u8,
        /// Who won it.
        winner: Seat,
        /// Its cards.
        cards: CardSet,
    },
    /// Tressette in Due: a card drawn from the stock, shown to the opponent (public, T-D5).
    Drew {
        /// Who drew.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The hand is over and scored (public).
    Scored(Outcome),
}

impl Event {
    /// The event as `viewer` may see it.
    pub(crate) fn visible(&self, viewer: Viewer) -> Option<Event> {
        match self {
            // A partner's hand stays hidden: only the seat sees its own cards.
            Event::Dealt { seat, .. } if viewer != Viewer::Seat(*seat) => None,
            _ => Some(self.clone()),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Dealt { seat, cards } => write!(f, "seat {seat} is dealt {cards}"),
            Event::Declared { seat, accuso } => write!(f, "seat {seat} declares {accuso}"),
            Event::Played { seat, card, signal } => {
                crate::trick::fmt_play(f, *seat, *card, *signal)
            }
            Event::TrickWon {
                number,
                winner,
                cards,
            } => crate::trick::fmt_trick(f, *number, *winner, *cards),
            Event::Drew { seat, card } => write!(f, "seat {seat} draws {card}"),
            Event::Scored(o) => write!(
                f,
                "points {}-{} (cards {}-{}, accusi {}-{}), tricks {}-{}",
                o.points[0],
                o.points[1],
                o.card_points[0],
                o.card_points[1],
                o.accusi[0],
                o.accusi[1],
                o.tricks[0],
                o.tricks[1]
            ),
        }
    }
}

crate::trick::card_events!();
