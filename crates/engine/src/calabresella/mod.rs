//! Calabresella (Terziglio): three players (or four with an idle dealer), an escalating auction
//! of five contracts, one soloist against two defenders. Decision IDs C-D1 to C-D24 are in
//! `docs/RULES.md`.

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

pub use deal::{Deal, DealError, HAND_SIZE, active_seats};
pub use event::Event;
pub use game::{Calabresella, Match, Tally};
pub use hand::{Hand, TRICKS};
pub use observation::Observation;
pub use options::{MatchEnd, Options};
pub use score::{HandOutcome, Score, Side};
