//! Rule options of Tressette con la Chiamata and Briscola Chiamata (TC-D1 to TC-D16, BC-D1 to
//! BC-D13, CH-D6).

use std::fmt;

use crate::game::{
    GameOptions, OptionDescription, OptionError, read_choice, read_fixed_players, read_flag,
    read_number,
};

/// Which game of the calling family is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Tressette con la Chiamata: Tressette card play, an auction for the call (TC-D1..TC-D16).
    Tressette,
    /// Briscola Chiamata: Briscola cards, a bidding auction, the call names trumps (BC-D1..BC-D13).
    Briscola,
}

impl Variant {
    /// The record's `game` value: `tressette-chiamata` or `briscola-chiamata`.
    pub const fn game(self) -> &'static str {
        match self {
            Variant::Tressette => "tressette-chiamata",
            Variant::Briscola => "briscola-chiamata",
        }
    }

    /// The variant of a record's `game` value.
    pub fn from_game(game: &str) -> Option<Variant> {
        match game {
            "tressette-chiamata" => Some(Variant::Tressette),
            "briscola-chiamata" => Some(Variant::Briscola),
            _ => None,
        }
    }
}

/// How Briscola Chiamata is bid (BC-D3, BC-D5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Auction {
    /// Ranks from the ace down to the 2, then `bid 2 N` in points (the default).
    Ranks,
    /// Points only: `bid N`, 61 to 120; any card may then be called.
    Points,
}

impl Auction {
    /// `ranks` or `points`, as the option is written.
    pub const fn name(self) -> &'static str {
        match self {
            Auction::Ranks => "ranks",
            Auction::Points => "points",
        }
    }
}

/// Who leads the first trick of a Briscola Chiamata hand (BC-D9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FirstLead {
    /// The eldest, the seat after the dealer (the default).
    Eldest,
    /// The caller.
    Caller,
}

impl FirstLead {
    /// `eldest` or `caller`, as the option is written.
    pub const fn name(self) -> &'static str {
        match self {
            FirstLead::Eldest => "eldest",
            FirstLead::Caller => "caller",
        }
    }
}

/// Every rule option of the two games. The defaults are the spec's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// Which game.
    pub variant: Variant,
    /// Seats: 5, or 4 in Tressette con la Chiamata by option (TC-D15).
    pub players: u8,
    /// Scored hands in a match (1 to [`MAX_HANDS`]); `None` is the default, two per seat
    /// (TC-D14, BC-D13): 10, or 8 with four players.
    pub hands: Option<u32>,
    /// Tressette con la Chiamata: `bid solo` above `bid chiamo` (TC-D16).
    pub solo_bid: bool,
    /// Tressette con la Chiamata: only a card of the highest rank the caller lacks (TC-D4).
    pub call_threes_only: bool,
    /// Tressette con la Chiamata: the caller may call his own card and play alone (TC-D5).
    pub call_own_card: bool,
    /// Briscola Chiamata: ranks then points, or points only.
    pub auction: Auction,
    /// Briscola Chiamata: a plain `bid 2` closes the auction (BC-D6).
    pub two_closes: bool,
    /// Briscola Chiamata: who leads first.
    pub first_lead: FirstLead,
    /// Briscola Chiamata: a high target multiplies the payout (BC-D12).
    pub bid_multiplier: bool,
    /// Safety cap: after this many void deals (every player passed) in one match, the match
    /// ends as a draw; scored hands are bounded by `hands`.
    pub max_deals: u32,
}

/// The most scored hands a match may have: every hand is kept in the match, so a bound keeps
/// one table's memory bounded.
pub const MAX_HANDS: u32 = 100_000;

impl Options {
    /// The defaults of a variant: five players, ten hands.
    pub const fn new(variant: Variant) -> Options {
        Options {
            variant,
            players: 5,
            hands: None,
            solo_bid: false,
            call_threes_only: false,
            call_own_card: false,
            auction: Auction::Ranks,
            two_closes: false,
            first_lead: FirstLead::Eldest,
            bid_multiplier: false,
            max_deals: 1000,
        }
    }

    /// Scored hands in a match: the option, or two per seat.
    pub const fn match_hands(&self) -> u32 {
        match self.hands {
            Some(h) => h,
            None => 2 * self.players as u32,
        }
    }

    /// Cards per seat, and tricks per hand: 8, or 10 with four players.
    pub const fn hand_size(&self) -> usize {
        40 / self.players as usize
    }

    /// Whether this is the four-player Tressette con la Chiamata (TC-D15): no auction, the
    /// eldest calls, 2 against 2.
    pub const fn four_players(&self) -> bool {
        self.players == 4
    }

    /// Whether `bid solo` may be bid (TC-D16; no effect with four players, CH-D6).
    pub const fn solo_allowed(&self) -> bool {
        self.solo_bid && !self.four_players()
    }

    /// Whether the caller may call his own card: always in Briscola Chiamata (BC-D7), by option
    /// in Tressette con la Chiamata with five players (TC-D5, TC-D15).
    pub const fn own_card_allowed(&self) -> bool {
        match self.variant {
            Variant::Briscola => true,
            Variant::Tressette => self.call_own_card && !self.four_players(),
        }
    }
}

impl GameOptions for Options {
    const MAX_DEALS_DOC: &'static str =
        "Safety cap: after this many void deals a match ends as a draw.";

    fn describe_own(&self) -> Vec<OptionDescription> {
        type D = OptionDescription;
        let min_players = match self.variant {
            Variant::Tressette => 4,
            Variant::Briscola => 5,
        };
        let mut out = vec![
            D::number(
                "players",
                "Seats: 5, or 4 in Tressette con la Chiamata (TC-D15).",
                (min_players, 5),
                u32::from(self.players),
            ),
            OptionDescription {
                // Unset by default: two hands per seat, however many seats there are.
                value: self.hands.map(|h| h.to_string()),
                ..D::number(
                    "hands",
                    "Scored hands in a match; by default two per seat (TC-D14, BC-D13).",
                    (1, MAX_HANDS),
                    0,
                )
            },
        ];
        match self.variant {
            Variant::Tressette => {
                out.push(D::flag(
                    "solo_bid",
                    "bid solo above bid chiamo (TC-D16).",
                    self.solo_bid,
                ));
                out.push(D::flag(
                    "call_threes_only",
                    "Only a card of the highest rank the caller lacks (TC-D4).",
                    self.call_threes_only,
                ));
                out.push(D::flag(
                    "call_own_card",
                    "The caller may call his own card and play alone (TC-D5).",
                    self.call_own_card,
                ));
            }
            Variant::Briscola => {
                out.push(D::choice(
                    "auction",
                    "Ranks then points, or points only.",
                    &["ranks", "points"],
                    Some(self.auction.name()),
                ));
                out.push(D::flag(
                    "two_closes",
                    "A plain bid 2 closes the auction (BC-D6).",
                    self.two_closes,
                ));
                out.push(D::choice(
                    "first_lead",
                    "Who leads first.",
                    &["eldest", "caller"],
                    Some(self.first_lead.name()),
                ));
                out.push(D::flag(
                    "bid_multiplier",
                    "A high target multiplies the payout (BC-D12).",
                    self.bid_multiplier,
                ));
            }
        }
        out
    }

    fn assign(&mut self, k: &str, value: &str) -> Result<bool, OptionError> {
        match k {
            "players" => {
                self.players = match self.variant {
                    Variant::Tressette => read_number(k, value, (4, 5))? as u8,
                    Variant::Briscola => {
                        read_fixed_players(self.variant.game(), 5, value)?;
                        5
                    }
                }
            }
            // As given, whatever `players` is set to after it.
            "hands" => self.hands = Some(read_number(k, value, (1, MAX_HANDS))?),
            "solo_bid" => self.solo_bid = read_flag(k, value)?,
            "call_threes_only" => self.call_threes_only = read_flag(k, value)?,
            "call_own_card" => self.call_own_card = read_flag(k, value)?,
            "two_closes" => self.two_closes = read_flag(k, value)?,
            "bid_multiplier" => self.bid_multiplier = read_flag(k, value)?,
            "auction" => {
                self.auction =
                    [Auction::Ranks, Auction::Points][read_choice(k, value, &["ranks", "points"])?]
            }
            "first_lead" => {
                self.first_lead = [FirstLead::Eldest, FirstLead::Caller]
                    [read_choice(k, value, &["eldest", "caller"])?]
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn max_deals_mut(&mut self) -> &mut u32 {
        &mut self.max_deals
    }

    /// Checks that the options make a playable game: each game's options only on that game.
    fn validate(&self) -> Result<(), OptionError> {
        let d = Options::new(self.variant);
        if self.hands.is_some_and(|h| !(1..=MAX_HANDS).contains(&h)) {
            return Err(OptionError::Conflict("hands must be from 1 to 100000"));
        }
        if self.max_deals == 0 {
            return Err(OptionError::Conflict("max_deals must be at least 1"));
        }
        match self.variant {
            Variant::Tressette => {
                if self.auction != d.auction
                    || self.two_closes
                    || self.first_lead != d.first_lead
                    || self.bid_multiplier
                {
                    return Err(OptionError::Conflict(
                        "auction, two_closes, first_lead and bid_multiplier are options of \
                         briscola-chiamata",
                    ));
                }
                if !matches!(self.players, 4 | 5) {
                    return Err(OptionError::Conflict(
                        "tressette-chiamata is played by 5 players, or 4 (TC-D15)",
                    ));
                }
            }
            Variant::Briscola => {
                if self.solo_bid || self.call_threes_only || self.call_own_card {
                    return Err(OptionError::Conflict(
                        "solo_bid, call_threes_only and call_own_card are options of \
                         tressette-chiamata (in briscola-chiamata the caller may always call \
                         his own card)",
                    ));
                }
                if self.players != 5 {
                    return Err(OptionError::Conflict(
                        "briscola-chiamata is played by 5 players",
                    ));
                }
            }
        }
        Ok(())
    }

    fn defaults(&self) -> Options {
        Options::new(self.variant)
    }

    fn players(&self) -> u8 {
        self.players
    }

    fn game(&self) -> &'static str {
        self.variant.game()
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game={}", self.variant.game())?;
        if self.players != 5 {
            write!(f, " players={}", self.players)?;
        }
        for (k, v) in self.non_default() {
            write!(f, " {k}={v}")?;
        }
        Ok(())
    }
}
