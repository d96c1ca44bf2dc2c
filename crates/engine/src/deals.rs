//! What every game's match shares: the sequence of hands, who deals next, seeded or explicit
//! deals, and the checks on an explicit deal.

use thiserror::Error;

use crate::card::Card;
use crate::cardset::CardSet;
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

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
    Hand(#[from] crate::game::HandError),
}

/// A game's hand, as the shared match scaffolding needs it.
pub(crate) trait DealtHand: Sized {
    /// The game's options.
    type Opts: Copy;
    /// The game's deal.
    type Deal;
    /// Seats at the table.
    fn players(opts: &Self::Opts) -> u8;
    /// A checked new hand.
    fn checked(
        opts: Self::Opts,
        dealer: Seat,
        deal: Self::Deal,
    ) -> Result<Self, crate::game::HandError>;
    /// A new hand dealt from `rng`.
    fn from_rng(opts: Self::Opts, dealer: Seat, rng: &mut GameRng) -> Self;
    /// Who dealt it.
    fn dealer(&self) -> Seat;
    /// Whether it is over.
    fn is_over(&self) -> bool;
    /// Whether the same dealer deals again after it (a void Calabresella deal).
    fn same_dealer_again(&self) -> bool {
        false
    }
}

/// The hands of a match so far and how the next one is dealt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Deals<H> {
    pub(crate) first_dealer: Seat,
    pub(crate) hands: Vec<H>,
    rng: Option<GameRng>,
}

impl<H: DealtHand> Deals<H> {
    /// No hands yet; `first_dealer` deals the first.
    pub(crate) fn new(
        opts: &H::Opts,
        first_dealer: Seat,
    ) -> Result<Deals<H>, crate::game::HandError> {
        if first_dealer.index() >= H::players(opts) as usize {
            return Err(crate::game::HandError::Dealer(first_dealer));
        }
        Ok(Deals {
            first_dealer,
            hands: Vec::new(),
            rng: None,
        })
    }

    /// Deals from `seed`: the first dealer is drawn first unless given, then every hand comes
    /// from the same generator (C-D24).
    pub(crate) fn seeded(
        opts: H::Opts,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<Deals<H>, crate::game::HandError> {
        let mut rng = GameRng::from_seed(seed);
        let drawn =
            Seat::ALL[rng.below(u32::from(H::players(&opts).clamp(1, Seat::MAX as u8))) as usize];
        let mut d = Deals::new(&opts, first_dealer.unwrap_or(drawn))?;
        d.rng = Some(rng);
        d.deal_next(opts, false);
        Ok(d)
    }

    /// The hand being played.
    pub(crate) fn current(&self) -> Option<&H> {
        self.hands.last().filter(|h| !h.is_over())
    }

    /// The hand being played, mutably.
    pub(crate) fn current_mut(&mut self) -> Option<&mut H> {
        self.hands.last_mut().filter(|h| !h.is_over())
    }

    /// Runs `f` on the hand being played, or answers `HandOver` when none is: how every match
    /// applies an action to its current hand.
    pub(crate) fn on_current(
        &mut self,
        f: impl FnOnce(&mut H) -> Result<(), crate::error::IllegalAction>,
    ) -> Result<(), crate::error::IllegalAction> {
        f(self
            .current_mut()
            .ok_or(crate::error::IllegalAction::HandOver)?)
    }

    /// Who deals next, when a hand is due: the next seat, or the same after a void deal.
    pub(crate) fn next_dealer(&self, opts: &H::Opts, match_over: bool) -> Option<Seat> {
        if match_over || self.current().is_some() {
            return None;
        }
        Some(match self.hands.last() {
            Some(h) if h.same_dealer_again() => h.dealer(),
            Some(h) => h.dealer().next(H::players(opts)),
            None => self.first_dealer,
        })
    }

    /// Starts the next hand with an explicit deal by the dealer whose turn it is.
    pub(crate) fn start_hand(
        &mut self,
        opts: H::Opts,
        match_over: bool,
        dealer: Seat,
        deal: H::Deal,
    ) -> Result<(), DealRefused> {
        if match_over {
            return Err(DealRefused::MatchOver);
        }
        let expected = self
            .next_dealer(&opts, false)
            .ok_or(DealRefused::HandInProgress)?;
        if dealer != expected {
            return Err(DealRefused::WrongDealer {
                expected,
                got: dealer,
            });
        }
        self.hands.push(H::checked(opts, dealer, deal)?);
        Ok(())
    }

    /// Deals the next hand from the seeded generator, if the match has one.
    pub(crate) fn deal_next(&mut self, opts: H::Opts, match_over: bool) {
        if let Some(dealer) = self.next_dealer(&opts, match_over)
            && let Some(rng) = self.rng.as_mut()
        {
            let hand = H::from_rng(opts, dealer, rng);
            self.hands.push(hand);
        }
    }
}
