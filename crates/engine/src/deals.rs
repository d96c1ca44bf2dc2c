//! Dealing, as every game does it: the seeded deal by blocks, and the checks on an explicit
//! deal (and why a match refuses one).

use crate::card::Card;
use crate::cardset::CardSet;
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

// Where they were first published: the words are the game vocabulary's.
pub use crate::game::{DealError, DealRefused};

/// Checks that each seat holds `expected(seat)` cards and no card is dealt twice; returns every
/// card dealt to the seats.
pub(crate) fn check_hands(
    hands: &PerSeat<CardSet>,
    expected: impl Fn(Seat) -> usize,
) -> Result<CardSet, DealError> {
    let mut seen = CardSet::EMPTY;
    for seat in Seat::ALL {
        let (got, want) = (hands[seat].len(), expected(seat));
        if got != want {
            return Err(DealError::WrongSize {
                seat,
                got,
                expected: want,
            });
        }
        if let Some(c) = (seen & hands[seat]).first() {
            return Err(DealError::Duplicate(c));
        }
        seen |= hands[seat];
    }
    Ok(seen)
}

/// The deck in index order, before shuffling.
const DECK: [u8; 40] = {
    let mut d = [0u8; 40];
    let mut i = 0;
    while i < 40 {
        d[i] = i as u8;
        i += 1;
    }
    d
};

/// The seeded deal by blocks, for games that deal every seat the same number of cards: the deck
/// in index order is shuffled with [`GameRng::shuffle_above`]`(deck, size)`; positions
/// `0..size` go to the eldest (the seat after the dealer), the next blocks of `size` to the
/// following seats in play order. Returns the hands and the shuffled deck (what is left after
/// the hands is the stock of games that have one).
pub(crate) fn deal_blocks(
    rng: &mut GameRng,
    players: u8,
    dealer: Seat,
    size: usize,
) -> (PerSeat<CardSet>, [u8; 40]) {
    let mut deck = DECK;
    rng.shuffle_above(&mut deck, size);
    let mut hands = PerSeat::splat(CardSet::EMPTY);
    let mut seat = dealer.next(players);
    for block in deck[..size * players as usize].chunks_exact(size) {
        let mut bits = 0u64;
        for &c in block {
            bits |= 1 << (c & 63);
        }
        hands[seat] = CardSet::from_bits(bits);
        seat = seat.next(players);
    }
    (hands, deck)
}

/// Adds `cards` to `seen`, refusing a card dealt twice.
pub(crate) fn check_more(seen: &mut CardSet, cards: &[Card]) -> Result<(), DealError> {
    for &c in cards {
        if seen.contains(c) {
            return Err(DealError::Duplicate(c));
        }
        seen.insert(c);
    }
    Ok(())
}
