//! Search for hidden-card games: sample the worlds a seat cannot tell apart ([`world`]), solve
//! one world's remaining play exactly ([`solver`]), and decide by the average over worlds
//! ([`pimc`], perfect-information Monte Carlo).
//!
//! Every game takes part through two per-game pieces, kept in its own module (`world.rs`): a
//! [`WorldSampler`] built from one seat's observation, never from the hand, and the
//! [`Searchable`] facts a full-information search needs (sides, the hand's value, a position
//! key).

pub mod analysis;
mod assign;
pub mod best;
mod figures;
pub mod ismcts;
pub mod pimc;
pub mod solver;
pub mod world;

pub use analysis::{Analysis, AnalysisOptions, analyse};
pub use assign::{Assigner, Layout, LayoutError, MAX_PLACES};
pub use best::{BestBot, BestBudget, Chooser};
pub use figures::{SearchFigures, search_figures};
pub use ismcts::{Finish, IsmctsBot, IsmctsBudget};
pub use pimc::{Budget, PimcBot, PimcError};
pub use solver::Solver;
pub use world::{WorldError, WorldSampler};

use crate::game::HandRules;
use crate::seat::Seat;

/// What a full-information search needs of a hand beyond [`Rollout`](crate::game::Rollout): who moves, the sides
/// (known in a sampled world), the value of a finished hand, and a key for the position.
pub trait Searchable: HandRules {
    /// The seat whose decision it is now (a dummy's seat counts as its own: it is on a side).
    fn to_move(&self) -> Option<Seat> {
        self.actor()
    }
    /// The side of `seat`: 0 or 1 once the sides are known (the soloist's or caller's side is
    /// 0), 2 for a seat out of the hand or while the sides are not formed yet.
    fn side(&self, seat: Seat) -> u8;
    /// Once the hand is over: what it was worth to `seat`'s side, as a zero-sum figure (its
    /// award less the other side's, or the seat's own award where awards are zero-sum).
    fn value(&self, seat: Seat) -> i32;
    /// `seat`'s share of the hand's one signed unit: in every finish of this hand,
    /// [`Searchable::value`] of each seat is its scale times the same unit, so one exact solve
    /// values every seat. By default 1 for side 0, -1 for side 1 and 0 for a seat out of the
    /// hand (the sides' values are opposite).
    fn value_scale(&self, seat: Seat) -> i32 {
        match self.side(seat) {
            0 => 1,
            1 => -1,
            _ => 0,
        }
    }
    /// Once the hand is over: `seat`'s side's card points less the other side's, as a share of
    /// all the points (-1 to 1); 0 where the value already counts the points. A search whose
    /// value is coarse (a made or failed contract) may break its ties with it.
    fn points_margin(&self, _seat: Seat) -> f64 {
        0.0
    }
    /// Whether the hand is in its card play (the solver's domain).
    fn in_play(&self) -> bool;
    /// Tricks still to be completed, the current one included.
    fn tricks_left(&self) -> u32;
    /// A key for the position: equal for positions with the same cards in the same places, the
    /// same trick and the same seat to move (the transposition table's key within one world).
    fn key(&self) -> u64 {
        places_key(&self.card_places(), self.actor())
    }
}

/// A search bot's parameters (`worlds=64:ms=50`, or with commas) as trimmed `(key, value)`
/// pairs, empty ones skipped; a key without `=` has an empty value.
pub(crate) fn parameters(spec: &str) -> impl Iterator<Item = (&str, &str)> {
    spec.split([',', ':'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (key.trim(), value.trim())
        })
}

/// Mixes `x` into the running key `h` (a 64-bit multiply-xorshift step).
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    let v = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    v ^ (v >> 29)
}

/// The key of a position from where every card is, the trick's cards and who moves.
pub(crate) fn places_key(places: &crate::game::CardPlaces, mover: Option<Seat>) -> u64 {
    let mut h = mix(0, mover.map_or(7, |s| s.index() as u64));
    for s in Seat::ALL {
        h = mix(h, places.hands[s].bits());
    }
    h = mix(h, places.trick.bits());
    h = mix(h, places.won[0].bits());
    mix(h, places.won[1].bits())
}
