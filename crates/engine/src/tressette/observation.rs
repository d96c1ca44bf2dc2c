//! [`Observation`]: what one seat (or a spectator) may know of a Tressette hand.

use crate::game::{GameHand, Viewer, observation};

use super::event::Event;
use super::hand::Hand;
use super::options::Options;
use super::score::Outcome;

observation! {
    /// One seat's view: its own cards, the public history (accusi, cards played with their
    /// signals, tricks, cards drawn in Due), counts, and its legal actions when it must play.
    /// Match totals are per side (partnership, or player in Due).
    pub struct Observation(Options, Event, Outcome, [u32; 2]) {
        /// Cards left in the stock (Due; public count, hidden order).
        pub stock_left: u8,
    }
}

impl Hand {
    /// The view of `viewer`. Partners see nothing of each other's
    /// hands; the stock's order stays hidden; drawn cards are public.
    pub fn observation(&self, viewer: Viewer) -> Observation {
        let n = self.players();
        let trick = self.trick().seated(|s| s.next(n));
        let own = OwnFields {
            stock_left: self.stock().len() as u8,
        };
        Observation::assemble(self, viewer, trick, self.outcome().copied(), own)
    }
}
