//! [`CardSet`]: a set of cards as a 40-bit mask.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

use crate::card::{Card, Rank, Suit};

/// A set of cards: bit `i` is the card with index `i` (see [`Card::index`]).
///
/// All set operations are single integer instructions; iteration goes in index order (suit
/// b, c, d, s; within a suit from the 4 up to the 3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(u64);

const SUIT_MASK: u64 = (1 << 10) - 1;

/// `SELECT_IN_SUIT[b][k]`: position of the `k`-th set bit of the 10-bit suit pattern `b`
/// (0 where there is none).
static SELECT_IN_SUIT: [[u8; 10]; 1024] = {
    let mut t = [[0u8; 10]; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 10 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// `SELECT_IN_BYTE[b][k]`: position of the `k`-th set bit of byte `b` (0 where there is none).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 40 cards.
    pub const ALL: CardSet = CardSet((1 << 40) - 1);
    /// The four aces (three thirds each).
    pub const ACES: CardSet = CardSet::rank_mask(Rank::Ace);
    /// The twenty cards worth one third: every 3, 2, K, C and F.
    pub const FIGURES: CardSet = CardSet(
        CardSet::rank_mask(Rank::Three).0
            | CardSet::rank_mask(Rank::Two).0
            | CardSet::rank_mask(Rank::Re).0
            | CardSet::rank_mask(Rank::Cavallo).0
            | CardSet::rank_mask(Rank::Fante).0,
    );

    /// The set with exactly the bits of `bits` below 40; higher bits are dropped.
    #[inline]
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & CardSet::ALL.0)
    }

    /// The raw 40-bit mask.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set holding one card.
    #[inline]
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.index())
    }

    /// All ten cards of `suit`.
    #[inline]
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(SUIT_MASK << (suit as u64 * 10))
    }

    /// The four cards of `rank`.
    pub const fn rank_mask(rank: Rank) -> CardSet {
        let p = rank as u64;
        CardSet((1 << p) | (1 << (p + 10)) | (1 << (p + 20)) | (1 << (p + 30)))
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `card` is in the set.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// Whether every card of `other` is in `self`.
    #[inline]
    pub const fn is_superset(self, other: CardSet) -> bool {
        other.0 & !self.0 == 0
    }

    /// Adds `card`.
    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    /// Removes `card`.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    /// The cards of `suit` in this set.
    #[inline]
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & CardSet::suit(suit).0)
    }

    /// Card points of the whole set, in thirds.
    #[inline]
    pub const fn thirds(self) -> u32 {
        3 * (self.0 & CardSet::ACES.0).count_ones() + (self.0 & CardSet::FIGURES.0).count_ones()
    }

    /// The lowest-index card, if any.
    #[inline]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest-index card, if any (within one suit: the strongest card).
    #[inline]
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card::from_index_unchecked(
                63 - self.0.leading_zeros() as u8,
            ))
        }
    }

    /// The `n`-th card in index order (0-based), if the set has more than `n` cards.
    ///
    /// Broadword select (Vigna): byte-wise prefix popcounts with one multiplication, a SWAR
    /// compare to find the byte holding the card, then a table lookup inside that byte. Random
    /// play picks every card with this, and it has no data-dependent branch to mispredict.
    #[inline]
    pub fn nth(self, n: usize) -> Option<Card> {
        if n >= self.len() {
            return None;
        }
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let x = self.0;
        let mut b = x - ((x >> 1) & 0x5555_5555_5555_5555);
        b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
        b = (b + (b >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        // Byte i of `prefix` counts the cards in bytes 0..=i (at most 40: no carries).
        let prefix = b.wrapping_mul(ONES);
        // High bit of byte i set where prefix[i] <= n: the count of such bytes is the target byte.
        let le = ((n as u64 * ONES) | HIGHS).wrapping_sub(prefix) & HIGHS;
        let byte = le.count_ones();
        let before = ((prefix << 8) >> (8 * byte)) & 0xFF;
        let in_byte = ((x >> (8 * byte)) & 0xFF) as usize;
        let offset = SELECT_IN_BYTE[in_byte][(n as u64 - before) as usize & 7];
        Some(Card::from_index_unchecked((8 * byte) as u8 + offset))
    }

    /// The `n`-th card of `suit` in this set (index order), if there are more than `n`: one
    /// table lookup, for picking among cards that must follow suit.
    #[inline]
    pub fn nth_of_suit(self, suit: Suit, n: usize) -> Option<Card> {
        let shift = 10 * suit.index();
        let chunk = ((self.0 >> shift) & SUIT_MASK) as usize;
        if n >= chunk.count_ones() as usize {
            return None;
        }
        Some(Card::from_index_unchecked(
            shift as u8 + SELECT_IN_SUIT[chunk & 1023][n % 10],
        ))
    }

    /// Iterates the cards in index order.
    #[inline]
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

/// Iterator over a [`CardSet`] in index order.
#[derive(Debug, Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl From<Card> for CardSet {
    fn from(card: Card) -> CardSet {
        CardSet::single(card)
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for CardSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl BitAndAssign for CardSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: CardSet) {
        self.0 &= rhs.0;
    }
}

impl Sub for CardSet {
    type Output = CardSet;
    #[inline]
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl Not for CardSet {
    type Output = CardSet;
    /// The complement within the 40-card deck.
    #[inline]
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::ALL.0)
    }
}

impl fmt::Display for CardSet {
    /// Canonical cards separated by spaces, grouped by suit, strongest first in each suit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                let c = Card::new(suit, rank);
                if self.contains(c) {
                    if !first {
                        f.write_str(" ")?;
                    }
                    first = false;
                    write!(f, "{c}")?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet[{self}]")
    }
}

impl CardSet {
    /// The cards in display order (by suit, strongest first): the order records write hands in.
    pub fn display_order(self) -> Vec<Card> {
        let mut v = Vec::with_capacity(self.len());
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                let c = Card::new(suit, rank);
                if self.contains(c) {
                    v.push(c);
                }
            }
        }
        v
    }
}
