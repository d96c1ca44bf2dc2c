//! Tressette (four players in two partnerships, seats 0+2 against 1+3) and Tressette in Due
//! (two players with a stock), on the trick-taking core shared with Calabresella. Decision IDs
//! T-D1 to T-D7 are in `docs/RULES.md`.
//!
//! ```
//! use calabresella_engine::game::Viewer;
//! use calabresella_engine::tressette::{Match, Options, Variant};
//!
//! let mut m = Match::seeded(Options::new(Variant::Due), 5, None).unwrap();
//! while let Some(seat) = m.actor() {
//!     let view = m.observation(Viewer::Seat(seat)).unwrap();
//!     m.try_apply_as(seat, view.legal_actions[0]).unwrap();
//! }
//! assert!(m.is_over());
//! ```

mod accusi;
mod bot;
mod deal;
mod event;
mod game;
mod hand;
mod impl_game;
mod observation;
mod options;
mod score;
mod world;

pub use accusi::{Accuso, declare};
pub use deal::{Deal, HAND_SIZE};
pub use event::Event;
pub use game::{Match, Tally, Tressette};
pub use hand::{Hand, side_of};
pub use observation::Observation;
pub use options::{Options, Variant};
pub use score::Outcome;
