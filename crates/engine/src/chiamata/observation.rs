//! [`Observation`]: what one seat (or a spectator) may know of a calling-game hand (CH-D2).

use crate::action::Action;
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::game::GameHand;
use crate::game::HandRules;
use crate::game::{HistoryFact, View};
use crate::game::{Phase, Viewer};
use crate::seat::{PerSeat, Seat};

use super::event::Event;
use super::hand::{Hand, Role};
use super::options::Options;
use super::score::Outcome;

/// One seat's view. Every field is public, or the viewer's own: no field names the partner
/// before the called card is played, except in the holder's own view (CH-D2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// Whose view this is.
    pub viewer: Viewer,
    /// The rules in force.
    pub options: Options,
    /// Hand number in the match, 0-based (void deals count).
    pub hand_number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// Match totals per seat (may be negative).
    pub totals: PerSeat<i32>,
    /// Outcomes of the match's earlier scored hands.
    pub previous: Vec<Outcome>,
    /// What the hand waits for.
    pub phase: Phase,
    /// Who acts next.
    pub actor: Option<Seat>,
    /// The viewer's cards now.
    pub hand: CardSet,
    /// How many cards each seat holds.
    pub hand_sizes: PerSeat<u8>,
    /// The highest bid so far and who made it.
    pub highest: Option<(Seat, Action)>,
    /// The caller, once the auction is won.
    pub caller: Option<Seat>,
    /// The winning bid.
    pub bid: Option<Action>,
    /// The called card.
    pub called: Option<Card>,
    /// Briscola Chiamata: the trump suit once called.
    pub trump: Option<Suit>,
    /// What the caller's side needs: 6 points, or 61 or N card points.
    pub target: Option<u32>,
    /// The partner's seat: set once the called card is played, and in the holder's own view.
    pub partner: Option<Seat>,
    /// Whether the caller plays alone, as the viewer knows it: public after `bid solo` or once
    /// the called card is out; the caller knows it from his call.
    pub alone: bool,
    /// The viewer's own role (none before the auction is won, and for a spectator).
    pub role: Option<Role>,
    /// The trick in progress, in play order.
    pub trick: Vec<(Seat, Card)>,
    /// Completed tricks.
    pub tricks_done: u8,
    /// Points each seat has captured: thirds (Tressette), card points (Briscola).
    pub seat_points: PerSeat<u32>,
    /// Everything that happened this hand, as the viewer may see it.
    pub events: Vec<Event>,
    /// The viewer's legal actions when it must act, else empty.
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
                E::Spoke { seat, action } => match action {
                    Action::Bid(c) => HistoryFact::Bid(seat, Some(c), None),
                    Action::Promise(p) => HistoryFact::Bid(seat, None, Some(p)),
                    _ => HistoryFact::Bid(seat, None, None),
                },
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
    /// The partner as `viewer` may know it: once the called card is out, or the holder
    /// himself.
    pub fn partner_seen_by(&self, viewer: Viewer) -> Option<Seat> {
        let partner = self.partner()?;
        (self.partner_revealed() || viewer == Viewer::Seat(partner)).then_some(partner)
    }

    /// Whether `viewer` knows that the caller plays alone.
    pub fn alone_seen_by(&self, viewer: Viewer) -> bool {
        self.is_alone()
            && (self.is_solo()
                || self.partner_revealed()
                || (viewer.seat().is_some() && viewer.seat() == self.caller()))
    }

    /// The view of `viewer`.
    pub fn observation(&self, viewer: Viewer) -> Observation {
        let n = self.players();
        Observation {
            viewer,
            options: *self.options(),
            hand_number: 0,
            dealer: self.dealer(),
            totals: PerSeat::splat(0),
            previous: Vec::new(),
            phase: self.phase(),
            actor: self.actor(),
            hand: viewer.seat().map_or(CardSet::EMPTY, |v| self.hand_of(v)),
            hand_sizes: PerSeat::from_fn(n, |s| self.hand_of(s).len() as u8),
            highest: self.highest(),
            caller: self.caller(),
            bid: self.bid(),
            called: self.called(),
            trump: self.trump(),
            target: self.target(),
            partner: self.partner_seen_by(viewer),
            alone: self.alone_seen_by(viewer),
            role: viewer.seat().and_then(|s| self.role_of(s)),
            trick: self.trick().seated(|s| s.next(n)),
            tricks_done: self.tricks_done(),
            seat_points: PerSeat::from_fn(n, |s| self.seat_points(s)),
            events: self.events_seen_by(viewer),
            legal_actions: self.legal_actions_of(viewer),
            outcome: self.outcome().copied(),
        }
    }
}
