//! The game-neutral side of the engine: the shared vocabulary ([`Viewer`], [`Phase`],
//! [`MatchResult`], option and set-up errors), the one interface each game implements
//! ([`Game`], [`GameHand`], [`Rollout`], [`View`]), and the registry of games by name with the
//! any-game types every surface holds ([`Rules`], [`AnyMatch`], [`AnyObservation`],
//! [`AnyEvent`]).
//!
//! ```
//! use calabresella_engine::game::{AnyMatch, Rules, Viewer};
//!
//! for name in calabresella_engine::game::game_names() {
//!     let rules = Rules::parse(name, []).unwrap();
//!     let mut m = AnyMatch::seeded(rules, 7, None).unwrap();
//!     while let Some(seat) = m.decider() {
//!         // Each seat sees only its own view; here it plays its first legal action.
//!         let obs = m.observation(Viewer::Seat(seat)).unwrap();
//!         m.try_apply_as(seat, obs.legal_actions()[0]).unwrap();
//!     }
//!     assert!(m.result().is_some());
//! }
//! ```

mod driver;
mod features;
mod hand_core;
mod observation;
mod option_spec;
mod registry;
mod traits;
mod vocab;

pub use driver::{DealFor, HandRules, Match, MatchRules, ObservationFor, OptionsFor};
pub(crate) use driver::{apply_quiet, earlier_outcomes, replay_events};
pub use features::{Features, HistoryFact};
pub use hand_core::HandCore;
pub use observation::EventFacts;
pub(crate) use observation::{card_fact, observation, public_but_deals};
pub use option_spec::{
    GameOptions, MAX_DEALS, OptionDescription, OptionKind, read_choice, read_fixed_players,
    read_flag, read_number,
};
pub use registry::{
    AnyEvent, AnyMatch, AnyObservation, Rules, RulesError, every_option_set, game_names,
};
pub use traits::{Game, GameHand, Rollout, View};
pub use vocab::{
    ActionList, CardPlaces, DealError, DealRefused, DealtCards, GameFacts, HandError, MAX_LEGAL,
    MatchResult, OptionError, Phase, Viewer,
};
