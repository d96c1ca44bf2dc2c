//! Events of a calling-game hand and who may see them: only a seat's own deal is private; the
//! partner's identity is never an event until the called card is played (CH-D1).

use std::fmt;

use crate::action::Action;
use crate::card::Card;
use crate::game::{EventFacts, HistoryFact, card_fact};
use crate::seat::Seat;

use super::score::Outcome;

crate::trick::card_events! {
    /// Something that happened in a hand.
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    pub enum Event {
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
        /// The called card was just played: the partnership is public (TC-D6, BC-D8).
        PartnerKnown {
            /// The partner, or `None` when the caller called his own card and plays alone.
            partner: Option<Seat>,
        },
        /// The hand is over and scored (public). Boxed: events are queued per stream, and the
        /// outcome is large and rare.
        Scored(Box<Outcome>),
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Spoke { seat, action } => write!(f, "seat {seat}: {action}"),
            Event::AuctionWon { seat, bid } => write!(f, "seat {seat} is the caller ({bid})"),
            Event::AllPassed => f.write_str("all pass: the deal is void"),
            Event::Called { seat, card } => write!(f, "seat {seat} calls {card}"),
            Event::PartnerKnown { partner: Some(p) } => {
                write!(f, "the called card is out: seat {p} is the partner")
            }
            Event::PartnerKnown { partner: None } => {
                f.write_str("the called card is out: the caller plays alone")
            }
            Event::Dealt { .. } | Event::Played { .. } | Event::TrickWon { .. } => {
                self.fmt_card_event(f)
            }
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

impl EventFacts for Event {
    fn fact(&self) -> Option<HistoryFact> {
        Some(match *self {
            Event::Spoke { seat, action } => match action {
                Action::Bid(c) => HistoryFact::Bid(seat, Some(c), None),
                Action::Promise(p) => HistoryFact::Bid(seat, None, Some(p)),
                _ => HistoryFact::Bid(seat, None, None),
            },
            _ => return card_fact(self),
        })
    }
}
