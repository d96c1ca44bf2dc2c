//! Tressette con la Chiamata (five players, or four; TC-D1 to TC-D16) and Briscola Chiamata
//! (five players; BC-D1 to BC-D13): the two calling games of the Tressette rule text. One
//! auction winner calls a card; whoever holds it is his **secret partner** until the card is
//! played (CH-D1 to CH-D6). They share this module because the auction's shape, the call, the
//! secret partner, the per-seat tricks and the zero-sum payout are the same rules; the card
//! order, points, trumps and bids differ by [`Variant`].
//!
//! ```
//! use calabresella_engine::chiamata::{Match, Options, Variant};
//! use calabresella_engine::game::Viewer;
//!
//! let mut m = Match::seeded(Options::new(Variant::Briscola), 5, None).unwrap();
//! while let Some(seat) = m.actor() {
//!     let view = m.observation(Viewer::Seat(seat)).unwrap();
//!     m.try_apply_as(seat, view.legal_actions[0]).unwrap();
//! }
//! assert!(m.is_over());
//! ```

mod bot;
mod cards;
mod deal;
mod event;
mod game;
mod hand;
mod impl_game;
mod observation;
mod options;
mod score;
mod world;

pub use cards::{briscola_order, briscola_points, briscola_points_of, briscola_strength};
pub use deal::Deal;
pub use event::Event;
pub use game::{Chiamata, Match, Tally};
pub use hand::{Hand, Role, target_multiplier};
pub use observation::Observation;
pub use options::{Auction, FirstLead, MAX_HANDS, Options, Variant};
pub use score::{Outcome, payout};
