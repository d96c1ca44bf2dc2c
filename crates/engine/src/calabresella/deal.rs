//! [`Deal`]: who holds which cards at the start of a hand, dealt from a seed or given explicitly.

use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::{check_hands, check_more};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

/// Cards dealt to each active player (C-D1).
pub const HAND_SIZE: usize = 12;

/// The cards of one hand as dealt: 12 to each active player, 4 to the monte (in deal order,
/// which matters for dividete, C-D9). The idle dealer of a four-player game holds no cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deal {
    /// Each seat's hand as dealt (empty for an idle dealer and for unused seats).
    pub hands: PerSeat<CardSet>,
    /// The monte in deal order.
    pub monte: [Card; 4],
}

pub use crate::deals::DealError;

impl Deal {
    /// The seat that sits the hand out: the dealer in a four-player game.
    pub fn idle_seat(players: u8, dealer: Seat) -> Option<Seat> {
        (players == 4).then_some(dealer)
    }

    /// Shuffles the deck with `rng` and deals it. This is the stable seeded deal: the same seed
    /// gives the same deal on every platform and in every release (a golden test pins it).
    ///
    /// The deck before shuffling is the cards in index order ([`Card::index`]). It is shuffled
    /// with [`GameRng::shuffle_above`]`(deck, 12)` (see [`crate::rng`]). Then positions `0..12`
    /// go to the eldest (the active seat after the dealer), `12..24` to the next active seat,
    /// `24..36` to the third, and `36..40` are the monte in that order. (A deal by blocks is as
    /// uniform as one by packets of four, and the first block needs no draws.)
    pub fn shuffled(rng: &mut GameRng, players: u8, dealer: Seat) -> Deal {
        let mut deck = [0u8; 40];
        for (i, slot) in deck.iter_mut().enumerate() {
            *slot = i as u8;
        }
        rng.shuffle_above(&mut deck, HAND_SIZE);
        let active = active_seats(players, dealer);
        let mut hands = PerSeat::splat(CardSet::EMPTY);
        for (block, cards) in deck[..36].chunks_exact(HAND_SIZE).enumerate() {
            let bits = cards.iter().fold(0u64, |acc, &ci| acc | 1 << ci);
            hands[active[block]] = CardSet::from_bits(bits);
        }
        let monte = [36, 37, 38, 39].map(|k| Card::from_index_unchecked(deck[k]));
        Deal { hands, monte }
    }

    /// Checks an explicit deal: 12 cards per active seat, none for the idle dealer or unused
    /// seats, 4 in the monte, every card of the deck exactly once.
    pub fn validate(&self, players: u8, dealer: Seat) -> Result<(), DealError> {
        let active = active_seats(players, dealer);
        let mut seen = check_hands(
            &self.hands,
            |s| if active.contains(&s) { HAND_SIZE } else { 0 },
        )?;
        check_more(&mut seen, &self.monte)
    }
}

/// The three active seats in play order from the eldest (the seat after the dealer), skipping
/// an idle dealer.
pub fn active_seats(players: u8, dealer: Seat) -> [Seat; 3] {
    let first = dealer.next(players);
    let second = first.next(players);
    let third = second.next(players);
    // With 3 players the third seat after the dealer is the dealer himself.
    [first, second, third]
}
