//! Briscola Chiamata's own card order and points (BC-D2); Tressette con la Chiamata uses the
//! common ones (thirds, the 3 highest).

use crate::card::{Card, Rank};
use crate::cardset::CardSet;

/// A card's strength within its suit in Briscola: A 9, 3 8, K 7, C 6, F 5, 7 4, 6 3, 5 2, 4 1,
/// 2 0 (BC-D2).
#[inline]
pub const fn briscola_order(rank: Rank) -> u16 {
    match rank {
        Rank::Ace => 9,
        Rank::Three => 8,
        Rank::Re => 7,
        Rank::Cavallo => 6,
        Rank::Fante => 5,
        Rank::Seven => 4,
        Rank::Six => 3,
        Rank::Five => 2,
        Rank::Four => 1,
        Rank::Two => 0,
    }
}

/// A card's points in Briscola: A 11, 3 10, K 4, C 3, F 2, the rest 0 (BC-D2).
#[inline]
pub const fn briscola_points(rank: Rank) -> u32 {
    match rank {
        Rank::Ace => 11,
        Rank::Three => 10,
        Rank::Re => 4,
        Rank::Cavallo => 3,
        Rank::Fante => 2,
        _ => 0,
    }
}

/// The Briscola points of a set of cards: 120 for the whole deck.
#[inline]
pub fn briscola_points_of(cards: CardSet) -> u32 {
    // Per rank, the count of the set's cards of that rank times the rank's points.
    [
        (Rank::Ace, 11),
        (Rank::Three, 10),
        (Rank::Re, 4),
        (Rank::Cavallo, 3),
        (Rank::Fante, 2),
    ]
    .iter()
    .map(|&(r, p)| (cards & CardSet::rank_mask(r)).len() as u32 * p)
    .sum()
}

/// [`briscola_order`] by card index: the trick path looks it up instead of working out the
/// rank (a division) on every card.
const ORDER_BY_INDEX: [u8; 40] = {
    let mut t = [0u8; 40];
    let mut i = 0;
    while i < 40 {
        t[i] = briscola_order(Rank::from_power((i % 10) as u8)) as u8;
        i += 1;
    }
    t
};

/// The strength of `card` in a Briscola trick led in `led` with `trump` trumps: a trump beats
/// every other card, a card of the led suit beats the rest, and any other card cannot win
/// (0). The winner of a trick ranks highest (BC-D9).
#[inline]
pub fn briscola_strength(card: Card, led: CardSet, trump: CardSet) -> u16 {
    let order = u16::from(ORDER_BY_INDEX[usize::from(card.index())]);
    if trump.contains(card) {
        100 + order
    } else if led.contains(card) {
        1 + order
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bc_d2_the_deck_is_worth_120_and_each_suit_30() {
        assert_eq!(briscola_points_of(CardSet::ALL), 120);
        for s in crate::card::Suit::ALL {
            assert_eq!(briscola_points_of(CardSet::suit(s)), 30);
        }
        let by_card: u32 = Card::all().map(|c| briscola_points(c.rank())).sum();
        assert_eq!(by_card, 120);
    }

    #[test]
    fn the_order_table_agrees_with_the_order() {
        for c in Card::all() {
            assert_eq!(
                u16::from(ORDER_BY_INDEX[usize::from(c.index())]),
                briscola_order(c.rank())
            );
        }
    }

    #[test]
    fn bc_d2_order_is_ace_three_king_down_to_two() {
        let order: Vec<Rank> = {
            let mut r = Rank::ALL.to_vec();
            r.sort_by_key(|&r| std::cmp::Reverse(briscola_order(r)));
            r
        };
        assert_eq!(
            order.iter().map(|r| r.letter()).collect::<String>(),
            "A3KCF7654".to_owned() + "2"
        );
    }
}
