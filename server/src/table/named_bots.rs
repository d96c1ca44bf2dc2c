//! The built-in bots a seat names (`pimc:ms=100`, `heuristic`): how each is shown as a player,
//! and how long a thinking one takes to answer.

use std::time::Duration;

use super::TableSpec;

/// How a named bot is shown: `pimc bot` with the default budget (whatever the server's time
/// cap), else its name with its parameters (`pimc:worlds=8:ms=100 bot`): bots of different
/// strength are different players in the results table.
pub(crate) fn named_bot_name(name: &str) -> String {
    if crate::bot_spec::is_submitted(name) {
        // `submitted:NAME@VERSION`, as records and results name it.
        return name.to_owned();
    }
    let default = name
        .strip_prefix("pimc")
        .map(|p| p.trim_start_matches(':'))
        .and_then(|p| calabresella_engine::search::Budget::parse(p).ok())
        .is_some_and(|b| {
            calabresella_engine::search::Budget { ms: None, ..b }
                == calabresella_engine::search::Budget::default()
        });
    if default {
        "pimc bot".to_owned()
    } else {
        format!("{name} bot")
    }
}

/// The time budget in a search bot's name (`pimc:...:ms=100`), which the server always sets.
pub(super) fn think_time(name: &str) -> Option<Duration> {
    let params = name.strip_prefix("pimc")?.trim_start_matches(':');
    let ms = calabresella_engine::search::Budget::parse(params)
        .ok()?
        .ms?;
    Some(Duration::from_millis(u64::from(ms)))
}

/// The bot named for seat `i` (empty when the seat has none).
pub(super) fn bot_name(spec: &TableSpec, i: usize) -> &str {
    spec.bots.get(i).map_or("", String::as_str)
}
