//! Calabresella (Terziglio): three players (or four with an idle dealer), an escalating auction
//! of five contracts, one soloist against two defenders. Decision IDs C-D1 to C-D24 are in
//! `docs/RULES.md`.

mod deal;
mod event;
mod game;
mod hand;
mod observation;
mod options;
mod score;

pub use deal::{Deal, DealError, HAND_SIZE, active_seats};
pub use event::{Event, Viewer};
pub use game::{DealRefused, Match, MatchResult};
pub use hand::{ActionList, Hand, HandError, MAX_LEGAL, Phase, TRICKS};
pub use observation::Observation;
pub(crate) use options::json_option_text;
pub use options::{MatchEnd, OptionError, Options};
pub use score::{HandOutcome, Score, Side};
