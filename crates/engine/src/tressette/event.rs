//! Events of a Tressette hand and who may see them.

use std::fmt;

use crate::card::Card;
use crate::game::{EventFacts, HistoryFact, card_fact};
use crate::seat::Seat;

use super::accusi::Accuso;
use super::score::Outcome;

crate::trick::card_events! {
    /// Something that happened in a Tressette hand.
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    pub enum Event {
        /// A compulsory declaration before the first lead (public, T-D2).
        Declared {
            /// The declarer.
            seat: Seat,
            /// The combination; [`Accuso::cards`] is what it makes public.
            accuso: Accuso,
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
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Declared { seat, accuso } => write!(f, "seat {seat} declares {accuso}"),
            Event::Dealt { .. } | Event::Played { .. } | Event::TrickWon { .. } => {
                self.fmt_card_event(f)
            }
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

impl EventFacts for Event {
    fn fact(&self) -> Option<HistoryFact> {
        Some(match *self {
            Event::Drew { card, .. } => HistoryFact::Drew(card),
            Event::Declared { seat, accuso } => HistoryFact::Declared(seat, accuso.cards()),
            _ => return card_fact(self),
        })
    }
}
