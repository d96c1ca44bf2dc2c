//! The trick-taking core shared by every game here: follow suit, the highest card of the led
//! suit wins (or the game's own ranking, for trumps), card points in thirds with truncation,
//! and [`Tricks`], the bookkeeping of a hand's tricks every game repeats.

use crate::action::Signal;
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::{SLOTS, Seat};
use crate::sink::EventSink;

/// The card events every game logs (a seat's cards dealt, a card played, a trick won), built
/// in each game's own event type.
pub trait CardEvents: Clone {
    /// `seat` was dealt `cards` (seen by that seat alone).
    fn dealt(seat: Seat, cards: CardSet) -> Self;
    /// `seat` played `card`, with a lead signal where the game has them.
    fn played(seat: Seat, card: Card, signal: Option<Signal>) -> Self;
    /// The trick numbered `number` (1-based) went to `winner` with `cards`.
    fn trick_won(number: u8, winner: Seat, cards: CardSet) -> Self;
    /// Who played which card, if this event is a play.
    fn play(&self) -> Option<(Seat, Card)>;
    /// The card this event plays, if it is a play.
    fn card_played(&self) -> Option<Card> {
        self.play().map(|(_, card)| card)
    }
    /// The seat this event deals cards to, if it is a deal.
    fn dealt_to(&self) -> Option<Seat>;
    /// The number of the trick this event completes, if it completes one.
    fn trick_completed(&self) -> Option<u8>;
}

/// Declares a game module's event enum: the variants the game writes, after the three every
/// game shares (`Dealt`, `Played`, `TrickWon`, whose fields are the wire's and the records'),
/// with [`CardEvents`] for it and `fmt_card_event`, the text of those three.
macro_rules! card_events {
    ($(#[$meta:meta])* pub enum $name:ident { $($own:tt)* }) => {
        $(#[$meta])*
        pub enum $name {
            /// A seat received its cards (private to that seat).
            Dealt {
                /// The seat.
                seat: $crate::seat::Seat,
                /// Its cards.
                cards: $crate::cardset::CardSet,
            },
            /// A card was played to the trick (public).
            Played {
                /// Who played.
                seat: $crate::seat::Seat,
                /// The card.
                card: $crate::card::Card,
                /// A lead signal (busso, striscio or volo), in the games that have them.
                signal: Option<$crate::action::Signal>,
            },
            /// A trick was completed (public).
            TrickWon {
                /// Trick number, 1-based.
                number: u8,
                /// Who won it.
                winner: $crate::seat::Seat,
                /// Its cards.
                cards: $crate::cardset::CardSet,
            },
            $($own)*
        }

        impl $name {
            /// The text of a shared card event (`seat 1 plays 3b`); nothing for the game's own.
            fn fmt_card_event(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    $name::Dealt { seat, cards } => write!(f, "seat {seat} is dealt {cards}"),
                    $name::Played { seat, card, signal } => {
                        $crate::trick::fmt_play(f, *seat, *card, *signal)
                    }
                    $name::TrickWon { number, winner, cards } => {
                        write!(f, "trick {number} to seat {winner}: {cards}")
                    }
                    _ => Ok(()),
                }
            }
        }

        impl $crate::trick::CardEvents for $name {
            fn dealt(seat: $crate::seat::Seat, cards: $crate::cardset::CardSet) -> $name {
                $name::Dealt { seat, cards }
            }
            fn played(
                seat: $crate::seat::Seat,
                card: $crate::card::Card,
                signal: Option<$crate::action::Signal>,
            ) -> $name {
                $name::Played { seat, card, signal }
            }
            fn trick_won(
                number: u8,
                winner: $crate::seat::Seat,
                cards: $crate::cardset::CardSet,
            ) -> $name {
                $name::TrickWon { number, winner, cards }
            }
            fn play(&self) -> Option<($crate::seat::Seat, $crate::card::Card)> {
                match self {
                    $name::Played { seat, card, .. } => Some((*seat, *card)),
                    _ => None,
                }
            }
            fn trick_completed(&self) -> Option<u8> {
                match self {
                    $name::TrickWon { number, .. } => Some(*number),
                    _ => None,
                }
            }
            fn dealt_to(&self) -> Option<$crate::seat::Seat> {
                match self {
                    $name::Dealt { seat, .. } => Some(*seat),
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use card_events;

/// Every card `events` play (the public record of the tricks so far).
pub fn cards_played<E: CardEvents>(events: &[E]) -> CardSet {
    events.iter().filter_map(E::card_played).collect()
}

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
    cards: [Card; SLOTS],
    len: u8,
    winner_pos: u8,
    /// The winning card's rank under [`Trick::push_ranked`]'s ranking (unused by `push`).
    win_rank: u16,
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
            cards: [NO_CARD; SLOTS],
            len: 0,
            winner_pos: 0,
            win_rank: 0,
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
        self.cards[..self.len().min(Seat::MAX)].iter().copied()
    }

    /// Adds the next card. Legality (follow suit) is the caller's business, and so is closing
    /// the trick once every seat has played.
    #[inline]
    pub fn push(&mut self, card: Card) {
        debug_assert!(
            (self.len as usize) < Seat::MAX,
            "a trick holds a card per seat"
        );
        let pos = self.len as usize;
        if pos == 0 {
            self.led = CardSet::suit(card.suit());
        } else if self.led.contains(card)
            && card > self.cards[self.winner_pos as usize & (SLOTS - 1)]
        {
            // The winner is always of the led suit, so a higher led-suit card beats it.
            self.winner_pos = pos as u8;
        }
        self.cards[pos & (SLOTS - 1)] = card;
        self.set.insert(card);
        self.len += 1;
    }

    /// Adds the next card, ranked by the game's own rule: `rank` gives each card's strength in
    /// this trick (0: it cannot win, like an off-suit card without trumps), and a card wins if
    /// it ranks above the card winning so far. The first card always leads. For games with
    /// trumps or without the duty to follow suit.
    #[inline(always)]
    pub fn push_ranked(&mut self, card: Card, rank: impl Fn(Card) -> u16) {
        debug_assert!(
            (self.len as usize) < Seat::MAX,
            "a trick holds a card per seat"
        );
        let pos = self.len as usize;
        // Each card is ranked once; the winner's rank is kept.
        let r = rank(card);
        if pos == 0 {
            self.led = CardSet::suit(card.suit());
            self.win_rank = r;
        } else if r > self.win_rank {
            self.winner_pos = pos as u8;
            self.win_rank = r;
        }
        self.cards[pos & (SLOTS - 1)] = card;
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
        (self.len > 0).then(|| self.cards[self.winner_pos as usize & (SLOTS - 1)])
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

/// A hand's tricks: the trick in progress with the seat of each card, how many tricks are
/// complete, and for each of two sides the tricks, thirds and cards it won. The game says which
/// side a seat is on (it may change with the auction) and adds what else a side takes (the last
/// trick's bonus, a monte); [`Trick::push_ranked`] serves games with trumps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tricks {
    trick: Trick,
    /// Who played each position of the trick in progress.
    seats: [Seat; SLOTS],
    done: u8,
    side_tricks: [u32; 2],
    side_thirds: [u32; 2],
    won: [CardSet; 2],
}

impl Tricks {
    /// No trick played yet; `leader` leads the first.
    pub const fn new(leader: Seat) -> Tricks {
        Tricks {
            trick: Trick::new(leader),
            seats: [leader; SLOTS],
            done: 0,
            side_tricks: [0; 2],
            side_thirds: [0; 2],
            won: [CardSet::EMPTY; 2],
        }
    }

    /// The trick in progress.
    #[inline]
    pub const fn current(&self) -> &Trick {
        &self.trick
    }

    /// Completed tricks.
    #[inline]
    pub const fn done(&self) -> u8 {
        self.done
    }

    /// Tricks won per side.
    #[inline]
    pub const fn side_tricks(&self) -> [u32; 2] {
        self.side_tricks
    }

    /// Thirds won per side (with whatever [`Tricks::credit`] added).
    #[inline]
    pub const fn side_thirds(&self) -> [u32; 2] {
        self.side_thirds
    }

    /// Cards won per side (with whatever [`Tricks::credit`] added).
    #[inline]
    pub const fn won(&self) -> [CardSet; 2] {
        self.won
    }

    /// Starts the trick in progress afresh, led by `leader` (before the first card of a hand).
    #[inline]
    pub fn lead_by(&mut self, leader: Seat) {
        self.trick = Trick::new(leader);
    }

    /// `seat` plays `card` to the trick (following suit is the caller's business); the highest
    /// card of the led suit wins.
    #[inline]
    pub fn play(&mut self, seat: Seat, card: Card) {
        self.seats[self.trick.len() & (SLOTS - 1)] = seat;
        self.trick.push(card);
    }

    /// [`Tricks::play`] with the game's own ranking (see [`Trick::push_ranked`]).
    #[inline(always)]
    pub fn play_ranked(&mut self, seat: Seat, card: Card, rank: impl Fn(Card) -> u16) {
        self.seats[self.trick.len() & (SLOTS - 1)] = seat;
        self.trick.push_ranked(card, rank);
    }

    /// `seat` plays `card` out of `hand` to the trick (as [`Tricks::play`]), and the play is
    /// logged.
    #[inline(always)]
    pub fn play_from<E: CardEvents, S: EventSink<E>>(
        &mut self,
        hand: &mut CardSet,
        seat: Seat,
        (card, signal): (Card, Option<Signal>),
        sink: &mut S,
    ) {
        hand.remove(card);
        self.play(seat, card);
        if S::ACTIVE {
            sink.push(E::played(seat, card, signal));
        }
    }

    /// Closes the full trick in progress for the winner's side (`side_of` the winner), as
    /// [`Tricks::close`], and logs it: returns the winner, the side and the trick's cards.
    #[inline(always)]
    pub fn close_logged<E: CardEvents, S: EventSink<E>>(
        &mut self,
        side_of: impl FnOnce(Seat) -> usize,
        sink: &mut S,
    ) -> (Seat, usize, CardSet) {
        let side = side_of(self.winner());
        let (winner, cards) = self.close(side);
        if S::ACTIVE {
            sink.push(E::trick_won(self.done, winner, cards));
        }
        (winner, side, cards)
    }

    /// The seat whose card is winning the trick in progress.
    #[inline]
    pub fn winner(&self) -> Seat {
        self.seats[self.trick.winner_pos() & (SLOTS - 1)]
    }

    /// Closes the trick in progress for `side` (the winner's): counts it, credits its thirds and
    /// cards, and lets the winner lead the next. Returns the winner and the trick's cards.
    pub fn close(&mut self, side: usize) -> (Seat, CardSet) {
        let winner = self.winner();
        let cards = self.trick.card_set();
        let side = side & 1;
        self.side_tricks[side] += 1;
        self.side_thirds[side] += cards.thirds();
        self.won[side] |= cards;
        self.done += 1;
        self.trick = Trick::new(winner);
        (winner, cards)
    }

    /// Adds `thirds` and `cards` to `side`: the last trick's bonus, a monte (whose own thirds
    /// the caller includes in `thirds` when they count).
    pub fn credit(&mut self, side: usize, thirds: u32, cards: CardSet) {
        let side = side & 1;
        self.side_thirds[side] += thirds;
        self.won[side] |= cards;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Rank;

    fn card(s: &str) -> Card {
        s.parse().expect("test card")
    }

    fn seat(i: u8) -> Seat {
        Seat::new(i).expect("seat")
    }

    #[test]
    fn the_highest_card_of_the_led_suit_wins_without_trumps() {
        let mut t = Tricks::new(seat(1));
        for (s, c) in [(1, "Kc"), (2, "3d"), (0, "2c")] {
            t.play(seat(s), card(c));
        }
        assert_eq!(
            t.winner(),
            seat(0),
            "the 2 beats the king; an off-suit 3 cannot win"
        );
        assert_eq!(t.current().led_suit(), Some(card("Kc").suit()));
    }

    #[test]
    fn a_ranking_with_trumps_lets_a_trump_win_and_the_higher_trump_win_over_it() {
        // Briscola-like: denari trump, and the ace above the three.
        let trump = CardSet::suit(card("Ad").suit());
        let order = |c: Card| match c.rank() {
            Rank::Ace => 10,
            Rank::Three => 9,
            r => u16::from(r.power()),
        };
        let mut t = Tricks::new(seat(0));
        let led = CardSet::suit(card("Kc").suit());
        let rank = |c: Card| {
            if trump.contains(c) {
                100 + order(c)
            } else if led.contains(c) {
                1 + order(c)
            } else {
                0
            }
        };
        t.play_ranked(seat(0), card("Kc"), rank);
        t.play_ranked(seat(1), card("Ac"), rank);
        assert_eq!(t.winner(), seat(1), "the ace ranks above the king here");
        t.play_ranked(seat(2), card("4d"), rank);
        assert_eq!(t.winner(), seat(2), "the lowest trump beats the led suit");
        t.play_ranked(seat(3), card("3s"), rank);
        assert_eq!(t.winner(), seat(2), "an off-suit card never wins");
    }

    #[test]
    fn closing_a_trick_credits_its_side_and_the_winner_leads() {
        let mut t = Tricks::new(seat(0));
        for (s, c) in [(0, "Ab"), (1, "3b"), (2, "4b")] {
            t.play(seat(s), card(c));
        }
        let (winner, cards) = t.close(1);
        assert_eq!(winner, seat(1));
        assert_eq!(cards.len(), 3);
        assert_eq!(
            (t.done(), t.side_tricks(), t.side_thirds()),
            (1, [0, 1], [0, 4])
        );
        assert_eq!(t.won()[1], cards);
        assert!(t.current().is_empty());
        assert_eq!(t.current().leader(), seat(1));
        // A credit adds the thirds it is given; the cards' own are the caller's to count.
        t.credit(0, LAST_TRICK_THIRDS, CardSet::single(card("Ad")));
        assert_eq!(t.side_thirds(), [3, 4]);
        assert!(t.won()[0].contains(card("Ad")));
    }
}
