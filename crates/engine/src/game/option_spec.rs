//! How a game describes its rule options to those who set them ([`OptionDescription`]): each
//! option's key, the values it takes, what it does and its default. The server sends these
//! descriptions to clients and forms (`ListGames`), so that none keeps a copy of a game's
//! options; the engine's tests hold every description to what the game's parser accepts.
//!
//! [`GameOptions`] is the grammar every game's options share: each game says which keys it
//! takes and where each value goes; reading a value, the record's `options` object and the
//! defaults left out of it are written here once.

use std::fmt::{Debug, Display};

use serde_json::{Map, Value};

use super::vocab::{OptionError, json_option_text};

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

/// Reads a flag: `true`/`false`, `on`/`off`, `yes`/`no`, `1`/`0`, in any case.
pub fn read_flag(key: &str, value: &str) -> Result<bool, OptionError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(bad_value(key, value, "true or false".into())),
    }
}

/// The values every game's `max_deals` takes.
pub const MAX_DEALS: (u32, u32) = (1, 10_000_000);

impl OptionDescription {
    /// The safety cap on deals every game takes (`max_deals`), what it counts, and its value.
    pub fn max_deals(doc: &'static str, value: u32) -> OptionDescription {
        OptionDescription::number("max_deals", doc, MAX_DEALS, value)
    }
}

/// Reads a whole number from `min` to `max`.
pub fn read_number(key: &str, value: &str, (min, max): (u32, u32)) -> Result<u32, OptionError> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| bad_value(key, value, format!("a whole number from {min} to {max}")))
}

/// Reads one of `choices` (any case): its index in `choices`.
pub fn read_choice(key: &str, value: &str, choices: &[&str]) -> Result<usize, OptionError> {
    let v = value.trim().to_ascii_lowercase();
    choices
        .iter()
        .position(|c| *c == v)
        .ok_or_else(|| bad_value(key, value, choices.join(" or ")))
}

/// Checks a `players` value where the variant's number is fixed: saying it again is allowed,
/// any other number is refused.
pub fn read_fixed_players(game: &'static str, players: u8, value: &str) -> Result<(), OptionError> {
    if value.trim() == players.to_string() {
        return Ok(());
    }
    Err(OptionError::Players {
        game,
        players,
        given: value.into(),
    })
}

fn bad_value(key: &str, value: &str, expected: String) -> OptionError {
    OptionError::BadValue {
        key: key.trim().to_ascii_lowercase(),
        value: value.into(),
        expected,
    }
}

/// A game's rule options, in the `key=value` grammar every game shares: the game says which
/// keys it takes ([`GameOptions::describe_own`], [`GameOptions::assign`]) and which
/// combinations make a game ([`GameOptions::validate`]); `max_deals`, the full description
/// ([`GameOptions::describe`]), setting by text ([`GameOptions::set`]) and a record's
/// `options` object are derived from them once, here.
pub trait GameOptions: Copy + PartialEq + Eq + Debug + Display + Send + Sync + Sized {
    /// What the safety cap on deals counts in this game, for its description.
    const MAX_DEALS_DOC: &'static str =
        "Safety cap: after this many deals a match with no winner is a draw.";
    /// The game's own options in this variant (`players` included, `max_deals` not), with
    /// their values here, in the game's order.
    fn describe_own(&self) -> Vec<OptionDescription>;
    /// Sets the game's own option `key` (trimmed, in lower case) from its text: `Ok(false)`
    /// when the game has no such option. `players` too, where the variant's number is fixed
    /// (saying it again is allowed).
    fn assign(&mut self, key: &str, value: &str) -> Result<bool, OptionError>;
    /// The safety cap on deals, the `max_deals` every game takes.
    fn max_deals_mut(&mut self) -> &mut u32;
    /// Every option [`GameOptions::set`] takes in this variant: the game's own, and
    /// `max_deals` after those with a value.
    fn describe(&self) -> Vec<OptionDescription> {
        let mut out = self.describe_own();
        // Before the options that only set others (no value of their own), which come last.
        let at = out
            .iter()
            .rposition(|d| d.value.is_some())
            .map_or(0, |i| i + 1);
        let cap = OptionDescription::max_deals(Self::MAX_DEALS_DOC, self.max_deals());
        out.insert(at, cap);
        out
    }
    /// Sets one option from its text (keys in any case); an unknown key is refused with the
    /// keys this game's variant takes.
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let key_lower = key.trim().to_ascii_lowercase();
        if key_lower == "max_deals" {
            *self.max_deals_mut() = read_number(&key_lower, value, MAX_DEALS)?;
            return Ok(());
        }
        if self.assign(&key_lower, value)? {
            return Ok(());
        }
        let known: Vec<&str> = self.describe().iter().map(|d| d.key).collect();
        Err(OptionError::Unknown {
            key: key.into(),
            known: known.join(", "),
        })
    }
    /// Checks that the options make a playable game.
    fn validate(&self) -> Result<(), OptionError>;
    /// The defaults of the same game and variant: what a record leaves out.
    fn defaults(&self) -> Self;
    /// How many seats the game has.
    fn players(&self) -> u8;
    /// The registered name of the game these options play (a record's `game`).
    fn game(&self) -> &'static str;

    /// The safety cap on deals, the `max_deals` every game takes: a match not over after this
    /// many deals (of the kind the game counts) ends as a draw.
    fn max_deals(&self) -> u32 {
        // Options are small `Copy` values: one accessor serves reading and writing.
        let mut copy = *self;
        *copy.max_deals_mut()
    }
    /// These options with the safety cap on deals set to `max_deals` (unchanged where that is
    /// not a value the game takes).
    fn with_max_deals(mut self, max_deals: u32) -> Self {
        if (MAX_DEALS.0..=MAX_DEALS.1).contains(&max_deals) {
            *self.max_deals_mut() = max_deals;
        }
        self
    }

    /// The options that differ from the defaults, as a record's `options` object (`players`
    /// is the record's own field, and an option that only sets others has no value of its
    /// own).
    fn non_default(&self) -> Map<String, Value> {
        let defaults = self.defaults().describe();
        self.describe()
            .into_iter()
            .filter(|d| d.key != "players")
            .filter_map(|d| {
                let value = d.value?;
                let default = defaults.iter().find(|e| e.key == d.key);
                if default.and_then(|e| e.value.as_deref()) == Some(value.as_str()) {
                    return None;
                }
                let json = match d.kind {
                    OptionKind::Flag => Value::Bool(value == "true"),
                    OptionKind::Number { .. } => {
                        value.parse::<u32>().map_or(Value::Null, Value::from)
                    }
                    OptionKind::Choice(_) => Value::String(value),
                };
                Some((d.key.to_owned(), json))
            })
            .collect()
    }

    /// These options (a game's defaults) with a record's `players` and `options` object,
    /// validated. A JSON object has no order: its keys (in any case) are applied in
    /// alphabetical order, whatever order the parser kept them in, and a key given twice is
    /// refused.
    fn with_record(
        mut self,
        players: u8,
        options: &Map<String, Value>,
    ) -> Result<Self, OptionError> {
        self.set("players", &players.to_string())?;
        let mut keyed: Vec<(String, &Value)> = options
            .iter()
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        for pair in keyed.windows(2) {
            if pair[0].0 == pair[1].0 {
                return Err(OptionError::Conflict(
                    "an option is given twice in the record",
                ));
            }
        }
        for (key, value) in keyed {
            if key == "players" {
                return Err(OptionError::Conflict(
                    "players belongs at the top level of a record, not in options",
                ));
            }
            self.set(&key, &json_option_text(&key, value)?)?;
        }
        self.validate()?;
        Ok(self)
    }
}
