//! Rule options of Calabresella (decision IDs in `docs/RULES.md`): what each `key=value` sets,
//! their descriptions and the combinations that make a game (the grammar itself is
//! [`crate::game::GameOptions`]'s).

use std::fmt;

use crate::game::{
    GameOptions, OptionDescription, OptionError, read_choice, read_flag, read_number,
};

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
}

impl GameOptions for Options {
    fn describe_own(&self) -> Vec<OptionDescription> {
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
            D::choice(
                "preset",
                "Sets the target: terziglio 31, calabresella 21 (C-D22).",
                &["terziglio", "calabresella"],
                None,
            ),
        ]
    }

    fn assign(&mut self, k: &str, value: &str) -> Result<bool, OptionError> {
        match k {
            "players" => self.players = read_number(k, value, (3, 4))? as u8,
            "target" => self.target = read_number(k, value, (1, 1_000_000))?,
            "match_end" => {
                self.match_end = [MatchEnd::Pooled, MatchEnd::Individual]
                    [read_choice(k, value, &["pooled", "individual"])?]
            }
            "stramazzo" => self.stramazzo = read_flag(k, value)?,
            "only_chiamo" => self.only_chiamo = read_flag(k, value)?,
            "chiamo_threes_only" => self.chiamo_threes_only = read_flag(k, value)?,
            "aperta" => self.aperta = read_flag(k, value)?,
            "a_due" => {
                self.a_due = read_flag(k, value)?;
                if self.a_due {
                    self.match_end = MatchEnd::Individual;
                }
            }
            "preset" => {
                self.target = [31, 21][read_choice(k, value, &["terziglio", "calabresella"])?]
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn max_deals_mut(&mut self) -> &mut u32 {
        &mut self.max_deals
    }

    fn validate(&self) -> Result<(), OptionError> {
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

    fn defaults(&self) -> Options {
        Options::default()
    }

    fn players(&self) -> u8 {
        self.players
    }

    fn game(&self) -> &'static str {
        "calabresella"
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
