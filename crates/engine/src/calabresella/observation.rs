//! [`Observation`]: what one seat (or a spectator) may know, the only way hidden cards leave the
//! engine.

use crate::action::{Action, Contract};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::GameHand;
use crate::game::HandRules;
use crate::game::{HistoryFact, View};
use crate::seat::{PerSeat, Seat};

use super::event::Event;
use super::hand::Hand;
use super::options::Options;
use super::score::HandOutcome;
use crate::game::{Phase, Viewer};

/// One seat's view of the game: public history, its own cards, what the rules let it see of
/// others, and its legal actions when it must decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// Whose view this is.
    pub viewer: Viewer,
    /// The rules in force.
    pub options: Options,
    /// Hand number in the match, 0-based (void deals count).
    pub hand_number: u32,
    /// The dealer of this hand.
    pub dealer: Seat,
    /// The idle dealer in a four-player game.
    pub idle: Option<Seat>,
    /// Match totals so far (this hand's award included once it is scored).
    pub totals: PerSeat<u32>,
    /// Outcomes of the match's earlier hands (public).
    pub previous: Vec<HandOutcome>,
    /// What the hand waits for.
    pub phase: Phase,
    /// Whose decision it is (in a due, possibly the dummy's seat).
    pub actor: Option<Seat>,
    /// Who takes that decision (the actor, or the person playing the dummy).
    pub decider: Option<Seat>,
    /// The highest bid so far.
    pub highest_bid: Option<(Seat, Contract)>,
    /// The soloist once known.
    pub soloist: Option<Seat>,
    /// The contract once known.
    pub contract: Option<Contract>,
    /// The called card in Chiamo.
    pub called: Option<Card>,
    /// The viewer's own cards now (empty for a spectator and the idle dealer).
    pub hand: CardSet,
    /// Other seats' current hands this viewer may see: the a due dummy after the auction, the
    /// partner's hand in aperta after trick 1.
    pub visible_hands: Vec<(Seat, CardSet)>,
    /// How many cards each seat holds now (public).
    pub hand_sizes: PerSeat<u8>,
    /// The trick in progress, in play order.
    pub trick: Vec<(Seat, Card)>,
    /// Completed tricks.
    pub tricks_done: u8,
    /// Tricks won so far, `[soloist, defenders]`.
    pub side_tricks: [u32; 2],
    /// Everything that happened this hand, as this viewer may see it.
    pub events: Vec<Event>,
    /// The viewer's legal actions when it must decide, else empty.
    pub legal_actions: Vec<Action>,
    /// The hand's outcome once over.
    pub outcome: Option<HandOutcome>,
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
                E::Bid { seat, contract } => HistoryFact::Bid(seat, contract, None),
                E::Discarded {
                    seat,
                    card: Some(card),
                } => HistoryFact::Discarded(seat, card),
                E::MonteTaken { cards, .. } => {
                    HistoryFact::MonteSeen(cards.map_or(CardSet::EMPTY, CardSet::from_iter))
                }
                E::MonteReceived { cards, .. } => {
                    HistoryFact::MonteSeen(cards.unwrap_or(CardSet::EMPTY))
                }
                E::MonteShown { cards } => HistoryFact::MonteSeen(CardSet::from_iter(cards)),
                E::MonteRevealed { cards, .. } => HistoryFact::MonteSeen(cards),
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
        let events = self.events_seen_by(viewer);
        let own = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        let visible_hands = self.visible_hands(viewer);
        let decider = self.decider();
        let legal_actions = self.legal_actions_of(viewer);
        let hand_sizes = PerSeat::from_fn(self.options().players, |s| self.hand_of(s).len() as u8);
        let trick = self.trick().seated(|s| self.next_active(s));
        Observation {
            viewer,
            options: *self.options(),
            hand_number: 0,
            dealer: self.dealer(),
            idle: self.idle_seat(),
            totals: PerSeat::splat(0),
            previous: Vec::new(),
            phase: self.phase(),
            actor: self.actor(),
            decider,
            highest_bid: self.highest_bid(),
            soloist: self.soloist(),
            contract: self.contract(),
            called: self.called(),
            hand: own.map_or(CardSet::EMPTY, |s| self.hand_of(s)),
            visible_hands,
            hand_sizes,
            trick,
            tricks_done: self.tricks_done(),
            side_tricks: self.side_tricks(),
            events,
            legal_actions,
            outcome: self.outcome().copied(),
        }
    }
}
