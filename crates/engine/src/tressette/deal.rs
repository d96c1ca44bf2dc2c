//! [`Deal`]: the cards of one Tressette hand as dealt.

use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::{DealError, check_hands, check_more, deal_blocks};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

use super::options::Variant;

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 10;

/// Each seat's 10 cards and, in Tressette in Due, the 20-card stock in draw order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deal {
    /// Each seat's hand as dealt.
    pub hands: PerSeat<CardSet>,
    /// Tressette in Due: the stock, first card drawn first.
    pub stock: Option<[Card; 20]>,
}

impl Deal {
    /// The seeded deal: the deck in index order is shuffled with
    /// [`GameRng::shuffle_above`]`(deck, 10)`; positions `0..10` go to the eldest (the seat after
    /// the dealer), the next blocks of 10 to the following seats in play order, and in
    /// Tressette in Due positions `20..40` are the stock in draw order.
    pub fn shuffled(rng: &mut GameRng, variant: Variant, dealer: Seat) -> Deal {
        let (hands, deck) = deal_blocks(rng, variant.players(), dealer, HAND_SIZE);
        let stock = (variant == Variant::Due)
            .then(|| std::array::from_fn(|i| Card::from_index_unchecked(deck[20 + i])));
        Deal { hands, stock }
    }

    /// Checks an explicit deal: 10 cards per seat, the stock (in Due only) of 20, every card once.
    pub fn validate(&self, variant: Variant) -> Result<(), DealError> {
        let n = variant.players() as usize;
        let mut seen = check_hands(&self.hands, |s| if s.index() < n { HAND_SIZE } else { 0 })?;
        match (variant, &self.stock) {
            (Variant::Due, Some(stock)) => check_more(&mut seen, stock),
            (Variant::Due, None) => Err(DealError::WrongStock {
                got: 0,
                expected: 20,
            }),
            (Variant::Partnership, Some(_)) => Err(DealError::WrongStock {
                got: 20,
                expected: 0,
            }),
            (Variant::Partnership, None) => Ok(()),
        }
    }
}
