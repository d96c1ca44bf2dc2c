//! [`Observation`]: what one seat (or a spectator) may know of a Tressette hand.

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::GameHand;
use crate::game::HandRules;
use crate::game::{HistoryFact, View, Viewer};
use crate::seat::{PerSeat, Seat};

use super::event::Event;
use super::hand::Hand;
use super::options::Options;
use super::score::Outcome;

/// One seat's view: its own cards, the public history (accusi, cards played with their signals,
/// tricks, cards drawn in Due), counts, and its legal actions when it must play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// Whose view this is.
    pub viewer: Viewer,
    /// The rules in force.
    pub options: Options,
    /// Hand number in the match, 0-based.
    pub hand_number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// Match totals per side (partnership, or player in Due).
    pub totals: [u32; 2],
    /// Outcomes of the match's earlier hands.
    pub previous: Vec<Outcome>,
    /// Who plays next.
    pub actor: Option<Seat>,
    /// The viewer's cards now.
    pub hand: CardSet,
    /// How many cards each seat holds (public).
    pub hand_sizes: PerSeat<u8>,
    /// Cards left in the stock (Due; public count, hidden order).
    pub stock_left: u8,
    /// The trick in progress, in play order.
    pub trick: Vec<(Seat, Card)>,
    /// Completed tricks.
    pub tricks_done: u8,
    /// Everything that happened this hand, as the viewer may see it.
    pub events: Vec<Event>,
    /// The viewer's legal actions when it must play, else empty.
    pub legal_actions: Vec<Action>,
    /// The hand's outcome once over.
    pub outcome: Option<Outcome>,
}

impl Observation {
    /// Every card played to a trick so far this hand (public).
    pub fn played(&self) -> CardSet {
        crate::trick::cards_played(&self.events)
    }
}

impl View for Observation {
    fn history(&self, visit: &mut dyn FnMut(HistoryFact)) {
        use super::event::Event as E;
        for e in &self.events {
            visit(match *e {
                E::Drew { card, .. } => HistoryFact::Drew(card),
                E::Declared { seat, accuso } => HistoryFact::Declared(seat, accuso.cards()),
                E::Played { seat, card, .. } => HistoryFact::Played(seat, card),
                E::TrickWon { number, .. } => HistoryFact::TrickWon(u32::from(number)),
                _ => continue,
            });
        }
    }
    fn legal_actions(&self) -> &[Action] {
        &self.legal_actions
    }
}

impl Hand {
    /// The view of `viewer`. Partners see nothing of each other's
    /// hands; the stock's order stays hidden; drawn cards are public.
    pub fn observation(&self, viewer: Viewer) -> Observation {
        let n = self.players();
        let hand_sizes = PerSeat::from_fn(n, |s| self.hand_of(s).len() as u8);
        let trick = self.trick().seated(|s| s.next(n));
        Observation {
            viewer,
            options: *self.options(),
            hand_number: 0,
            dealer: self.dealer(),
            totals: [0; 2],
            previous: Vec::new(),
            actor: self.actor(),
            hand: viewer.seat().map_or(CardSet::EMPTY, |v| self.hand_of(v)),
            hand_sizes,
            stock_left: self.stock().len() as u8,
            trick,
            tricks_done: self.tricks_done(),
            events: self.events_seen_by(viewer),
            legal_actions: self.legal_actions_of(viewer),
            outcome: self.outcome().copied(),
        }
    }
}
