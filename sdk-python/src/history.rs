//! The hand's history as the information-state tensor reads it: [`Fact`]s (the engine's
//! `HistoryFact`), which each game's observation lists from its own (already filtered) events,
//! or read here from a parsed wire view. Reading the engine's events directly skips the wire
//! round trip (a text per event, cards as strings, parsed back), which cost most of the
//! tensor's time; a test holds the two sources equal on every seat of random hands of every
//! game.

use calabresella_engine::game::{AnyObservation, View};
use calabresella_proto::v1;

use crate::view::PubEvent;

/// One history event, reduced to what the information-state tensor encodes.
pub use calabresella_engine::game::HistoryFact as Fact;

/// The fact a parsed wire event carries, if the tensor reads it.
pub fn fact_of_pub(e: &PubEvent) -> Option<Fact> {
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

/// Calls `visit` with the fact of each event of the engine's observation `o` that the
/// information-state tensor reads, in order.
pub fn facts(o: &AnyObservation, mut visit: impl FnMut(Fact)) {
    o.history(&mut visit);
}
