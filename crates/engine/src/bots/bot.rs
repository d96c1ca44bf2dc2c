//! [`Bot`], what every player program is to the engine: the built-in bots here and the search
//! bots of `crate::search` alike (it is apart from the bots' names, which name search bots).

use crate::action::Action;
use crate::game::AnyObservation;

/// A player program for the game whose observations are `O` (by default any registered game).
/// `act` is called only when the observation's legal actions are non-empty, and must return one
/// of them.
pub trait Bot<O = AnyObservation> {
    /// A short name for summaries.
    fn name(&self) -> &str;
    /// Chooses one of the observation's legal actions.
    fn act(&mut self, obs: &O) -> Action;
}
