//! The rules engine of the Italian trick-taking games: pure, synchronous and deterministic.
//!
//! It knows the 40-card Italian deck ([`Card`], [`CardSet`]), the trick-taking core the games
//! share ([`trick`]), and the games themselves: Calabresella ([`calabresella`]) and Tressette
//! with Tressette in Due ([`tressette`]). Every game implements one interface
//! ([`game::Game`]) and is registered once by name ([`for_each_game!`]); surfaces play any
//! game through [`game::AnyMatch`]. A game state is a plain value you can clone and compare;
//! randomness comes only from a seed you pass in; hidden cards leave the engine only through
//! per-seat observations.
//!
//! ```
//! use calabresella_engine::game::{AnyMatch, Rules, Viewer};
//!
//! let rules = Rules::parse("calabresella", [("players", "4")]).unwrap();
//! let mut m = AnyMatch::seeded(rules, 7, None).unwrap();
//! while let Some(seat) = m.decider() {
//!     // Every seat sees only its own view; here each plays its first legal action.
//!     let obs = m.observation(Viewer::Seat(seat)).unwrap();
//!     m.try_apply_as(seat, obs.legal_actions()[0]).unwrap();
//! }
//! assert!(m.is_over());
//! println!("totals: {:?}", m.totals());
//! ```

pub mod action;
pub mod bots;
pub mod calabresella;
mod card;
mod cardset;
pub mod chiamata;
pub mod deals;
mod error;
pub mod fair;
pub mod game;
pub mod record;
pub mod rng;
pub mod search;
mod seat;
pub mod sink;
pub mod tressette;
pub mod trick;

pub use action::{Action, Contract, NUM_ACTION_IDS, Promise, Signal};
pub use card::{Card, NotationError, Rank, Suit};
pub use cardset::{CardSet, CardSetIter};
pub use error::IllegalAction;
pub use seat::{PerSeat, SLOTS, Seat};
