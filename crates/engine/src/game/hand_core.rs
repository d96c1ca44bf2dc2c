//! [`HandCore`]: what every game's hand holds besides its own rules, so that each game keeps
//! only its auction, contract, legality and scoring, and the accessors every surface reads
//! ([`crate::game::GameHand`]'s `dealer`, `hand_of`, `options`, `deal`, `trick_cards`...) are
//! written once.

use crate::action::Signal;
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::error::IllegalAction;
use crate::seat::{PerSeat, Seat};
use crate::trick::{Trick, Tricks};

/// The state every game's hand shares: the options and the deal it started from, who dealt,
/// the cards each seat holds now, the tricks, and whose turn it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HandCore<O, D> {
    /// The options in force.
    pub(crate) opts: O,
    /// Who dealt.
    pub(crate) dealer: Seat,
    /// The deal the hand started from.
    pub(crate) deal: D,
    /// The cards each seat holds now (hidden information).
    pub(crate) hands: PerSeat<CardSet>,
    /// The tricks: the one in progress, and what each side won.
    pub(crate) tricks: Tricks,
    /// Whose turn it is (meaningless once the hand is over).
    pub(crate) actor: Seat,
}

impl<O, D> HandCore<O, D> {
    /// A hand dealt by `dealer` from `deal`, the seats holding `hands`: `actor` acts first,
    /// and `leader` will lead the first trick.
    pub(crate) const fn new(
        opts: O,
        dealer: Seat,
        deal: D,
        hands: PerSeat<CardSet>,
        (leader, actor): (Seat, Seat),
    ) -> HandCore<O, D> {
        HandCore {
            opts,
            dealer,
            deal,
            hands,
            tricks: Tricks::new(leader),
            actor,
        }
    }

    /// The options in force.
    pub const fn options(&self) -> &O {
        &self.opts
    }

    /// Who dealt.
    pub const fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The deal the hand started from (hidden information until the hand is over).
    pub const fn deal(&self) -> &D {
        &self.deal
    }

    /// The cards `seat` holds now (hidden information: for referees and tests).
    pub fn hand_of(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The trick in progress.
    pub const fn trick(&self) -> &Trick {
        self.tricks.current()
    }

    /// The cards of the trick in progress, in play order.
    pub fn trick_cards(&self) -> Vec<Card> {
        self.trick().cards().collect()
    }

    /// Completed tricks.
    pub const fn tricks_done(&self) -> u8 {
        self.tricks.done()
    }

    /// Cards won so far per side (hidden while a partnership is secret).
    pub const fn piles(&self) -> [CardSet; 2] {
        self.tricks.won()
    }

    /// Tricks won so far per side (hidden while a partnership is secret).
    pub const fn side_tricks(&self) -> [u32; 2] {
        self.tricks.side_tricks()
    }

    /// Why the actor may not play `card` with `signal` now, or `Ok`: a signal where the game
    /// offers none (`signals` says whether it does now), a card the actor does not hold, or
    /// one outside `playable` (the cards that follow suit where following binds).
    pub(crate) fn check_play(
        &self,
        (card, signal): (Card, Option<Signal>),
        signals: bool,
        playable: CardSet,
    ) -> Result<(), IllegalAction> {
        if signal.is_some() && !signals {
            return Err(IllegalAction::SignalNotAllowed);
        }
        if !self.hands[self.actor].contains(card) {
            return Err(IllegalAction::NotInHand(card));
        }
        if !playable.contains(card) {
            return Err(IllegalAction::MustFollowSuit(
                self.trick().led_suit().unwrap_or(Suit::Bastoni),
            ));
        }
        Ok(())
    }
}
