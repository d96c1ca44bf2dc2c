//! [`Observation`]: what one seat (or a spectator) may know of a calling-game hand (CH-D2).

use crate::action::Action;
use crate::card::{Card, Suit};
use crate::game::{GameHand, Phase, Viewer, observation};
use crate::seat::{PerSeat, Seat};

use super::event::Event;
use super::hand::{Hand, Role};
use super::options::Options;
use super::score::Outcome;

observation! {
    /// One seat's view. Every field is public, or the viewer's own: no field names the partner
    /// before the called card is played, except in the holder's own view (CH-D2).
    /// Match totals are per seat (may be negative).
    pub struct Observation(Options, Event, Outcome, PerSeat<i32>) {
        /// What the hand waits for.
        pub phase: Phase,
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
        /// Points each seat has captured: thirds (Tressette), card points (Briscola).
        pub seat_points: PerSeat<u32>,
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
        let trick = self.trick().seated(|s| s.next(n));
        let own = OwnFields {
            phase: self.phase(),
            highest: self.highest(),
            caller: self.caller(),
            bid: self.bid(),
            called: self.called(),
            trump: self.trump(),
            target: self.target(),
            partner: self.partner_seen_by(viewer),
            alone: self.alone_seen_by(viewer),
            role: viewer.seat().and_then(|s| self.role_of(s)),
            seat_points: PerSeat::from_fn(n, |s| self.seat_points(s)),
        };
        Observation::assemble(self, viewer, trick, self.outcome().copied(), own)
    }
}
