//! [`Deal`]: the cards of one hand as dealt: all 40, eight to each of five seats (ten to each
//! of four), no monte and no stock (TC-D1, BC-D1).

use crate::cardset::CardSet;
use crate::deals::{DealError, check_hands, deal_blocks};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

/// Each seat's cards as dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deal {
    /// Each seat's hand.
    pub hands: PerSeat<CardSet>,
}

impl Deal {
    /// The seeded deal: [`GameRng::shuffle_above`]`(deck, size)` on the deck in index order,
    /// then blocks of `size` (8, or 10 with four players) to the seats in play order from the
    /// eldest, as in Tressette.
    pub fn shuffled(rng: &mut GameRng, players: u8, dealer: Seat) -> Deal {
        let size = 40 / players as usize;
        Deal {
            hands: deal_blocks(rng, players, dealer, size).0,
        }
    }

    /// Checks an explicit deal: every seat the same number of cards, every card once.
    pub fn validate(&self, players: u8) -> Result<(), DealError> {
        let size = 40 / players as usize;
        check_hands(&self.hands, |s| {
            if s.index() < players as usize {
                size
            } else {
                0
            }
        })
        .map(|_| ())
    }
}
