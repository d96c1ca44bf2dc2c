//! Every conversion between engine types and `calabresella.v1` wire types, in one place, split
//! by concern: cards and seats, actions, what every game's view shares, each game's own
//! mapping (`games/`), and the any-game dispatch over the engine's registry.
//!
//! Engine → wire conversions cannot fail. Wire → engine conversions check everything a client
//! may get wrong and return a [`WireError`] naming it; they never panic.

mod actions;
mod any;
mod cards;
mod games;
mod view;

use thiserror::Error;

pub use actions::{action, action_from_wire};
pub use any::{
    WireGame, end_reason_by_name, end_reason_name, event, game_by_name, game_descriptions,
    game_name, observation, rules, rules_from_wire, totals_of, unsigned_totals,
};
pub use cards::{
    card, card_from_wire, card_list, cards, contract, contract_from_wire, seat_from_wire, signal,
};

/// A wire value the engine cannot accept. `Display` is a message for the client.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WireError {
    /// A card that is not one of the 40.
    #[error("bad card: {0}")]
    Card(String),
    /// An action that does not parse or names no action.
    #[error("bad action: {0}")]
    Action(String),
    /// The forms of an action (notation, id, typed fields) disagree.
    #[error("the action's forms disagree: {0}")]
    Mismatch(String),
    /// Rule options the engine refuses.
    #[error("bad options: {0}")]
    Options(String),
}
