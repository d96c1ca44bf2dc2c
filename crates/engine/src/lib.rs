//! The Calabresella rules engine: pure, synchronous and deterministic.
//!
//! It knows the 40-card Italian deck ([`Card`], [`CardSet`]), the trick-taking core shared by
//! the games here ([`trick`]), and the rules of Calabresella ([`calabresella`]). A game state
//! is a plain value you can clone and compare; randomness comes only from a seed you pass in;
//! hidden cards leave the engine only through per-seat observations.
//!
//! ```
//! use calabresella_engine::calabresella::{Match, Options, Viewer};
//! use calabresella_engine::Seat;
//!
//! let mut m = Match::seeded(Options::default(), 7, None).unwrap();
//! while let Some(seat) = m.decider() {
//!     // Every seat sees only its own view; here each plays its first legal action.
//!     let obs = m.observation(Viewer::Seat(seat)).unwrap();
//!     m.try_apply_as(seat, obs.legal_actions[0]).unwrap();
//! }
//! assert!(m.is_over());
//! println!("totals: {:?}", m.totals().first_n(3));
//! ```

pub mod action;
pub mod bots;
pub mod calabresella;
mod card;
mod cardset;
pub mod deals;
mod error;
mod playable;
pub mod record;
pub mod rng;
mod seat;
mod sink;
pub mod tressette;
pub mod trick;

pub use action::{Action, Contract, NUM_ACTION_IDS, Signal};
pub use card::{Card, NotationError, Rank, Suit};
pub use cardset::{CardSet, CardSetIter};
pub use error::IllegalAction;
pub use playable::Playable;
pub use seat::{PerSeat, Seat};
