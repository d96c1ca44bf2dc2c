//! The hand's history as the information-state tensor reads it: [`Fact`]s, taken straight from
//! the engine's (already filtered) events for in-process observations, or from a parsed wire
//! view. Reading the engine's events directly skips the wire round trip (a text per event,
//! cards as strings, parsed back), which cost most of the tensor's time; a test holds the two
//! sources equal on every seat of random hands of every game.

use calabresella_engine::game::{AnyObservation, Game};
use calabresella_engine::{Action, Card, CardSet, Contract, Promise, Seat};
use calabresella_proto::v1;

use crate::view::PubEvent;

/// One history event, reduced to what the information-state tensor encodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// A card played to a trick.
    Played(Seat, Card),
    /// Trick `number` (1-based) was completed.
    TrickWon(u32),
    /// A seat spoke in the auction: a contract, a Briscola bid, or a pass (both `None`).
    Bid(Seat, Option<Contract>, Option<Promise>),
    /// A card went into the set-aside monte (only its owner sees which).
    Discarded(Seat, Card),
    /// Monte cards the viewer saw (taken, received, shown or revealed).
    MonteSeen(CardSet),
    /// A card drawn from the stock (Tressette in Due).
    Drew(Card),
    /// A Tressette accuso and the cards it made public.
    Declared(Seat, CardSet),
}

impl Fact {
    /// The fact a parsed wire event carries, if the tensor reads it.
    pub fn of_pub(e: &PubEvent) -> Option<Fact> {
        use v1::EventKind as K;
        Some(match e.kind {
            K::Played => Fact::Played(e.seat?, e.card?),
            K::TrickWon => Fact::TrickWon(e.number),
            K::Bid => Fact::Bid(e.seat?, e.contract, e.promise),
            K::Discarded => Fact::Discarded(e.seat?, e.card?),
            K::MonteTaken | K::MonteReceived | K::MonteShown | K::MonteRevealed => {
                Fact::MonteSeen(e.cards)
            }
            K::Drew => Fact::Drew(e.card?),
            K::Declared => Fact::Declared(e.seat?, e.cards),
            _ => return None,
        })
    }
}

/// A game whose observation's events map to [`Fact`]s.
trait Facts: Game {
    /// Calls `visit` with the fact of each event of `o` the tensor reads, in order.
    fn facts(o: &Self::Observation, visit: &mut dyn FnMut(Fact));
}

impl Facts for calabresella_engine::calabresella::Match {
    fn facts(o: &Self::Observation, visit: &mut dyn FnMut(Fact)) {
        use calabresella_engine::calabresella::Event as E;
        for e in &o.events {
            visit(match *e {
                E::Played { seat, card, .. } => Fact::Played(seat, card),
                E::TrickWon { number, .. } => Fact::TrickWon(u32::from(number)),
                E::Bid { seat, contract } => Fact::Bid(seat, contract, None),
                E::Discarded {
                    seat,
                    card: Some(card),
                } => Fact::Discarded(seat, card),
                E::MonteTaken { cards, .. } => {
                    Fact::MonteSeen(cards.map_or(CardSet::EMPTY, CardSet::from_iter))
                }
                E::MonteReceived { cards, .. } => Fact::MonteSeen(cards.unwrap_or(CardSet::EMPTY)),
                E::MonteShown { cards } => Fact::MonteSeen(CardSet::from_iter(cards)),
                E::MonteRevealed { cards, .. } => Fact::MonteSeen(cards),
                _ => continue,
            });
        }
    }
}

impl Facts for calabresella_engine::tressette::Match {
    fn facts(o: &Self::Observation, visit: &mut dyn FnMut(Fact)) {
        use calabresella_engine::tressette::Event as E;
        for e in &o.events {
            visit(match *e {
                E::Played { seat, card, .. } => Fact::Played(seat, card),
                E::TrickWon { number, .. } => Fact::TrickWon(u32::from(number)),
                E::Drew { card, .. } => Fact::Drew(card),
                E::Declared { seat, accuso } => Fact::Declared(seat, accuso.cards()),
                _ => continue,
            });
        }
    }
}

impl Facts for calabresella_engine::chiamata::Match {
    fn facts(o: &Self::Observation, visit: &mut dyn FnMut(Fact)) {
        use calabresella_engine::chiamata::Event as E;
        for e in &o.events {
            visit(match *e {
                E::Played { seat, card, .. } => Fact::Played(seat, card),
                E::TrickWon { number, .. } => Fact::TrickWon(u32::from(number)),
                E::Spoke { seat, action } => match action {
                    Action::Bid(c) => Fact::Bid(seat, Some(c), None),
                    Action::Promise(p) => Fact::Bid(seat, None, Some(p)),
                    _ => Fact::Bid(seat, None, None),
                },
                _ => continue,
            });
        }
    }
}

macro_rules! facts_dispatch {
    ($($V:ident => $m:ident),* $(,)?) => {
        /// Calls `visit` with the fact of each event of the engine's observation `o` that the
        /// information-state tensor reads, in order.
        pub fn facts(o: &AnyObservation, mut visit: impl FnMut(Fact)) {
            match o {
                $(AnyObservation::$V(o) => {
                    <calabresella_engine::$m::Match as Facts>::facts(o, &mut visit)
                })*
            }
        }
    };
}

calabresella_engine::for_each_game!(facts_dispatch);
