//! How a seat names a submitted bot: `submitted:NAME` (its latest version) or
//! `submitted:NAME@VERSION`. Tables, stored specs and the service read these names without the
//! machinery that runs the bots (`crate::submitted`).

/// The prefix of a submitted bot's name where bots are named.
pub const PREFIX: &str = "submitted:";
/// The longest bot name.
pub const MAX_NAME: usize = 40;

/// Whether a seat's bot name is a submitted bot's.
pub fn is_submitted(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// A bot name as submitted: 1 to 40 of `a-z 0-9 - _`, starting with a letter.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// `submitted:NAME` or `submitted:NAME@VERSION`, split.
pub fn parse_spec(spec: &str) -> Option<(String, Option<u32>)> {
    let rest = spec.trim().strip_prefix(PREFIX)?;
    let (name, version) = match rest.split_once('@') {
        Some((n, v)) => (n, Some(v.parse().ok().filter(|&v| v > 0)?)),
        None => (rest, None),
    };
    valid_name(name).then(|| (name.to_owned(), version))
}
