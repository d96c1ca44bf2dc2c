//! Rule options of Calabresella (decision IDs in `docs/RULES.md`), with parsing from `key=value`
//! strings and JSON, validation, and the list of options that differ from the defaults.

use crate::game::OptionDescription;
use std::fmt;

use serde_json::{Map, Value};

use crate::game::{OptionError, json_option_text};

/// How the match ends (C-D16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchEnd {
    /// The seed rule: the soloist's total against the sum of the two defenders' totals.
    Pooled,
    /// The traditional rule: the unique highest individual total at or above the target.
    Individual,
}

impl MatchEnd {
    /// `pooled` or `individual`.
    pub const fn name(self) -> &'static str {
        match self {
            MatchEnd::Pooled => "pooled",
            MatchEnd::Individual => "individual",
        }
    }
}

/// Every rule option of Calabresella. [`Options::default`] is the seed text: 3 players, target
/// 21, pooled match end, stramazzo on, every variant off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// 3, or 4 with an idle dealer (C-D17). Written as the record's top-level `players`.
    pub players: u8,
    /// Match points that end the match (C-D16; 31 is the Terziglio preset, C-D22).
    pub target: u32,
    /// Pooled (seed) or individual (traditional) match end (C-D16).
    pub match_end: MatchEnd,
    /// Whether stramazzo triples the award (C-D15, C-D20).
    pub stramazzo: bool,
    /// Only Chiamo may be bid; the first bidder is the soloist (C-D21).
    pub only_chiamo: bool,
    /// Chiamo may only call a 3 (C-D5).
    pub chiamo_threes_only: bool,
    /// Defenders see each other's hands after trick 1; their award is halved, rounded up (C-D18).
    pub aperta: bool,
    /// Two people: seat 2 is a dummy played by the defending person (C-D19).
    pub a_due: bool,
    /// Safety cap: after this many deals (void ones included) a match with no winner is a draw.
    pub max_deals: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: 3,
            target: 21,
            match_end: MatchEnd::Pooled,
            stramazzo: true,
            only_chiamo: false,
            chiamo_threes_only: false,
            aperta: false,
            a_due: false,
            max_deals: 1000,
        }
    }
}

fn parse_bool(key: &str, v: &str) -> Result<bool, OptionError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(OptionError::BadValue {
            key: key.into(),
            value: v.into(),
            expected: "true or false",
        }),
    }
}

fn parse_num(key: &str, v: &str, lo: u32, hi: u32) -> Result<u32, OptionError> {
    v.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| OptionError::BadValue {
            key: key.into(),
            value: v.into(),
            expected: "a whole number in range",
        })
}

impl Options {
    /// The Terziglio preset (C-D22): the same game to 31.
    pub fn terziglio() -> Options {
        Options {
            target: 31,
            ..Options::default()
        }
    }

    /// The seat of the dummy in Calabresella a due (C-D19).
    pub const DUMMY: crate::Seat = crate::Seat::ALL[2];

    /// Every option [`Options::set`] takes, with its value here.
    pub fn describe(&self) -> Vec<OptionDescription> {
        type D = OptionDescription;
        vec![
            D::number(
                "players",
                "Seats: 3, or 4 with an idle dealer (C-D17).",
                (3, 4),
                u32::from(self.players),
            ),
            D::number(
                "target",
                "Match points that end the match (C-D16).",
                (1, 1_000_000),
                self.target,
            ),
            D::choice(
                "match_end",
                "Pooled: the soloist's total against the two defenders' together; individual: the unique highest total at the target (C-D16).",
                &["pooled", "individual"],
                Some(self.match_end.name()),
            ),
            D::flag(
                "stramazzo",
                "Stramazzo triples the award (C-D15, C-D20).",
                self.stramazzo,
            ),
            D::flag(
                "only_chiamo",
                "Only Chiamo may be bid; the first bidder is the soloist (C-D21).",
                self.only_chiamo,
            ),
            D::flag(
                "chiamo_threes_only",
                "Chiamo may only call a 3 (C-D5).",
                self.chiamo_threes_only,
            ),
            D::flag(
                "aperta",
                "Defenders see each other's hands after trick 1; their award is halved (C-D18).",
                self.aperta,
            ),
            D::flag(
                "a_due",
                "Two people: seat 2 is a dummy played by the defending person; sets match_end=individual (C-D19).",
                self.a_due,
            ),
            D::number(
                "max_deals",
                "Safety cap: after this many deals a match with no winner is a draw.",
                (1, 10_000_000),
                self.max_deals,
            ),
            D::choice(
                "preset",
                "Sets the target: terziglio 31, calabresella 21 (C-D22).",
                &["terziglio", "calabresella"],
                None,
            ),
        ]
    }

    /// Sets one option from its string value. `preset=terziglio` sets the target to 31.
    /// Setting `a_due=true` also selects the individual match end it requires.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let k = key.trim().to_ascii_lowercase();
        match k.as_str() {
            "players" => self.players = parse_num(&k, value, 3, 4)? as u8,
            "target" => self.target = parse_num(&k, value, 1, 1_000_000)?,
            "max_deals" => self.max_deals = parse_num(&k, value, 1, 10_000_000)?,
            "match_end" => {
                self.match_end = match value.trim().to_ascii_lowercase().as_str() {
                    "pooled" => MatchEnd::Pooled,
                    "individual" => MatchEnd::Individual,
                    _ => {
                        return Err(OptionError::BadValue {
                            key: k,
                            value: value.into(),
                            expected: "pooled or individual",
                        });
                    }
                }
            }
            "stramazzo" => self.stramazzo = parse_bool(&k, value)?,
            "only_chiamo" => self.only_chiamo = parse_bool(&k, value)?,
            "chiamo_threes_only" => self.chiamo_threes_only = parse_bool(&k, value)?,
            "aperta" => self.aperta = parse_bool(&k, value)?,
            "a_due" => {
                self.a_due = parse_bool(&k, value)?;
                if self.a_due {
                    self.match_end = MatchEnd::Individual;
                }
            }
            "preset" => match value.trim().to_ascii_lowercase().as_str() {
                "terziglio" => self.target = 31,
                "calabresella" => self.target = 21,
                _ => {
                    return Err(OptionError::BadValue {
                        key: k,
                        value: value.into(),
                        expected: "terziglio or calabresella",
                    });
                }
            },
            _ => {
                return Err(OptionError::Unknown {
                    key: key.into(),
                    known: "players, target, match_end, stramazzo, only_chiamo, chiamo_threes_only, aperta, a_due, max_deals, preset",
                });
            }
        }
        Ok(())
    }

    /// Sets one option from a JSON value (a record's `options` object).
    pub fn set_json(&mut self, key: &str, value: &Value) -> Result<(), OptionError> {
        self.set(key, &json_option_text(key, value)?)
    }

    /// Checks that the options make a playable game.
    pub fn validate(&self) -> Result<(), OptionError> {
        if !(3..=4).contains(&self.players) {
            return Err(OptionError::Conflict("calabresella takes 3 or 4 players"));
        }
        if self.a_due && self.players != 3 {
            return Err(OptionError::Conflict(
                "a_due is played with 3 hands (players=3)",
            ));
        }
        if self.a_due && self.match_end != MatchEnd::Individual {
            return Err(OptionError::Conflict(
                "a_due needs match_end=individual (C-D19)",
            ));
        }
        if self.a_due && self.aperta {
            return Err(OptionError::Conflict(
                "aperta has no meaning in a_due: one person already plays both defender hands",
            ));
        }
        if self.target == 0 || self.max_deals == 0 {
            return Err(OptionError::Conflict(
                "target and max_deals must be at least 1",
            ));
        }
        Ok(())
    }

    /// The options that differ from the defaults, as a record's `options` object (`players` is
    /// written separately and left out).
    pub fn non_default(&self) -> Map<String, Value> {
        let d = Options::default();
        let mut m = Map::new();
        if self.target != d.target {
            m.insert("target".into(), self.target.into());
        }
        if self.match_end != d.match_end {
            m.insert("match_end".into(), self.match_end.name().into());
        }
        let flags = [
            ("stramazzo", self.stramazzo, d.stramazzo),
            ("only_chiamo", self.only_chiamo, d.only_chiamo),
            (
                "chiamo_threes_only",
                self.chiamo_threes_only,
                d.chiamo_threes_only,
            ),
            ("aperta", self.aperta, d.aperta),
            ("a_due", self.a_due, d.a_due),
        ];
        for (k, v, dv) in flags {
            if v != dv {
                m.insert(k.into(), v.into());
            }
        }
        if self.max_deals != d.max_deals {
            m.insert("max_deals".into(), self.max_deals.into());
        }
        m
    }

    /// Builds options from a record's `players` and `options` object, then validates them.
    pub fn from_record(players: u8, options: &Map<String, Value>) -> Result<Options, OptionError> {
        let mut o = Options {
            players,
            ..Options::default()
        };
        // a_due first, so that an explicit match_end in the record still wins (and is validated).
        if let Some(v) = options.get("a_due") {
            o.set_json("a_due", v)?;
        }
        for (k, v) in options {
            if k == "players" {
                return Err(OptionError::Conflict(
                    "players belongs at the top level of a record, not in options",
                ));
            }
            if k != "a_due" {
                o.set_json(k, v)?;
            }
        }
        o.validate()?;
        Ok(o)
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "players={}", self.players)?;
        for (k, v) in self.non_default() {
            write!(
                f,
                " {k}={}",
                v.as_str().map_or_else(|| v.to_string(), str::to_owned)
            )?;
        }
        Ok(())
    }
}
