//! The trick-taking core shared by every game here: follow suit, no trumps, the highest card of
//! the led suit wins, and card points in thirds with truncation.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

/// The cards a player holding `hand` may play to a trick led in `led` (or lead, when `None`):
/// cards of the led suit if he has any, otherwise any card.
#[inline]
pub fn follow_suit(hand: CardSet, led: Option<Suit>) -> CardSet {
    match led {
        Some(s) => follow_mask(hand, CardSet::suit(s)),
        None => hand,
    }
}

/// [`follow_suit`] with the led suit given as its 10-card mask ([`CardSet::ALL`] when leading).
#[inline]
pub fn follow_mask(hand: CardSet, led: CardSet) -> CardSet {
    let same = hand & led;
    if same.is_empty() { hand } else { same }
}

/// A trick in progress: who led and the cards played so far, in play order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Trick {
    leader: Seat,
    cards: [Card; 4],
    len: u8,
    winner_pos: u8,
    set: CardSet,
    /// The led suit's ten cards, or every card before the lead.
    led: CardSet,
}

/// Filler for unplayed positions; never read beyond `len`.
const NO_CARD: Card = Card::from_index_unchecked(0);

impl Trick {
    /// An empty trick that `leader` will lead.
    pub const fn new(leader: Seat) -> Trick {
        Trick {
            leader,
            cards: [NO_CARD; 4],
            len: 0,
            winner_pos: 0,
            set: CardSet::EMPTY,
            led: CardSet::ALL,
        }
    }

    /// The seat that led (or will lead) this trick.
    #[inline]
    pub const fn leader(&self) -> Seat {
        self.leader
    }

    /// How many cards have been played to it.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no card has been played yet.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The suit of the first card, once one is played.
    #[inline]
    pub fn led_suit(&self) -> Option<Suit> {
        if self.len > 0 {
            Some(self.cards[0].suit())
        } else {
            None
        }
    }

    /// The led suit's ten cards, or every card before the lead: the mask [`follow_mask`] takes.
    #[inline]
    pub const fn led_mask(&self) -> CardSet {
        self.led
    }

    /// The cards played, in play order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.cards[..self.len()].iter().copied()
    }

    /// Adds the next card. Legality (follow suit) is the caller's business.
    #[inline]
    pub fn push(&mut self, card: Card) {
        let pos = self.len as usize & 3;
        if pos == 0 {
            self.led = CardSet::suit(card.suit());
        } else if self.led.contains(card) && card > self.cards[self.winner_pos as usize & 3] {
            // The winner is always of the led suit, so a higher led-suit card beats it.
            self.winner_pos = pos as u8;
        }
        self.cards[pos] = card;
        self.set.insert(card);
        self.len += 1;
    }

    /// Play position (0 = the leader) of the card now winning.
    #[inline]
    pub const fn winner_pos(&self) -> usize {
        self.winner_pos as usize
    }

    /// The card now winning, if any was played.
    #[inline]
    pub fn winning_card(&self) -> Option<Card> {
        (self.len > 0).then(|| self.cards[self.winner_pos as usize & 3])
    }

    /// The cards played with who played them, given the seat after each seat in play order.
    pub fn seated(&self, next: impl Fn(Seat) -> Seat) -> Vec<(Seat, Card)> {
        let mut seat = self.leader;
        self.cards()
            .map(|card| {
                let here = seat;
                seat = next(seat);
                (here, card)
            })
            .collect()
    }

    /// All cards played, as a set.
    pub fn card_set(&self) -> CardSet {
        self.set
    }

    /// Card points of the trick, in thirds.
    pub fn thirds(&self) -> u32 {
        self.set.thirds()
    }
}

/// Thirds added to the side that wins the last trick.
pub const LAST_TRICK_THIRDS: u32 = 3;

/// Converts a side's thirds to whole points, dropping the remainder (`floor(thirds / 3)`).
/// With 35 thirds per hand the two sides always sum to 11.
#[inline]
pub const fn truncate_points(thirds: u32) -> u32 {
    thirds / 3
}

/// How every game's event log writes a card played: `seat 1 plays Ad`, `seat 1 plays Ad busso`.
pub(crate) fn fmt_play(
    f: &mut std::fmt::Formatter<'_>,
    seat: Seat,
    card: Card,
    signal: Option<crate::action::Signal>,
) -> std::fmt::Result {
    match signal {
        None => write!(f, "seat {seat} plays {card}"),
        Some(s) => write!(f, "seat {seat} plays {card} {}", s.name()),
    }
}

/// How every game's event log writes a completed trick: `trick 3 to seat 2: 3b Ab 7b`.
pub(crate) fn fmt_trick(
    f: &mut std::fmt::Formatter<'_>,
    number: u8,
    winner: Seat,
    cards: CardSet,
) -> std::fmt::Result {
    write!(f, "trick {number} to seat {winner}: {cards}")
}
