//! Accusi (T-D2): the combinations declared before the first lead, and what each makes public.

use std::fmt;

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

/// A declared combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Accuso {
    /// Ace, 2 and 3 of one suit: 3 points; the suit is public.
    Napoletana(Suit),
    /// Three aces, 2s or 3s: 3 points; the rank and the missing suit are public.
    Three {
        /// Aces, 2s or 3s.
        rank: Rank,
        /// The suit of the fourth card, not held.
        missing: Suit,
    },
    /// All four aces, 2s or 3s: 4 points (not 3 + 4); the rank is public.
    Four(Rank),
}

impl Accuso {
    /// Points it scores.
    pub const fn points(self) -> u32 {
        match self {
            Accuso::Napoletana(_) | Accuso::Three { .. } => 3,
            Accuso::Four(_) => 4,
        }
    }

    /// The cards the declaration shows to be in the declarer's hand (public knowledge).
    pub fn cards(self) -> CardSet {
        match self {
            Accuso::Napoletana(s) => [Rank::Ace, Rank::Two, Rank::Three]
                .into_iter()
                .map(|r| Card::new(s, r))
                .collect(),
            Accuso::Three { rank, missing } => {
                CardSet::rank_mask(rank) - CardSet::single(Card::new(missing, rank))
            }
            Accuso::Four(rank) => CardSet::rank_mask(rank),
        }
    }
}

impl fmt::Display for Accuso {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Accuso::Napoletana(s) => write!(f, "napoletana {s}"),
            Accuso::Three { rank, missing } => write!(f, "three {rank} (missing {rank}{missing})"),
            Accuso::Four(rank) => write!(f, "four {rank}"),
        }
    }
}

/// Every accuso a hand holds, napoletane by suit first, then aces, 2s and 3s. A card may count
/// in several combinations.
pub fn declare(hand: CardSet) -> Vec<Accuso> {
    let mut out = Vec::new();
    for suit in Suit::ALL {
        let nap = Accuso::Napoletana(suit);
        if hand.is_superset(nap.cards()) {
            out.push(nap);
        }
    }
    for rank in [Rank::Ace, Rank::Two, Rank::Three] {
        let held = hand & CardSet::rank_mask(rank);
        match held.len() {
            4 => out.push(Accuso::Four(rank)),
            3 => {
                let missing = (CardSet::rank_mask(rank) - held)
                    .first()
                    .map_or(Suit::Bastoni, Card::suit);
                out.push(Accuso::Three { rank, missing });
            }
            _ => {}
        }
    }
    out
}
