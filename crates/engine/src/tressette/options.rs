//! Rule options of Tressette and Tressette in Due (decision IDs T-D1 to T-D7).

use std::fmt;

use crate::game::{
    GameOptions, OptionDescription, OptionError, read_fixed_players, read_flag, read_number,
};

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
}

impl GameOptions for Options {
    fn describe_own(&self) -> Vec<OptionDescription> {
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
        out
    }

    fn assign(&mut self, k: &str, value: &str) -> Result<bool, OptionError> {
        match k {
            "players" => read_fixed_players(self.variant.game(), self.variant.players(), value)?,
            "target" => self.target = read_number(k, value, (1, 1_000_000))?,
            "accusi" => self.accusi = read_flag(k, value)?,
            "follow_suit_always" => self.follow_suit_always = read_flag(k, value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn max_deals_mut(&mut self) -> &mut u32 {
        &mut self.max_deals
    }

    /// Checks that the options make a playable game.
    fn validate(&self) -> Result<(), OptionError> {
        if self.follow_suit_always && self.variant == Variant::Partnership {
            return Err(OptionError::Conflict(
                "follow_suit_always is an option of tressette-in-due",
            ));
        }
        Ok(())
    }

    fn defaults(&self) -> Options {
        Options::new(self.variant)
    }

    fn players(&self) -> u8 {
        self.variant.players()
    }

    fn game(&self) -> &'static str {
        self.variant.game()
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
