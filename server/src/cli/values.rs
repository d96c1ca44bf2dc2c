//! The values the command line takes, each parsed by clap into a type (so a wrong value is a
//! usage error that lists the allowed ones): games from the engine's registry, seat kinds as
//! the Python package names them, built-in bots, timeout policies, automatic play, end reasons
//! and benchmark drivers.

use calabresella_client::requests;
use calabresella_proto::v1;
use clap::ValueEnum;

/// The registered game names, for `--game`.
pub fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(calabresella_engine::game::game_names())
}

/// A seat by name: open (or human, player), random (or bot), heuristic, or a search bot
/// (`pimc`, `ismcts`, `best`) with an optional budget after a colon (`pimc:ms=50`).
pub fn seat_kind(name: &str) -> Result<requests::SeatChoice, requests::NameError> {
    requests::seat(name)
}

/// A table state by name: waiting, playing, finished, abandoned.
pub fn table_state(name: &str) -> Result<v1::TableState, requests::NameError> {
    requests::table_state(Some(name))
}

/// A built-in bot by name, with its parameters where it takes them: `random`, `heuristic`,
/// `pimc` or `pimc:ms=50:worlds=64`, `ismcts`, `best`. Checked when the command line is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotName(String);

impl BotName {
    /// The engine's name of the bot, parameters included.
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for BotName {
    type Err = String;
    fn from_str(s: &str) -> Result<BotName, String> {
        calabresella_engine::bots::bot_from_spec(s, 0)
            .map(|_| BotName(s.trim().to_ascii_lowercase()))
            .map_err(|e| e.to_string())
    }
}

/// What a timeout does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnTimeout {
    /// A bot answers for the seat.
    Bot,
    /// The seat forfeits the match.
    Forfeit,
}

impl OnTimeout {
    /// The wire policy.
    pub fn wire(self) -> v1::TimeoutPolicy {
        match self {
            OnTimeout::Bot => v1::TimeoutPolicy::Bot,
            OnTimeout::Forfeit => v1::TimeoutPolicy::Forfeit,
        }
    }
}

/// How `sit` plays without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AutoPlay {
    /// The first legal action.
    First,
    /// A uniformly random legal action.
    Random,
}

/// How a finished match ended, as a filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EndReason {
    /// Played to the end.
    Completed,
    /// A seat forfeited.
    Forfeit,
    /// Nobody came.
    Abandoned,
}

impl EndReason {
    /// The reason's name.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Completed => "completed",
            EndReason::Forfeit => "forfeit",
            EndReason::Abandoned => "abandoned",
        }
    }
}

/// Which path `bench` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchDriver {
    /// The engine's rollout.
    Playout,
    /// The per-action API.
    Api,
    /// Both.
    Both,
}
