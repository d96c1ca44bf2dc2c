//! The wire side of the engine's registry: [`WireGame`], which every game's wire module
//! implements, and the any-game conversions (rules, observations, events, game names) that
//! dispatch over the registered games without naming one.

use calabresella_engine::game::{
    AnyEvent, AnyObservation, Game, OptionDescription, OptionKind, Rules,
};

use super::WireError;
use crate::v1;

/// What a game needs on the wire. Implemented once per registered game (in `games/`);
/// the registry's [`calabresella_engine::for_each_game!`] makes a missing one a compile error.
pub trait WireGame: Game {
    /// The wire `Game` values of the variants this game module plays, with their registered
    /// names.
    const WIRE_GAMES: &'static [(v1::Game, &'static str)];
    /// Whether the game's totals may be negative: then only the `signed_*` total fields are
    /// filled, the unsigned ones left empty.
    const SIGNED_TOTALS: bool = false;
    /// The options on the wire, every field set.
    fn options_to_wire(opts: &Self::Options) -> v1::GameOptions;
    /// The options of wire game `game` when it is one of this module's (`None` otherwise):
    /// unset fields take the defaults; the result is validated.
    fn options_from_wire(
        game: v1::Game,
        rules: Option<&v1::game_options::Rules>,
    ) -> Option<Result<Self::Options, WireError>>;
    /// An observation on the wire.
    fn observation_to_wire(o: &Self::Observation) -> v1::Observation;
    /// An event (already filtered for its viewer) of hand `hand_number` on the wire.
    fn event_to_wire(hand_number: u32, e: &Self::Event) -> v1::Event;
}

macro_rules! wire_dispatch {
    ($($V:ident => $m:ident),* $(,)?) => {
        /// Every wire game with its registered name, in registration order.
        pub(crate) fn wire_games() -> impl Iterator<Item = (v1::Game, &'static str)> {
            std::iter::empty()
                $(.chain(
                    <calabresella_engine::$m::Match as WireGame>::WIRE_GAMES.iter().copied()
                ))*
        }

        /// The rules on the wire, every option set.
        pub fn rules(r: &Rules) -> v1::GameOptions {
            match r {
                $(Rules::$V(o) => {
                    <calabresella_engine::$m::Match as WireGame>::options_to_wire(o)
                })*
            }
        }

        /// The rules a client asked for: unset options take the engine defaults; the result is
        /// validated.
        pub fn rules_from_wire(w: &v1::GameOptions) -> Result<Rules, WireError> {
            let game = v1::Game::try_from(w.game)
                .map_err(|_| WireError::Options(format!("game {}", w.game)))?;
            if game == v1::Game::Unspecified {
                return Err(WireError::Options("the game is not set".into()));
            }
            if !w.settings.is_empty() {
                return rules_from_settings(game, w);
            }
            $(
                if let Some(o) = <calabresella_engine::$m::Match as WireGame>::options_from_wire(
                    game,
                    w.rules.as_ref(),
                ) {
                    return o.map(Rules::$V);
                }
            )*
            Err(WireError::Options(format!("game {}", w.game)))
        }

        /// Match totals for the wire's unsigned `totals` fields: the totals, or nothing for a
        /// game whose totals may be negative (its `signed_totals` carry them).
        pub fn unsigned_totals(r: &Rules, totals: &[i32]) -> Vec<u32> {
            let signed = match r {
                $(Rules::$V(_) => <calabresella_engine::$m::Match as WireGame>::SIGNED_TOTALS,)*
            };
            if signed {
                Vec::new()
            } else {
                totals.iter().map(|&t| t.max(0) as u32).collect()
            }
        }

        /// An observation of any game on the wire.
        pub fn observation(o: &AnyObservation) -> v1::Observation {
            let mut w = match o {
                $(AnyObservation::$V(o) => {
                    <calabresella_engine::$m::Match as WireGame>::observation_to_wire(o)
                })*
            };
            if w.signed_totals.is_empty() {
                w.signed_totals = w.totals.iter().map(|&t| t as i32).collect();
            }
            w
        }

        /// An event of any game (already filtered for its viewer) on the wire.
        pub fn event(hand_number: u32, e: &AnyEvent) -> v1::Event {
            match e {
                $(AnyEvent::$V(e) => {
                    <calabresella_engine::$m::Match as WireGame>::event_to_wire(hand_number, e)
                })*
            }
        }
    };
}

calabresella_engine::for_each_game!(wire_dispatch);

/// Match totals from a message's `signed_totals` and `totals`: the signed ones every game fills,
/// or the unsigned ones a server from before the calling games sent.
pub fn totals_of(signed: &[i32], unsigned: &[u32]) -> Vec<i32> {
    if signed.is_empty() {
        unsigned.iter().map(|&t| t as i32).collect()
    } else {
        signed.to_vec()
    }
}

/// The most settings one `GameOptions` may carry, and the longest key and value: a game has a
/// dozen options, and an error message echoes what it refuses.
pub const MAX_SETTINGS: usize = 64;
/// The longest setting key or value, in bytes.
pub const MAX_SETTING_LEN: usize = 256;

/// The rules of `GameOptions.settings`, read with the game's own grammar in the order of their
/// keys (so `a_due` comes before the `match_end` it sets, and a `target` after a `preset`).
/// Keys are compared as the grammar reads them (trimmed, any case): the same key twice is
/// refused rather than one of them silently winning.
fn rules_from_settings(game: v1::Game, w: &v1::GameOptions) -> Result<Rules, WireError> {
    if w.rules.is_some() {
        return Err(WireError::Options(
            "give the options as settings or as the game's typed rules, not both".into(),
        ));
    }
    if w.settings.len() > MAX_SETTINGS {
        return Err(WireError::Options(format!(
            "at most {MAX_SETTINGS} settings, not {}",
            w.settings.len()
        )));
    }
    let name =
        game_name(game as i32).ok_or_else(|| WireError::Options(format!("game {game:?}")))?;
    let mut pairs: Vec<(String, &str)> = Vec::with_capacity(w.settings.len());
    for (k, v) in &w.settings {
        if k.len() > MAX_SETTING_LEN || v.len() > MAX_SETTING_LEN {
            return Err(WireError::Options(format!(
                "a setting's key and value are at most {MAX_SETTING_LEN} bytes each"
            )));
        }
        pairs.push((k.trim().to_ascii_lowercase(), v.as_str()));
    }
    pairs.sort_unstable();
    if let Some(w) = pairs.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(WireError::Options(format!(
            "option {} is set twice",
            w[0].0
        )));
    }
    Rules::parse(name, pairs.iter().map(|(k, v)| (k.as_str(), *v)))
        .map_err(|e| WireError::Options(e.to_string()))
}

/// Every game on the wire with its seats and the description of each of its options, in
/// registration order (`ListGames`).
pub fn game_descriptions() -> Vec<v1::GameDescription> {
    wire_games()
        .filter_map(|(game, name)| {
            let rules = Rules::defaults(name)?;
            let options = rules.describe_options();
            let seats = u32::from(rules.seats());
            let (min_players, max_players) = options
                .iter()
                .find(|d| d.key == "players")
                .and_then(|d| match d.kind {
                    OptionKind::Number { min, max } => Some((min, max)),
                    _ => None,
                })
                .unwrap_or((seats, seats));
            Some(v1::GameDescription {
                game: game as i32,
                name: name.to_owned(),
                min_players,
                max_players,
                default_players: seats,
                options: options.into_iter().map(option_description).collect(),
            })
        })
        .collect()
}

/// One option's description on the wire.
fn option_description(d: OptionDescription) -> v1::OptionDescription {
    let (kind, min, max, choices) = match d.kind {
        OptionKind::Flag => (v1::OptionKind::Flag, 0, 0, Vec::new()),
        OptionKind::Number { min, max } => (v1::OptionKind::Number, min, max, Vec::new()),
        OptionKind::Choice(c) => (
            v1::OptionKind::Choice,
            0,
            0,
            c.iter().map(|s| (*s).to_owned()).collect(),
        ),
    };
    v1::OptionDescription {
        key: d.key.to_owned(),
        kind: kind as i32,
        min,
        max,
        choices,
        default_value: d.value.unwrap_or_default(),
        doc: d.doc.to_owned(),
    }
}

/// The wire game named `name` (a registered name: `calabresella`, `tressette`, ...).
pub fn game_by_name(name: &str) -> Option<v1::Game> {
    wire_games().find(|(_, n)| *n == name).map(|(g, _)| g)
}

/// The registered name of a wire game (`None` for unset or unknown values).
pub fn game_name(game: i32) -> Option<&'static str> {
    wire_games()
        .find(|(g, _)| *g as i32 == game)
        .map(|(_, n)| n)
}

/// The end reason named `name`, any case (`completed`, `forfeit`, `abandoned`, `shutdown`).
pub fn end_reason_by_name(name: &str) -> Option<v1::EndReason> {
    v1::EndReason::from_str_name(&format!("END_REASON_{}", name.to_ascii_uppercase()))
        .filter(|r| *r != v1::EndReason::Unspecified)
}

/// The short upper-case name of an end reason (`COMPLETED`, ...; "" for unset).
pub fn end_reason_name(reason: i32) -> &'static str {
    v1::EndReason::try_from(reason)
        .ok()
        .filter(|r| *r != v1::EndReason::Unspecified)
        .map_or("", |r| r.as_str_name().trim_start_matches("END_REASON_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_has_a_wire_game_and_round_trips_its_defaults() {
        let names: Vec<&str> = wire_games().map(|(_, n)| n).collect();
        assert_eq!(names, calabresella_engine::game::game_names());
        for (g, n) in wire_games() {
            assert_eq!(game_by_name(n), Some(g));
            assert_eq!(game_name(g as i32), Some(n));
            let r = rules_from_wire(&v1::GameOptions {
                settings: Default::default(),
                game: g as i32,
                rules: None,
            })
            .expect("defaults");
            assert_eq!(r, Rules::defaults(n).expect("registered"));
            assert_eq!(rules_from_wire(&rules(&r)), Ok(r));
        }
        assert_eq!(game_by_name("skat"), None);
        assert_eq!(game_name(v1::Game::Unspecified as i32), None);
    }

    #[test]
    fn end_reason_names_round_trip() {
        for r in [
            v1::EndReason::Completed,
            v1::EndReason::Forfeit,
            v1::EndReason::Abandoned,
            v1::EndReason::Shutdown,
        ] {
            let name = end_reason_name(r as i32);
            assert_eq!(end_reason_by_name(name), Some(r));
            assert_eq!(end_reason_by_name(&name.to_ascii_lowercase()), Some(r));
        }
        assert_eq!(end_reason_name(0), "");
        assert_eq!(end_reason_by_name("unspecified"), None);
        assert_eq!(end_reason_by_name("resigned"), None);
    }
}
