//! The words every game shares: who looks ([`Viewer`]), what a hand waits for ([`Phase`]), how
//! a match ends ([`MatchResult`]), the legal-action list, the cards as dealt, and the errors of
//! options and hand set-up.

use arrayvec::ArrayVec;
use serde_json::Value;
use thiserror::Error;

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::{PerSeat, Seat};

/// The most legal actions any state of any game has: Briscola Chiamata's first bid, `pass`
/// and 69 bids from `bid A` to `bid 2 120` (a Tressette lead has 10 cards times 4 signal
/// choices; any call at most 40 cards).
pub const MAX_LEGAL: usize = 70;

/// Legal actions without heap allocation.
pub type ActionList = ArrayVec<Action, MAX_LEGAL>;

/// Who looks at a game: a seat, or a spectator who sees only the public view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player's seat.
    Seat(Seat),
    /// The public view: every private detail blanked.
    Spectator,
}

impl Viewer {
    /// The viewer of an optional seat (`None`: a spectator).
    pub fn of(seat: Option<Seat>) -> Viewer {
        seat.map_or(Viewer::Spectator, Viewer::Seat)
    }

    /// The seat, for a seated viewer.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

/// What a hand waits for. Games without an auction are always in [`Phase::Play`] until
/// [`Phase::Over`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A bid or a pass (C-D3).
    Auction,
    /// Chiamo: the soloist names a card (C-D5).
    Call,
    /// Chiamo: the soloist gives a card back to the holder (C-D6).
    Return,
    /// Someone discards into the set-aside monte (the soloist, or a defender in dividete and
    /// scegliete).
    Discard,
    /// Scegliete: the first defender chooses monte cards (C-D10).
    Take,
    /// A card to the trick.
    Play,
    /// The hand is over.
    Over,
}

impl Phase {
    /// Every phase, in order (the index is [`Phase::index`]).
    pub const ALL: [Phase; 7] = [
        Phase::Auction,
        Phase::Call,
        Phase::Return,
        Phase::Discard,
        Phase::Take,
        Phase::Play,
        Phase::Over,
    ];

    /// The phase's position in [`Phase::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a match ended: the winning seats (every seat of the winning side), or a draw.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MatchResult {
    /// The winning seats in seat order; empty for a draw.
    pub winners: Vec<Seat>,
    /// Whether the deal cap ended the match with no winner.
    pub draw: bool,
}

impl MatchResult {
    /// A win for `winners` (sorted into seat order).
    pub fn won(mut winners: Vec<Seat>) -> MatchResult {
        winners.sort();
        MatchResult {
            winners,
            draw: false,
        }
    }

    /// A draw at the deal cap.
    pub fn draw() -> MatchResult {
        MatchResult {
            winners: Vec::new(),
            draw: true,
        }
    }

    /// A draw when `deals` have reached the safety cap `max_deals`, else `None` (another
    /// deal).
    pub fn at_cap(deals: usize, max_deals: u32) -> Option<MatchResult> {
        (deals as u64 >= u64::from(max_deals)).then(MatchResult::draw)
    }
}

/// The cards of one hand as dealt, in a form every game shares: each seat's cards, and the
/// cards dealt face down apart in deal order (the Calabresella monte, the Tressette in Due
/// stock; empty when the game has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealtCards {
    /// Each seat's cards as dealt.
    pub hands: PerSeat<CardSet>,
    /// The monte, in deal order (empty when the game has none).
    pub monte: Vec<Card>,
    /// The stock, in draw order (empty when the game has none).
    pub stock: Vec<Card>,
}

impl DealtCards {
    /// Each seat's `hands`, with no monte and no stock.
    pub fn new(hands: PerSeat<CardSet>) -> DealtCards {
        DealtCards {
            hands,
            monte: Vec::new(),
            stock: Vec::new(),
        }
    }
}

/// Where every card is now (hidden information: for referees and tests). The places partition
/// the deck: every card is in exactly one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardPlaces {
    /// Each seat's cards.
    pub hands: PerSeat<CardSet>,
    /// The trick in progress.
    pub trick: CardSet,
    /// Cards won by each side (`[soloist, defenders]`, or `[side 0, side 1]`).
    pub won: [CardSet; 2],
    /// Cards face down apart: the monte or its discards, or the stock not yet drawn.
    pub aside: CardSet,
}

/// An option name or value that is not understood, or a combination that makes no sense.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    /// The option name is unknown to the game.
    #[error("unknown option {key:?}; known: {known}")]
    Unknown {
        /// The name given.
        key: String,
        /// The game's option names, comma-separated.
        known: String,
    },
    /// The value does not fit the option.
    #[error("option {key}: bad value {value:?} ({expected})")]
    BadValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What the option takes.
        expected: String,
    },
    /// A game with a fixed number of players was given another number.
    #[error("{game} is played by {players} players, not {given}")]
    Players {
        /// The game's name.
        game: &'static str,
        /// Its number of players.
        players: u8,
        /// The number given.
        given: String,
    },
    /// The options conflict.
    #[error("{0}")]
    Conflict(&'static str),
}

/// What a game declares of itself under given options, as OpenSpiel's `GameType` and
/// `GameInfo` ask: whether every hand's awards sum to zero, the least and the greatest points
/// one seat can be awarded in one hand, and the size of the action id space its actions are
/// numbered in (ids are shared by every game: a game uses some of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameFacts {
    /// Whether every hand's awards to the seats sum to zero (the calling games').
    pub zero_sum: bool,
    /// The least points one seat can be awarded in one hand.
    pub min_hand_award: i32,
    /// The greatest points one seat can be awarded in one hand.
    pub max_hand_award: i32,
    /// The number of action ids ([`crate::NUM_ACTION_IDS`]).
    pub distinct_actions: u32,
}

/// A hand or match that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HandError {
    /// The options are not valid.
    #[error("invalid options: {0}")]
    Options(#[from] OptionError),
    /// The dealer is not a seat of this table.
    #[error("dealer {0} is not a seat at this table")]
    Dealer(Seat),
    /// The deal is not a deal of this game.
    #[error("invalid deal: {0}")]
    Deal(#[from] DealError),
}

/// The text of a JSON option value (a string, number or boolean), as a record's `options` are
/// read ([`crate::game::GameOptions::with_record`]).
pub(crate) fn json_option_text(key: &str, value: &Value) -> Result<String, OptionError> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(OptionError::BadValue {
            key: key.into(),
            value: other.to_string(),
            expected: "a string, number or boolean".into(),
        }),
    }
}

/// An explicit deal that is not a deal of the game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DealError {
    /// A card appears twice.
    #[error("card {0} dealt twice")]
    Duplicate(Card),
    /// A seat has the wrong number of cards.
    #[error("seat {seat} holds {got} cards, expected {expected}")]
    WrongSize {
        /// The seat.
        seat: Seat,
        /// Cards found.
        got: usize,
        /// Cards expected.
        expected: usize,
    },
    /// The monte is missing or of the wrong size.
    #[error("the monte holds {0} cards, expected 4")]
    WrongMonte(usize),
    /// The stock is missing or of the wrong size (a game without one was given one).
    #[error("the stock holds {got} cards, expected {expected}")]
    WrongStock {
        /// Cards found.
        got: usize,
        /// Cards expected.
        expected: usize,
    },
}

/// Why a match cannot take a new hand.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DealRefused {
    /// A hand is still being played.
    #[error("the current hand is not over")]
    HandInProgress,
    /// The match is over.
    #[error("the match is over")]
    MatchOver,
    /// The hand's dealer is not the one whose turn it is to deal.
    #[error("dealer should be seat {expected}, not {got}")]
    WrongDealer {
        /// Whose deal it is.
        expected: Seat,
        /// The dealer given.
        got: Seat,
    },
    /// The hand cannot be set up.
    #[error(transparent)]
    Hand(#[from] HandError),
}
