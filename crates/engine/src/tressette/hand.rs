//! [`Hand`]: one hand of Tressette or Tressette in Due, as a value.

use arrayvec::ArrayVec;

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::HandCore;
use crate::game::Rollout;
use crate::seat::Seat;
use crate::trick::{LAST_TRICK_THIRDS, follow_mask, truncate_points};

use super::accusi::{Accuso, declare};
use super::deal::Deal;
use super::event::Event;
use super::options::{Options, Variant};
use super::score::Outcome;
use crate::sink::EventSink;

mod protocol;

/// The most actions one hand can take: every card played once (accusi are declared
/// automatically at the deal, T-D2, not as actions).
pub(crate) const MAX_HISTORY: usize = 40;

/// The side of a seat: partnership 0 (seats 0 and 2) or 1 (seats 1 and 3); in Due the player.
#[inline]
pub const fn side_of(seat: Seat) -> usize {
    seat.index() % 2
}

/// One hand of a Tressette game: the deal, every card played, and the state they lead to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hand {
    /// The options, dealer, deal, cards held, tricks and turn (what every game shares).
    core: HandCore<Options, Deal>,
    stock_next: u8,
    accusi: ArrayVec<(Seat, Accuso), 24>,
    history: ArrayVec<u16, MAX_HISTORY>,
    legal: CardSet,
    outcome: Option<Outcome>,
}

impl Hand {
    /// Number of seats.
    pub fn players(&self) -> u8 {
        self.core.opts.variant.players()
    }

    /// The declarations made before the first lead, in order.
    pub fn accusi(&self) -> &[(Seat, Accuso)] {
        &self.accusi
    }

    /// The result once the hand is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Tressette in Due: the cards still in the stock, in draw order (hidden information).
    pub fn stock(&self) -> &[Card] {
        self.core
            .deal
            .stock
            .as_ref()
            .map_or(&[][..], |s| &s[self.stock_next as usize..])
    }

    /// The actions taken so far, in order.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        crate::action::plain_actions(&self.history)
    }

    /// Number of actions taken so far.
    pub fn action_count(&self) -> usize {
        self.history.len()
    }

    /// Whether follow suit binds now: always in Tressette; in Due once the stock is empty, or
    /// always with `follow_suit_always` (T-D5).
    fn must_follow(&self) -> bool {
        match self.core.opts.variant {
            Variant::Partnership => true,
            Variant::Due => self.core.opts.follow_suit_always || self.stock().is_empty(),
        }
    }

    fn compute_legal(&self) -> CardSet {
        let hand = self.core.hands[self.core.actor];
        if self.must_follow() {
            follow_mask(hand, self.core.tricks.current().led_mask())
        } else {
            hand
        }
    }

    /// Whether a signal may go with the next card: on a lead in partnership Tressette (T-D3).
    fn signals_allowed(&self) -> bool {
        self.core.opts.variant == Variant::Partnership && self.core.tricks.current().is_empty()
    }

    fn complete_trick<S: EventSink<Event>>(&mut self, sink: &mut S) {
        let (winner, side, _) = self.core.tricks.close_logged(side_of, sink);
        self.core.actor = winner;
        // T-D5: while the stock lasts the winner draws first, then the loser; both cards are shown.
        if let Some(stock) = self.core.deal.stock {
            let loser = winner.next(2);
            for who in [winner, loser] {
                if let Some(&c) = stock.get(self.stock_next as usize) {
                    self.core.hands[who].insert(c);
                    self.stock_next += 1;
                    if S::ACTIVE {
                        sink.push(Event::Drew { seat: who, card: c });
                    }
                }
            }
        }
        if self.core.tricks.done() < self.core.opts.variant.tricks() {
            return;
        }
        self.core
            .tricks
            .credit(side, LAST_TRICK_THIRDS, CardSet::EMPTY);
        let mut accusi = [0u32; 2];
        for &(seat, a) in &self.accusi {
            accusi[side_of(seat)] += a.points();
        }
        let card_points = self.core.tricks.side_thirds().map(truncate_points);
        let outcome = Outcome {
            card_points,
            accusi,
            points: [card_points[0] + accusi[0], card_points[1] + accusi[1]],
            tricks: self.core.tricks.side_tricks(),
            last_trick: side,
        };
        self.outcome = Some(outcome);
        if S::ACTIVE {
            sink.push(Event::Scored(outcome));
        }
    }
}

impl Rollout for Hand {
    /// Whether the hand is over.
    #[inline]
    fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// How many legal actions there are now.
    #[inline]
    fn num_legal_actions(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        self.legal.len() * if self.signals_allowed() { 4 } else { 1 }
    }

    /// The `i`-th legal action: cards in index order, each (on a signalled lead) plain first,
    /// then with busso, striscio and volo.
    #[inline]
    fn legal_action(&self, i: usize) -> Option<Action> {
        if self.is_over() {
            return None;
        }
        if self.signals_allowed() {
            let card = self.legal.nth(i / 4)?;
            Some(Action::Play(card, crate::action::LEAD_SIGNALS[i % 4]))
        } else {
            self.legal.nth(i).map(|c| Action::Play(c, None))
        }
    }

    /// The playable cards and whether the lead signals are offered with them (every step of a
    /// Tressette hand is a card play).
    #[inline]
    fn legal_plays(&self) -> Option<(CardSet, bool)> {
        (!self.is_over()).then(|| (self.legal, self.signals_allowed()))
    }

    /// Applies a legal `action` without checking it (contract as in
    /// [`crate::calabresella::Hand::apply_unchecked`]).
    #[inline]
    fn apply_unchecked(&mut self, action: Action) {
        crate::game::apply_quiet(self, action);
    }
}
