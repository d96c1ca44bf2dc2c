//! [`Match`]: Tressette hands in sequence, to the target (T-D4).

use crate::action::Action;
use crate::deals::{DealRefused, Deals, DealtHand};
use crate::error::IllegalAction;
use crate::rng::GameRng;
use crate::seat::Seat;

use super::deal::Deal;
use super::event::Event;
use super::hand::{Hand, side_of};
use super::observation::Observation;
use super::options::Options;
use super::score::Outcome;
use crate::game::{ActionList, HandError, MatchResult, Viewer};

/// T-D4, checked after each hand: the side at or above the target wins; both: the higher total
/// wins, and equal totals mean another hand.
pub(crate) fn winner(totals: [u32; 2], target: u32) -> Option<usize> {
    match (totals[0] >= target, totals[1] >= target) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        (true, true) if totals[0] != totals[1] => Some(usize::from(totals[1] > totals[0])),
        _ => None,
    }
}

impl DealtHand for Hand {
    type Opts = Options;
    type Deal = Deal;
    fn players(opts: &Options) -> u8 {
        opts.variant.players()
    }
    fn checked(opts: Options, dealer: Seat, deal: Deal) -> Result<Hand, HandError> {
        Hand::new(opts, dealer, deal)
    }
    fn from_rng(opts: Options, dealer: Seat, rng: &mut GameRng) -> Hand {
        Hand::new_unchecked(opts, dealer, Deal::shuffled(rng, opts.variant, dealer))
    }
    fn dealer(&self) -> Seat {
        Hand::dealer(self)
    }
    fn is_over(&self) -> bool {
        Hand::is_over(self)
    }
}

/// A whole Tressette match as a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    opts: Options,
    deals: Deals<Hand>,
    totals: [u32; 2],
    result: Option<MatchResult>,
}

impl Match {
    /// A match whose hands the caller deals with [`Match::start_hand`].
    pub fn new(opts: Options, first_dealer: Seat) -> Result<Match, HandError> {
        opts.validate()?;
        Ok(Match {
            opts,
            deals: Deals::new(&opts, first_dealer)?,
            totals: [0; 2],
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
            totals: [0; 2],
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

    /// Totals per side.
    pub fn totals(&self) -> [u32; 2] {
        self.totals
    }

    /// Every hand so far.
    pub fn hands(&self) -> &[Hand] {
        &self.deals.hands
    }

    /// Outcomes of the finished hands.
    pub fn outcomes(&self) -> Vec<Outcome> {
        self.deals
            .hands
            .iter()
            .filter_map(|h| h.outcome().copied())
            .collect()
    }

    /// The hand being played.
    pub fn current(&self) -> Option<&Hand> {
        self.deals.current()
    }

    /// The result once over: the seats of the winning side, or a draw.
    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Who deals next, when the match waits for a hand: the next seat after every hand.
    pub fn next_dealer(&self) -> Option<Seat> {
        self.deals.next_dealer(&self.opts, self.is_over())
    }

    /// Starts the next hand with an explicit deal by the next dealer.
    pub fn start_hand(&mut self, dealer: Seat, deal: Deal) -> Result<(), DealRefused> {
        self.deals
            .start_hand(self.opts, self.is_over(), dealer, deal)
    }

    /// Who plays now.
    pub fn actor(&self) -> Option<Seat> {
        self.current().and_then(Hand::actor)
    }

    /// The legal actions now.
    pub fn legal_actions(&self) -> ActionList {
        self.current().map(Hand::legal_actions).unwrap_or_default()
    }

    /// Applies `action`; on error nothing changes.
    pub fn try_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.deals.on_current(|h| h.try_apply(action))?;
        self.after_action();
        Ok(())
    }

    /// Applies a legal `action` without checking it (see [`Hand::apply_unchecked`]).
    pub fn apply_unchecked(&mut self, action: Action) {
        if let Some(hand) = self.deals.current_mut() {
            hand.apply_unchecked(action);
            self.after_action();
        }
    }

    /// Applies `action` for `seat`, which must be the one to play.
    pub fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.deals.on_current(|h| h.try_apply_as(seat, action))?;
        self.after_action();
        Ok(())
    }

    /// Like [`Match::try_apply_as`], appending the events of the current hand that the action
    /// causes (nothing hidden) to `log`. When the action ends the hand, the next hand (if any)
    /// is dealt: its dealt cards are in that hand's [`Hand::events`], not in `log`.
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
        let Some(o) = self.deals.hands.last().and_then(Hand::outcome).copied() else {
            return;
        };
        self.totals[0] += o.points[0];
        self.totals[1] += o.points[1];
        if let Some(w) = winner(self.totals, self.opts.target) {
            let seats = Seat::first_n(self.opts.variant.players()).filter(|s| side_of(*s) == w);
            self.result = Some(MatchResult::won(seats.collect()));
        } else if self.deals.hands.len() as u64 >= u64::from(self.opts.max_deals) {
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

#[cfg(test)]
mod tests {
    use super::winner;

    #[test]
    fn t_d4_match_end() {
        assert_eq!(winner([21, 5], 21), Some(0));
        assert_eq!(winner([20, 21], 21), Some(1));
        assert_eq!(
            winner([25, 23], 21),
            Some(0),
            "both at the target: the higher wins"
        );
        assert_eq!(winner([23, 25], 21), Some(1));
        assert_eq!(winner([24, 24], 21), None, "equal: another hand");
        assert_eq!(winner([20, 20], 21), None);
        assert_eq!(winner([30, 12], 31), None, "option: 31");
    }
}
