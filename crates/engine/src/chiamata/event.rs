//! Events of a calling-game hand and who may see them: only a seat's own deal is private; the
//! partner's identity is never an event until the called card is played (CH-D1).

use std::fmt;

use crate::action::{Action, Signal};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::Viewer;
use crate::seat::Seat;

use super::score::Outcome;

/// Something that happened in a hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Event {
    /// A seat received its cards (private to that seat).
    Dealt {
        /// The seat.
        seat: Seat,
        /// Its cards.
        cards: CardSet,
    },
    /// A seat spoke in the auction: `pass` or a bid (public).
    Spoke {
        /// Who spoke.
        seat: Seat,
        /// What was said.
        action: Action,
    },
    /// The auction closed: `seat` is the caller (public).
    AuctionWon {
        /// The caller.
        seat: Seat,
        /// The winning bid.
        bid: Action,
    },
    /// Every player passed: the deal is void (TC-D3, BC-D4).
    AllPassed,
    /// The caller named a card (public; in Briscola Chiamata its suit is trump). Who holds it
    /// is not part of the event.
    Called {
        /// The caller.
        seat: Seat,
        /// The called card.
        card: Card,
    },
    /// A card played, with an optional lead signal in Tressette con la Chiamata (public).
    Played {
        /// Who played.
        seat: Seat,
        /// The card.
        card: Card,
        /// Busso, striscio or volo on a lead.
        signal: Option<Signal>,
    },
    /// The called card was just played: the partnership is public (TC-D6, BC-D8).
    PartnerKnown {
        /// The partner, or `None` when the caller called his own card and plays alone.
        partner: Option<Seat>,
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
    /// The hand is over and scored (public). Boxed: events are queued per stream, and the
    /// outcome is large and rare.
    Scored(Box<Outcome>),
}

impl Event {
    /// The event as `viewer` may see it.
    pub(crate) fn visible(&self, viewer: Viewer) -> Option<Event> {
        match self {
            Event::Dealt { seat, .. } if viewer != Viewer::Seat(*seat) => None,
            _ => Some(self.clone()),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Dealt { seat, cards } => write!(f, "seat {seat} is dealt {cards}"),
            Event::Spoke { seat, action } => write!(f, "seat {seat}: {action}"),
            Event::AuctionWon { seat, bid } => write!(f, "seat {seat} is the caller ({bid})"),
            Event::AllPassed => f.write_str("all pass: the deal is void"),
            Event::Called { seat, card } => write!(f, "seat {seat} calls {card}"),
            Event::Played { seat, card, signal } => {
                crate::trick::fmt_play(f, *seat, *card, *signal)
            }
            Event::PartnerKnown { partner: Some(p) } => {
                write!(f, "the called card is out: seat {p} is the partner")
            }
            Event::PartnerKnown { partner: None } => {
                f.write_str("the called card is out: the caller plays alone")
            }
            Event::TrickWon {
                number,
                winner,
                cards,
            } => crate::trick::fmt_trick(f, *number, *winner, *cards),
            Event::Scored(o) => {
                write!(
                    f,
                    "caller {} {} {}-{} (target {}), x{}, award {:?}",
                    o.caller,
                    if o.made { "made" } else { "failed" },
                    o.points[0],
                    o.points[1],
                    o.target,
                    o.multiplier,
                    o.award.first_n(o.players)
                )
            }
        }
    }
}

crate::trick::card_events!();
