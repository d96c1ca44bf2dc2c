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

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.split_whitespace()
            .map(|c| c.parse::<Card>().unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    #[test]
    fn t_d2_combinations_overlap_and_four_is_not_three_plus_four() {
        let h = set("Ab 2b 3b Ac 2c 3c Ad 7s 6s 5s");
        let got = declare(h);
        assert_eq!(
            got,
            vec![
                Accuso::Napoletana(Suit::Bastoni),
                Accuso::Napoletana(Suit::Coppe),
                Accuso::Three {
                    rank: Rank::Ace,
                    missing: Suit::Spade
                },
            ],
            "the aces of b and c count in their napoletane and in the three aces"
        );
        assert_eq!(got.iter().map(|a| a.points()).sum::<u32>(), 9);
        let four = declare(set("3b 3c 3d 3s 4b 4c 4d 4s 5b 5c"));
        assert_eq!(four, vec![Accuso::Four(Rank::Three)]);
        assert_eq!(four[0].points(), 4, "all four: 4 points, not 3 + 4");
        assert!(declare(set("Kb Cb Fb 7b 6b Kc Cc Fc 7c 6c")).is_empty());
        let twos = declare(set("2b 2c 2s Ab Ac 4b 4c 4d 4s 5b"));
        assert_eq!(
            twos,
            vec![Accuso::Three {
                rank: Rank::Two,
                missing: Suit::Denari
            }]
        );
    }

    #[test]
    fn t_d2_what_a_declaration_makes_public() {
        assert_eq!(Accuso::Napoletana(Suit::Denari).cards(), set("Ad 2d 3d"));
        assert_eq!(
            Accuso::Three {
                rank: Rank::Ace,
                missing: Suit::Spade
            }
            .cards(),
            set("Ab Ac Ad")
        );
        assert_eq!(Accuso::Four(Rank::Two).cards(), set("2b 2c 2d 2s"));
    }
}
