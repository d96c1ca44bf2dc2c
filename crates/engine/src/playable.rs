//! [`Playable`]: the seat-facing side of any game's match, shared by bots and record replay.

use crate::action::Action;
use crate::calabresella::{self, Match, Viewer};
use crate::error::IllegalAction;
use crate::seat::Seat;
use crate::tressette;

use crate::bots::View;

/// A match bots can sit at: whose decision it is, that seat's view, and acting as that seat.
pub trait Playable {
    /// The game's observation type.
    type Obs: View;
    /// The seat whose turn it is (in Calabresella a due possibly the dummy's), or `None` when
    /// nobody may act (the match is over, or it waits for a deal).
    fn actor(&self) -> Option<Seat> {
        self.decider()
    }
    /// The seat that decides now (the actor, or the person playing the dummy).
    fn decider(&self) -> Option<Seat>;
    /// The view of `seat`.
    fn view(&self, seat: Seat) -> Option<Self::Obs>;
    /// Applies `action` for `seat`; on error nothing changes.
    fn act_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction>;
}

impl Playable for Match {
    type Obs = calabresella::Observation;
    fn actor(&self) -> Option<Seat> {
        Match::actor(self)
    }
    fn decider(&self) -> Option<Seat> {
        Match::decider(self)
    }
    fn view(&self, seat: Seat) -> Option<Self::Obs> {
        self.observation(Viewer::Seat(seat))
    }
    fn act_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.try_apply_as(seat, action)
    }
}

impl Playable for tressette::Match {
    type Obs = tressette::Observation;
    fn decider(&self) -> Option<Seat> {
        self.actor()
    }
    fn view(&self, seat: Seat) -> Option<Self::Obs> {
        self.observation(Some(seat))
    }
    fn act_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.try_apply_as(seat, action)
    }
}

/// The allocation-free fast path every game's hand offers, for search and self-play.
pub trait Rollout {
    /// Whether the hand is over.
    fn is_over(&self) -> bool;
    /// How many legal actions there are now.
    fn num_legal_actions(&self) -> usize;
    /// The `i`-th legal action.
    fn legal_action(&self, i: usize) -> Option<Action>;
    /// Applies a legal action without checking it.
    fn apply_unchecked(&mut self, action: Action);
    /// Plays the hand out at random; returns the number of actions.
    fn playout_random(&mut self, rng: &mut crate::rng::GameRng) -> usize;
}

macro_rules! rollout_for {
    ($hand:ty) => {
        impl Rollout for $hand {
            fn is_over(&self) -> bool {
                <$hand>::is_over(self)
            }
            fn num_legal_actions(&self) -> usize {
                <$hand>::num_legal_actions(self)
            }
            fn legal_action(&self, i: usize) -> Option<Action> {
                <$hand>::legal_action(self, i)
            }
            fn apply_unchecked(&mut self, action: Action) {
                <$hand>::apply_unchecked(self, action)
            }
            fn playout_random(&mut self, rng: &mut crate::rng::GameRng) -> usize {
                <$hand>::playout_random(self, rng)
            }
        }
    };
}

rollout_for!(calabresella::Hand);
rollout_for!(tressette::Hand);
