//! Suits, ranks and cards of the 40-card Italian deck, with the notation of `records.md`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One of the four Italian suits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Bastoni (clubs), letter `b`.
    Bastoni = 0,
    /// Coppe (cups), letter `c`.
    Coppe = 1,
    /// Denari (coins), letter `d`.
    Denari = 2,
    /// Spade (swords), letter `s`.
    Spade = 3,
}

impl Suit {
    /// All suits in index order (b, c, d, s).
    pub const ALL: [Suit; 4] = [Suit::Bastoni, Suit::Coppe, Suit::Denari, Suit::Spade];

    /// Index 0..4 in [`Suit::ALL`] order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit with index `i` (0..4).
    #[inline]
    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    /// The notation letter: `b`, `c`, `d` or `s`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Bastoni => 'b',
            Suit::Coppe => 'c',
            Suit::Denari => 'd',
            Suit::Spade => 's',
        }
    }

    /// Parses a suit letter in either case.
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_lowercase() {
            'b' => Some(Suit::Bastoni),
            'c' => Some(Suit::Coppe),
            'd' => Some(Suit::Denari),
            's' => Some(Suit::Spade),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank. The discriminant is the rank's *power* in a trick: 4 is 0 (lowest), 3 is 9 (highest),
/// so comparing powers compares cards of one suit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// The 4, lowest in trick order, no points.
    Four = 0,
    /// The 5, no points.
    Five = 1,
    /// The 6, no points.
    Six = 2,
    /// The 7, no points.
    Seven = 3,
    /// Fante (jack), letter `F`, one third.
    Fante = 4,
    /// Cavallo (knight), letter `C`, one third.
    Cavallo = 5,
    /// Re (king), letter `K`, one third.
    Re = 6,
    /// Asso (ace), letter `A`, three thirds (one point).
    Ace = 7,
    /// The 2, one third.
    Two = 8,
    /// The 3, highest in trick order, one third.
    Three = 9,
}

impl Rank {
    /// All ranks in trick order, high to low: 3 2 A K C F 7 6 5 4.
    pub const ALL: [Rank; 10] = [
        Rank::Three,
        Rank::Two,
        Rank::Ace,
        Rank::Re,
        Rank::Cavallo,
        Rank::Fante,
        Rank::Seven,
        Rank::Six,
        Rank::Five,
        Rank::Four,
    ];

    /// Trick power 0 (the 4) ..= 9 (the 3).
    #[inline]
    pub const fn power(self) -> u8 {
        self as u8
    }

    /// The rank with trick power `p` (0..10).
    #[inline]
    pub const fn from_power(p: u8) -> Rank {
        Rank::ALL[9 - (p as usize % 10)]
    }

    /// Card points of this rank in thirds of a point: ace 3; 3, 2, K, C, F 1; 7 to 4 none.
    #[inline]
    pub const fn thirds(self) -> u8 {
        match self {
            Rank::Ace => 3,
            Rank::Three | Rank::Two | Rank::Re | Rank::Cavallo | Rank::Fante => 1,
            _ => 0,
        }
    }

    /// The notation character: one of `3 2 A K C F 7 6 5 4`.
    pub const fn letter(self) -> char {
        match self {
            Rank::Three => '3',
            Rank::Two => '2',
            Rank::Ace => 'A',
            Rank::Re => 'K',
            Rank::Cavallo => 'C',
            Rank::Fante => 'F',
            Rank::Seven => '7',
            Rank::Six => '6',
            Rank::Five => '5',
            Rank::Four => '4',
        }
    }

    /// Parses a rank character in either case.
    pub fn from_letter(c: char) -> Option<Rank> {
        Some(match c.to_ascii_uppercase() {
            '3' => Rank::Three,
            '2' => Rank::Two,
            'A' => Rank::Ace,
            'K' => Rank::Re,
            'C' => Rank::Cavallo,
            'F' => Rank::Fante,
            '7' => Rank::Seven,
            '6' => Rank::Six,
            '5' => Rank::Five,
            '4' => Rank::Four,
            _ => return None,
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One card. Its index (0..40) is `suit * 10 + power`: the stable numbering used by [`CardSet`]
/// bits, numeric action ids and tensors.
///
/// [`CardSet`]: crate::CardSet
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// Number of cards in the deck.
    pub const COUNT: usize = 40;

    /// The card of `rank` in `suit`.
    #[inline]
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 10 + rank as u8)
    }

    /// The card with index `i`, or `None` when `i >= 40`.
    #[inline]
    pub const fn from_index(i: u8) -> Option<Card> {
        if i < 40 { Some(Card(i)) } else { None }
    }

    /// The card with index `i`; the caller guarantees `i < 40` (checked in debug builds).
    #[inline]
    pub(crate) const fn from_index_unchecked(i: u8) -> Card {
        debug_assert!(i < 40);
        Card(i)
    }

    /// The stable index `suit * 10 + power` (0..40).
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    #[inline]
    pub const fn suit(self) -> Suit {
        Suit::from_index((self.0 / 10) as usize)
    }

    /// The card's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::from_power(self.0 % 10)
    }

    /// Card points in thirds (see [`Rank::thirds`]).
    #[inline]
    pub const fn thirds(self) -> u8 {
        self.rank().thirds()
    }

    /// Whether this card beats `other` when `self` is of the led suit `led` and `other` is the
    /// current winner: only a higher card of the led suit wins (no trumps).
    #[inline]
    pub const fn beats(self, other: Card) -> bool {
        self.0 / 10 == other.0 / 10 && self.0 > other.0
    }

    /// All 40 cards in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..40).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

/// A card, suit or action string that does not follow the notation of `records.md`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad notation {input:?}: {why}")]
pub struct NotationError {
    /// The text that failed to parse.
    pub input: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl NotationError {
    pub(crate) fn new(input: &str, why: &'static str) -> Self {
        NotationError {
            input: input.to_owned(),
            why,
        }
    }
}

impl FromStr for Card {
    type Err = NotationError;

    /// Parses `<rank><suit>` in any case with surrounding spaces, e.g. `Ad`, ` kc `, `3B`.
    fn from_str(s: &str) -> Result<Card, NotationError> {
        let t = s.trim();
        let mut chars = t.chars();
        let (Some(r), Some(su), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(NotationError::new(
                s,
                "a card is a rank (3 2 A K C F 7 6 5 4) and a suit (b c d s), e.g. Ad",
            ));
        };
        let rank = Rank::from_letter(r)
            .ok_or_else(|| NotationError::new(s, "unknown rank: use one of 3 2 A K C F 7 6 5 4"))?;
        let suit = Suit::from_letter(su)
            .ok_or_else(|| NotationError::new(s, "unknown suit: use one of b c d s"))?;
        Ok(Card::new(suit, rank))
    }
}
