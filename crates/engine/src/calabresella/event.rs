//! Everything that happens in a hand, as events, and the one function that decides what each
//! seat may see of them (the visibility table of the rules).

use crate::action::Contract;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::Viewer;
use crate::game::{EventFacts, HistoryFact, card_fact};
use crate::seat::Seat;

use super::score::HandOutcome;

crate::trick::card_events! {
    /// Something that happened in a hand. Fields that may be hidden from a viewer are `Option`s:
    /// the engine fills them all, and each observation ([`Hand::observation`]) blanks what its viewer may not see.
    ///
    /// [`Hand::observation`]: super::Hand::observation
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    pub enum Event {
        /// A seat spoke in the auction: `None` is a pass (public).
        Bid {
            /// Who spoke.
            seat: Seat,
            /// The contract bid, or `None` for a pass.
            contract: Option<Contract>,
        },
        /// The auction closed with a soloist (public).
        AuctionWon {
            /// The soloist.
            soloist: Seat,
            /// The contract.
            contract: Contract,
        },
        /// Everybody passed: the deal is void (C-D4, public).
        AllPassed,
        /// A due: the dummy's hand is exposed to both people (C-D19, public).
        DummyExposed {
            /// The dummy seat.
            seat: Seat,
            /// Its cards at that moment.
            cards: CardSet,
        },
        /// Chiamo: the soloist named a card (public).
        Called {
            /// The called card.
            card: Card,
        },
        /// Chiamo: a defender handed the called card over (public: who; the card is the called one).
        HandedOver {
            /// The holder.
            from: Seat,
        },
        /// Chiamo: the called card was in the monte (public, C-D7).
        CalledInMonte,
        /// Chiamo: the soloist gave a card back (the card only for the soloist and the holder).
        Returned {
            /// The holder who receives it.
            to: Seat,
            /// The card, if visible.
            card: Option<Card>,
        },
        /// The soloist took the monte (the fact public; the cards only for the soloist).
        MonteTaken {
            /// The soloist.
            seat: Seat,
            /// The 4 cards, if visible.
            cards: Option<[Card; 4]>,
        },
        /// Dividete: a defender received two monte cards (the cards only for him).
        MonteReceived {
            /// The defender.
            seat: Seat,
            /// The cards, if visible.
            cards: Option<CardSet>,
        },
        /// Scegliete: the monte is turned face up (public).
        MonteShown {
            /// The monte in deal order.
            cards: [Card; 4],
        },
        /// Scegliete: how the defenders split the monte (public).
        MonteSplit {
            /// The first defender and what he took.
            first: (Seat, CardSet),
            /// The second defender and what he got.
            second: (Seat, CardSet),
        },
        /// A card went face down into the set-aside monte (the card only for its owner).
        Discarded {
            /// Who discarded.
            seat: Seat,
            /// The card, if visible.
            card: Option<Card>,
        },
        /// Aperta: a defender's remaining hand shown to the other defender after trick 1 (C-D18).
        HandShown {
            /// Whose hand.
            seat: Seat,
            /// Who sees it.
            to: Seat,
            /// The cards.
            cards: CardSet,
        },
        /// The set-aside monte went to the last trick's winner and is shown to all (public).
        MonteRevealed {
            /// Who took it.
            to: Seat,
            /// The cards.
            cards: CardSet,
        },
        /// The hand is over and scored (public). Boxed: events are queued per stream, and the
        /// score is large and rare.
        Scored(Box<HandOutcome>),
    }
}

/// Facts about the hand that decide visibility: in Calabresella a due the defending person sees
/// everything the dummy sees once the auction has a soloist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VisibilityContext {
    pub(crate) soloist: Option<Seat>,
    pub(crate) dummy: Option<Seat>,
}

impl VisibilityContext {
    /// Whether `viewer` sees what `seat` sees privately (himself, or the dummy he plays).
    pub(crate) fn acts_for(&self, viewer: Viewer, seat: Seat) -> bool {
        let Viewer::Seat(v) = viewer else {
            return false;
        };
        if v == seat {
            return true;
        }
        match (self.dummy, self.soloist) {
            (Some(d), Some(s)) => seat == d && v != s && v != d,
            _ => false,
        }
    }
}

impl Event {
    /// The event as `viewer` may see it, or `None` when the viewer learns nothing of it.
    pub(crate) fn visible(&self, viewer: Viewer, ctx: &VisibilityContext) -> Option<Event> {
        let sees = |seat: Seat| ctx.acts_for(viewer, seat);
        Some(match self {
            Event::Dealt { seat, .. } => {
                // Dealing happens before the auction: only the seat itself sees its cards.
                if viewer != Viewer::Seat(*seat) {
                    return None;
                }
                self.clone()
            }
            Event::Returned { to, card } => {
                let soloist_side = ctx.soloist.is_some_and(sees);
                Event::Returned {
                    to: *to,
                    card: card.filter(|_| soloist_side || sees(*to)),
                }
            }
            Event::MonteTaken { seat, cards } => Event::MonteTaken {
                seat: *seat,
                cards: cards.filter(|_| sees(*seat)),
            },
            Event::MonteReceived { seat, cards } => Event::MonteReceived {
                seat: *seat,
                cards: cards.filter(|_| sees(*seat)),
            },
            Event::Discarded { seat, card } => Event::Discarded {
                seat: *seat,
                card: card.filter(|_| sees(*seat)),
            },
            Event::HandShown { to, .. } => {
                if !sees(*to) {
                    return None;
                }
                self.clone()
            }
            Event::Bid { .. }
            | Event::AuctionWon { .. }
            | Event::AllPassed
            | Event::DummyExposed { .. }
            | Event::Called { .. }
            | Event::HandedOver { .. }
            | Event::CalledInMonte
            | Event::MonteShown { .. }
            | Event::MonteSplit { .. }
            | Event::Played { .. }
            | Event::TrickWon { .. }
            | Event::MonteRevealed { .. }
            | Event::Scored(_) => self.clone(),
        })
    }
}

fn show_card(c: &Option<crate::card::Card>) -> String {
    c.map_or_else(|| "??".to_string(), |c| c.to_string())
}

fn show_set(s: &CardSet) -> String {
    if s.is_empty() {
        "-".to_string()
    } else {
        s.to_string()
    }
}

impl std::fmt::Display for Event {
    /// One line per event; a hidden card shows as `??`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Bid {
                seat,
                contract: None,
            } => write!(f, "seat {seat} passes"),
            Event::Bid {
                seat,
                contract: Some(c),
            } => write!(f, "seat {seat} bids {c}"),
            Event::AuctionWon { soloist, contract } => {
                write!(f, "seat {soloist} is the soloist in {contract}")
            }
            Event::AllPassed => write!(f, "all passed: the deal is void"),
            Event::DummyExposed { seat, cards } => {
                write!(f, "the dummy (seat {seat}) is exposed: {cards}")
            }
            Event::Called { card } => write!(f, "the soloist calls {card}"),
            Event::HandedOver { from } => write!(f, "seat {from} hands the called card over"),
            Event::CalledInMonte => write!(f, "the called card is in the monte"),
            Event::Returned { to, card } => {
                write!(f, "the soloist returns {} to seat {to}", show_card(card))
            }
            Event::MonteTaken { seat, cards } => match cards {
                Some(c) => write!(
                    f,
                    "seat {seat} takes the monte: {} {} {} {}",
                    c[0], c[1], c[2], c[3]
                ),
                None => write!(f, "seat {seat} takes the monte"),
            },
            Event::MonteReceived { seat, cards } => match cards {
                Some(c) => write!(f, "seat {seat} receives {c} from the monte"),
                None => write!(f, "seat {seat} receives two monte cards"),
            },
            Event::MonteShown { cards } => write!(
                f,
                "the monte is shown: {} {} {} {}",
                cards[0], cards[1], cards[2], cards[3]
            ),
            Event::MonteSplit { first, second } => write!(
                f,
                "seat {} takes {}, seat {} gets {}",
                first.0,
                show_set(&first.1),
                second.0,
                show_set(&second.1)
            ),
            Event::Discarded { seat, card } => {
                write!(f, "seat {seat} discards {}", show_card(card))
            }
            Event::Dealt { .. } | Event::Played { .. } | Event::TrickWon { .. } => {
                self.fmt_card_event(f)
            }
            Event::HandShown { seat, to, cards } => {
                write!(f, "seat {seat}'s hand shown to seat {to}: {cards}")
            }
            Event::MonteRevealed { to, cards } => write!(
                f,
                "seat {to} takes the set-aside monte: {}",
                show_set(cards)
            ),
            Event::Scored(o) => match o.as_ref() {
                HandOutcome::Void => write!(f, "void deal"),
                HandOutcome::Scored(s) => write!(
                    f,
                    "{} {} by seat {}: points {}-{}, tricks {}-{}, x{}, award {:?}",
                    s.contract,
                    if s.made { "made" } else { "failed" },
                    s.soloist,
                    s.points[0],
                    s.points[1],
                    s.tricks[0],
                    s.tricks[1],
                    s.multiplier,
                    &s.award.0[..4]
                ),
            },
        }
    }
}

impl EventFacts for Event {
    fn fact(&self) -> Option<HistoryFact> {
        Some(match *self {
            Event::Bid { seat, contract } => HistoryFact::Bid(seat, contract, None),
            Event::Discarded {
                seat,
                card: Some(card),
            } => HistoryFact::Discarded(seat, card),
            Event::MonteTaken { cards, .. } => {
                HistoryFact::MonteSeen(cards.map_or(CardSet::EMPTY, CardSet::from_iter))
            }
            Event::MonteReceived { cards, .. } => {
                HistoryFact::MonteSeen(cards.unwrap_or(CardSet::EMPTY))
            }
            Event::MonteShown { cards } => HistoryFact::MonteSeen(CardSet::from_iter(cards)),
            Event::MonteRevealed { cards, .. } => HistoryFact::MonteSeen(cards),
            _ => return card_fact(self),
        })
    }
}
