//! Rule options of Tressette and Tressette in Due (decision IDs T-D1 to T-D7).

use crate::game::OptionDescription;
use std::fmt;

use serde_json::{Map, Value};

use crate::game::OptionError;

/// Which Tressette is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Four players in two fixed partnerships, seats 0+2 and 1+3 (T-D7).
    Partnership,
    /// Two players with a 20-card stock (T-D5).
    Due,
}

impl Variant {
    /// The record's `game` value: `tressette` or `tressette-in-due`.
    pub const fn game(self) -> &'static str {
        match self {
            Variant::Partnership => "tressette",
            Variant::Due => "tressette-in-due",
        }
    }

    /// Number of seats: 4 or 2.
    pub const fn players(self) -> u8 {
        match self {
            Variant::Partnership => 4,
            Variant::Due => 2,
        }
    }

    /// Tricks in a hand: 10, or 20 in Tressette in Due.
    pub const fn tricks(self) -> u8 {
        match self {
            Variant::Partnership => 10,
            Variant::Due => 20,
        }
    }

    /// The variant of a record's `game` value.
    pub fn from_game(game: &str) -> Option<Variant> {
        match game {
            "tressette" => Some(Variant::Partnership),
            "tressette-in-due" => Some(Variant::Due),
            _ => None,
        }
    }
}

/// Every rule option of the Tressette games. The defaults are the rule text's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// Partnership (4 players) or in Due (2 players).
    pub variant: Variant,
    /// Points that end the match (T-D4): 21, or 31 by option.
    pub target: u32,
    /// Whether accusi are declared and scored (T-D2).
    pub accusi: bool,
    /// Tressette in Due: follow suit even while the stock lasts (T-D5, traditional).
    pub follow_suit_always: bool,
    /// Safety cap: after this many hands a match with no winner is a draw.
    pub max_deals: u32,
}

impl Options {
    /// The defaults for a variant.
    pub fn new(variant: Variant) -> Options {
        Options {
            variant,
            target: 21,
            accusi: true,
            follow_suit_always: false,
            max_deals: 1000,
        }
    }

    /// Every option [`Options::set`] (and the game's `players`) takes in this variant, with its
    /// value here.
    pub fn describe(&self) -> Vec<OptionDescription> {
        type D = OptionDescription;
        let players = u32::from(self.variant.players());
        let mut out = vec![
            D::number(
                "players",
                "Seats: the variant's own number.",
                (players, players),
                players,
            ),
            D::number(
                "target",
                "Points that end the match (T-D4).",
                (1, 1_000_000),
                self.target,
            ),
            D::flag("accusi", "Declarations score (T-D2).", self.accusi),
        ];
        if self.variant == Variant::Due {
            out.push(D::flag(
                "follow_suit_always",
                "Follow suit while drawing from the stock too.",
                self.follow_suit_always,
            ));
        }
        out.push(D::number(
            "max_deals",
            "Safety cap: after this many deals a match with no winner is a draw.",
            (1, 10_000_000),
            self.max_deals,
        ));
        out
    }

    /// Sets one option from its string value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let k = key.trim().to_ascii_lowercase();
        let bad = |expected| OptionError::BadValue {
            key: k.clone(),
            value: value.into(),
            expected,
        };
        let flag = |v: &str| match v.trim().to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" | "1" => Some(true),
            "false" | "off" | "no" | "0" => Some(false),
            _ => None,
        };
        let num = |v: &str, hi: u32| {
            v.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=hi).contains(n))
        };
        match k.as_str() {
            "target" => {
                self.target = num(value, 1_000_000).ok_or_else(|| bad("a whole number from 1"))?
            }
            "max_deals" => {
                self.max_deals =
                    num(value, 10_000_000).ok_or_else(|| bad("a whole number from 1"))?
            }
            "accusi" => self.accusi = flag(value).ok_or_else(|| bad("true or false"))?,
            "follow_suit_always" => {
                self.follow_suit_always = flag(value).ok_or_else(|| bad("true or false"))?;
            }
            _ => {
                return Err(OptionError::Unknown {
                    key: key.into(),
                    known: "target, accusi, follow_suit_always, max_deals",
                });
            }
        }
        Ok(())
    }

    /// Checks that the options make a playable game.
    pub fn validate(&self) -> Result<(), OptionError> {
        if self.follow_suit_always && self.variant == Variant::Partnership {
            return Err(OptionError::Conflict(
                "follow_suit_always is an option of tressette-in-due",
            ));
        }
        Ok(())
    }

    /// The options that differ from the defaults, as a record's `options` object.
    pub fn non_default(&self) -> Map<String, Value> {
        let d = Options::new(self.variant);
        let mut m = Map::new();
        if self.target != d.target {
            m.insert("target".into(), self.target.into());
        }
        if self.accusi != d.accusi {
            m.insert("accusi".into(), self.accusi.into());
        }
        if self.follow_suit_always != d.follow_suit_always {
            m.insert("follow_suit_always".into(), self.follow_suit_always.into());
        }
        if self.max_deals != d.max_deals {
            m.insert("max_deals".into(), self.max_deals.into());
        }
        m
    }

    /// Options from a record's `game`, `players` and `options`, validated.
    pub fn from_record(
        variant: Variant,
        players: u8,
        options: &Map<String, Value>,
    ) -> Result<Options, OptionError> {
        if players != variant.players() {
            return Err(OptionError::Conflict(match variant {
                Variant::Partnership => "tressette is played by 4 players",
                Variant::Due => "tressette-in-due is played by 2 players",
            }));
        }
        let mut o = Options::new(variant);
        for (k, v) in options {
            let text = crate::game::json_option_text(k, v)?;
            o.set(k, &text)?;
        }
        o.validate()?;
        Ok(o)
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game={}", self.variant.game())?;
        for (k, v) in self.non_default() {
            write!(f, " {k}={v}")?;
        }
        Ok(())
    }
}
