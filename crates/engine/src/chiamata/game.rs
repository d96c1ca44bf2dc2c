//! [`Match`]: a fixed number of scored hands with individual, zero-sum totals (TC-D14, BC-D13,
//! CH-D5).

use crate::action::Action;
use crate::deals::{DealRefused, Deals, DealtHand};
use crate::error::IllegalAction;
use crate::game::{ActionList, HandError, MatchResult, Viewer};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

use super::deal::Deal;
use super::event::Event;
use super::hand::Hand;
use super::observation::Observation;
use super::options::Options;

impl DealtHand for Hand {
    type Opts = Options;
    type Deal = Deal;
    fn players(opts: &Options) -> u8 {
        opts.players
    }
    fn checked(opts: Options, dealer: Seat, deal: Deal) -> Result<Hand, HandError> {
        Hand::new(opts, dealer, deal)
    }
    fn from_rng(opts: Options, dealer: Seat, rng: &mut GameRng) -> Hand {
        Hand::new_unchecked(opts, dealer, Deal::shuffled(rng, opts.players, dealer))
    }
    fn dealer(&self) -> Seat {
        Hand::dealer(self)
    }
    fn is_over(&self) -> bool {
        Hand::is_over(self)
    }
    /// CH-D5: after a void deal the same dealer deals again.
    fn same_dealer_again(&self) -> bool {
        self.is_void()
    }
}

/// The seats with the highest total: every one of them wins (TC-D14).
pub(crate) fn leaders(totals: &PerSeat<i32>, players: u8) -> Vec<Seat> {
    let best = Seat::first_n(players).map(|s| totals[s]).max().unwrap_or(0);
    Seat::first_n(players)
        .filter(|&s| totals[s] == best)
        .collect()
}

/// A whole match as a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    opts: Options,
    deals: Deals<Hand>,
    totals: PerSeat<i32>,
    scored: u32,
    /// Void deals so far (every player passed).
    voids: u32,
    result: Option<MatchResult>,
}

impl Match {
    /// A match whose hands the caller deals with [`Match::start_hand`].
    pub fn new(opts: Options, first_dealer: Seat) -> Result<Match, HandError> {
        opts.validate()?;
        Ok(Match {
            opts,
            deals: Deals::new(&opts, first_dealer)?,
            totals: PerSeat::splat(0),
            scored: 0,
            voids: 0,
            result: None,
        })
    }

    /// A match dealt from `seed` (the first dealer drawn first unless given).
    pub fn seeded(
        opts: Options,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<Match, HandError> {
        opts.validate()?;
        Ok(Match {
            opts,
            deals: Deals::seeded(opts, seed, first_dealer)?,
            totals: PerSeat::splat(0),
            scored: 0,
            voids: 0,
            result: None,
        })
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The first dealer.
    pub fn first_dealer(&self) -> Seat {
        self.deals.first_dealer
    }

    /// Totals per seat (they sum to zero).
    pub fn totals(&self) -> PerSeat<i32> {
        self.totals
    }

    /// Hands scored so far (void deals do not count).
    pub fn hands_scored(&self) -> u32 {
        self.scored
    }

    /// Every hand so far, void deals included.
    pub fn hands(&self) -> &[Hand] {
        &self.deals.hands
    }

    /// The hand being played.
    pub fn current(&self) -> Option<&Hand> {
        self.deals.current()
    }

    /// The result once over: the seats with the highest total, or a draw at the deal cap.
    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Who deals next, when the match waits for a hand.
    pub fn next_dealer(&self) -> Option<Seat> {
        self.deals.next_dealer(&self.opts, self.is_over())
    }

    /// Starts the next hand with an explicit deal by the next dealer.
    pub fn start_hand(&mut self, dealer: Seat, deal: Deal) -> Result<(), DealRefused> {
        self.deals
            .start_hand(self.opts, self.is_over(), dealer, deal)
    }

    /// Who acts now.
    pub fn actor(&self) -> Option<Seat> {
        self.current().and_then(Hand::actor)
    }

    /// The legal actions now.
    pub fn legal_actions(&self) -> ActionList {
        self.current().map(Hand::legal_actions).unwrap_or_default()
    }

    /// Applies a legal `action` without checking it (see [`Hand::apply_unchecked`]).
    pub fn apply_unchecked(&mut self, action: Action) {
        if let Some(hand) = self.deals.current_mut() {
            hand.apply_unchecked(action);
            self.after_action();
        }
    }

    /// Applies `action` for `seat`, which must be the one to act; on error nothing changes.
    pub fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.deals.on_current(|h| h.try_apply_as(seat, action))?;
        self.after_action();
        Ok(())
    }

    /// Like [`Match::try_apply_as`], appending the events of the current hand that the action
    /// causes (nothing hidden) to `log`.
    pub fn try_apply_logged(
        &mut self,
        seat: Seat,
        action: Action,
        log: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        self.deals
            .on_current(|h| h.try_apply_logged(seat, action, log))?;
        self.after_action();
        Ok(())
    }

    fn after_action(&mut self) {
        let Some(last) = self.deals.hands.last() else {
            return;
        };
        if !last.is_over() {
            return;
        }
        if let Some(o) = last.outcome() {
            for s in Seat::first_n(self.opts.players) {
                self.totals[s] += o.award[s];
            }
            self.scored += 1;
        } else {
            self.voids += 1;
        }
        if self.scored >= self.opts.match_hands() {
            self.result = Some(MatchResult::won(leaders(&self.totals, self.opts.players)));
        } else if self.voids >= self.opts.max_deals {
            self.result = Some(MatchResult::draw());
        } else {
            self.deals.deal_next(self.opts, false);
        }
    }

    /// The view of `viewer`, with match totals and earlier results.
    pub fn observation(&self, viewer: Viewer) -> Option<Observation> {
        let (hand, earlier) = self.deals.hands.split_last()?;
        let mut obs = hand.observation(viewer);
        obs.hand_number = earlier.len() as u32;
        obs.totals = self.totals;
        obs.previous = earlier
            .iter()
            .filter_map(|h| h.outcome().copied())
            .collect();
        Some(obs)
    }
}
