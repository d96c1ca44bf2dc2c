//! How a game describes its rule options to those who set them ([`OptionDescription`]): each
//! option's key, the values it takes, what it does and its default. The server sends these
//! descriptions to clients and forms (`ListGames`), so that none keeps a copy of a game's
//! options; the engine's tests hold every description to what the game's parser accepts.

/// The values an option takes, in the `key=value` notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false` (also `on`/`off`, `yes`/`no`, `1`/`0`).
    Flag,
    /// A whole number from `min` to `max`.
    Number {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: u32,
    },
    /// One of these words (case-insensitive).
    Choice(&'static [&'static str]),
}

/// One rule option of a game under given options: its key, its values, what it does, and its
/// value there (for a game's defaults, its default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDescription {
    /// The key, as `key=value` takes it.
    pub key: &'static str,
    /// The values it takes.
    pub kind: OptionKind,
    /// What it does, with the rule decision's ID.
    pub doc: &'static str,
    /// Its value, in the notation it is set in; `None` for an option that only sets others (a
    /// preset).
    pub value: Option<String>,
}

impl OptionDescription {
    /// A flag and its value.
    pub fn flag(key: &'static str, doc: &'static str, value: bool) -> OptionDescription {
        OptionDescription {
            key,
            kind: OptionKind::Flag,
            doc,
            value: Some(value.to_string()),
        }
    }

    /// A whole number from `min` to `max` and its value.
    pub fn number(
        key: &'static str,
        doc: &'static str,
        (min, max): (u32, u32),
        value: u32,
    ) -> OptionDescription {
        OptionDescription {
            key,
            kind: OptionKind::Number { min, max },
            doc,
            value: Some(value.to_string()),
        }
    }

    /// One of `choices` and its value (`None`: an option with no value of its own).
    pub fn choice(
        key: &'static str,
        doc: &'static str,
        choices: &'static [&'static str],
        value: Option<&str>,
    ) -> OptionDescription {
        OptionDescription {
            key,
            kind: OptionKind::Choice(choices),
            doc,
            value: value.map(str::to_owned),
        }
    }
}
