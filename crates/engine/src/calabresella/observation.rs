//! [`Observation`]: what one seat (or a spectator) may know, the only way hidden cards leave the
//! engine.

use crate::action::{Action, Contract};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{GameHand, HandRules, observation};
use crate::game::{Phase, Viewer};
use crate::seat::{PerSeat, Seat};

use super::event::Event;
use super::hand::Hand;
use super::options::Options;
use super::score::HandOutcome;

observation! {
    /// One seat's view of the game: public history, its own cards, what the rules let it see of
    /// others, and its legal actions when it must decide. Match totals are per seat.
    pub struct Observation(Options, Event, HandOutcome, PerSeat<u32>) {
        /// The idle dealer in a four-player game.
        pub idle: Option<Seat>,
        /// What the hand waits for.
        pub phase: Phase,
        /// Who takes the decision (the actor, or the person playing the dummy).
        pub decider: Option<Seat>,
        /// The highest bid so far.
        pub highest_bid: Option<(Seat, Contract)>,
        /// The soloist once known.
        pub soloist: Option<Seat>,
        /// The contract once known.
        pub contract: Option<Contract>,
        /// The called card in Chiamo.
        pub called: Option<Card>,
        /// Other seats' current hands this viewer may see: the a due dummy after the auction, the
        /// partner's hand in aperta after trick 1.
        pub visible_hands: Vec<(Seat, CardSet)>,
        /// Tricks won so far, `[soloist, defenders]`.
        pub side_tricks: [u32; 2],
    }
}

impl Observation {
    /// The stable numeric id of `action` for this viewer; `take` ids need the monte, which is
    /// public in scegliete.
    pub fn action_id(&self, action: &Action) -> Result<u16, crate::action::ActionIdError> {
        action.to_id(self.shown_monte().as_ref())
    }

    /// The action with id `id` for this viewer.
    pub fn action_from_id(&self, id: u16) -> Result<Action, crate::action::ActionIdError> {
        Action::from_id(id, self.shown_monte().as_ref())
    }

    /// The monte in deal order when it was turned face up (scegliete).
    pub fn shown_monte(&self) -> Option<[Card; 4]> {
        self.events.iter().find_map(|e| match e {
            Event::MonteShown { cards } => Some(*cards),
            _ => None,
        })
    }
}

impl Hand {
    /// Other seats' current hands `viewer` may see now: the a due dummy once the auction is
    /// over, the partner's hand in aperta after trick 1. The one place these rules live.
    pub fn visible_hands(&self, viewer: Viewer) -> Vec<(Seat, CardSet)> {
        let own = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        let mut visible_hands = Vec::new();
        if self.contract().is_some() {
            for seat in Seat::first_n(self.options().players) {
                if Some(seat) == own {
                    continue;
                }
                let dummy = self.options().a_due && seat == Options::DUMMY;
                let partner = self.options().aperta
                    && self.tricks_done() >= 1
                    && own.is_some_and(|v| {
                        let d = self.defenders().unwrap_or([v, v]);
                        d.contains(&v) && d.contains(&seat)
                    });
                if dummy || partner {
                    visible_hands.push((seat, self.hand_of(seat)));
                }
            }
        }
        visible_hands
    }

    /// The view of `viewer`: built from events passed through the visibility filter and from
    /// public counters, so nothing hidden can reach it.
    pub fn observation(&self, viewer: Viewer) -> Observation {
        let trick = self.trick().seated(|s| self.next_active(s));
        let own = OwnFields {
            idle: self.idle_seat(),
            phase: self.phase(),
            decider: self.decider(),
            highest_bid: self.highest_bid(),
            soloist: self.soloist(),
            contract: self.contract(),
            called: self.called(),
            visible_hands: self.visible_hands(viewer),
            side_tricks: self.side_tricks(),
        };
        Observation::assemble(self, viewer, trick, self.outcome().copied(), own)
    }
}
