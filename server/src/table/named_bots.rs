//! The built-in bots a seat names (`pimc:ms=100`, `heuristic`): how each is shown as a player,
//! and how long a thinking one takes to answer.

use std::time::Duration;

use calabresella_engine::bots::BotSpec;

use super::TableSpec;

/// How a named bot is shown: `pimc bot` (`ismcts bot`, `best bot`) with the default budget
/// (whatever the server's time cap), else its name with its parameters
/// (`pimc:worlds=8:ms=100 bot`): bots of different strength are different players in the
/// results table.
pub(crate) fn named_bot_name(name: &str) -> String {
    if crate::bot_spec::is_submitted(name) {
        // `submitted:NAME@VERSION`, as records and results name it.
        return name.to_owned();
    }
    match BotSpec::parse(name) {
        Ok(spec) if spec.default_strength() => format!("{} bot", spec.name()),
        _ => format!("{name} bot"),
    }
}

/// The time budget in a search bot's name (`pimc:...:ms=100`), which the server always sets.
pub(super) fn think_time(name: &str) -> Option<Duration> {
    let spec = BotSpec::parse(name).ok().filter(BotSpec::thinks)?;
    Some(Duration::from_millis(u64::from(spec.ms()?)))
}

/// The bot named for seat `i` (empty when the seat has none).
pub(super) fn bot_name(spec: &TableSpec, i: usize) -> &str {
    spec.bots.get(i).map_or("", String::as_str)
}
