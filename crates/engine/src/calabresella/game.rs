//! [`Match`]: hands one after another, with dealer rotation, totals and match end (C-D4,
//! C-D16, C-D17, C-D24).

use crate::action::Action;
use crate::deals::{Deals, DealtHand};
use crate::error::IllegalAction;
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

use crate::deals::DealRefused;

use super::deal::Deal;
use super::event::Event;
use super::hand::Hand;
use super::observation::Observation;
use super::options::{MatchEnd, Options};
use super::score::{HandOutcome, Score};
use crate::game::{ActionList, HandError, MatchResult, Viewer};

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
    /// C-D4: after a void deal the same dealer deals again.
    fn same_dealer_again(&self) -> bool {
        matches!(self.outcome(), Some(HandOutcome::Void))
    }
}

/// A whole match of Calabresella as a value.
///
/// Hands come from a seeded generator ([`Match::seeded`]) or one by one from the caller
/// ([`Match::new`] and [`Match::start_hand`], as a record replay does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    opts: Options,
    deals: Deals<Hand>,
    totals: PerSeat<u32>,
    outcomes: Vec<HandOutcome>,
    result: Option<MatchResult>,
}

impl Match {
    /// A match whose hands the caller deals with [`Match::start_hand`].
    pub fn new(opts: Options, first_dealer: Seat) -> Result<Match, HandError> {
        opts.validate()?;
        Ok(Match::with(opts, Deals::new(&opts, first_dealer)?))
    }

    /// A match dealt from `seed`: the first dealer is drawn first (unless given, C-D24), then
    /// every hand is dealt from the same generator as the previous one ends.
    pub fn seeded(
        opts: Options,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<Match, HandError> {
        opts.validate()?;
        Ok(Match::with(opts, Deals::seeded(opts, seed, first_dealer)?))
    }

    fn with(opts: Options, deals: Deals<Hand>) -> Match {
        Match {
            opts,
            deals,
            totals: PerSeat::splat(0),
            outcomes: Vec::new(),
            result: None,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The first dealer.
    pub fn first_dealer(&self) -> Seat {
        self.deals.first_dealer
    }

    /// Match totals per seat.
    pub fn totals(&self) -> PerSeat<u32> {
        self.totals
    }

    /// Every hand so far, the current one last.
    pub fn hands(&self) -> &[Hand] {
        &self.deals.hands
    }

    /// The outcome of every finished hand, in order.
    pub fn outcomes(&self) -> &[HandOutcome] {
        &self.outcomes
    }

    /// The hand being played, if one is.
    pub fn current(&self) -> Option<&Hand> {
        self.deals.current()
    }

    /// The result once the match is over.
    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Who deals the next hand, when the match waits for one.
    pub fn next_dealer(&self) -> Option<Seat> {
        self.deals.next_dealer(&self.opts, self.is_over())
    }

    /// Whether the match waits for [`Match::start_hand`].
    pub fn needs_deal(&self) -> bool {
        self.next_dealer().is_some()
    }

    /// Starts the next hand with an explicit deal by `dealer`, who must be the next dealer.
    pub fn start_hand(&mut self, dealer: Seat, deal: Deal) -> Result<(), DealRefused> {
        self.deals
            .start_hand(self.opts, self.is_over(), dealer, deal)
    }

    /// Whose decision it is now.
    pub fn actor(&self) -> Option<Seat> {
        self.current().and_then(Hand::actor)
    }

    /// Who takes the current decision (the actor, or the a due person playing the dummy).
    pub fn decider(&self) -> Option<Seat> {
        self.current()
            .and_then(|h| h.actor().map(|a| h.controller(a)))
    }

    /// The legal actions now (empty between hands and after the match).
    pub fn legal_actions(&self) -> ActionList {
        self.current().map(Hand::legal_actions).unwrap_or_default()
    }

    /// Applies `action`; on error nothing changes.
    pub fn try_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.deals.on_current(|h| h.try_apply(action))?;
        self.after_action();
        Ok(())
    }

    /// Applies `action` for `seat`, which must be the one to decide; on error nothing changes.
    pub fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.deals.on_current(|h| h.try_apply_as(seat, action))?;
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
        let Some(outcome) = self.deals.hands.last().and_then(Hand::outcome).copied() else {
            return;
        };
        let award = outcome.award();
        for seat in Seat::ALL {
            self.totals[seat] += award[seat];
        }
        self.outcomes.push(outcome);
        let winners = match outcome {
            HandOutcome::Scored(s) => self.winners_after(&s),
            HandOutcome::Void => None,
        };
        if let Some(winners) = winners {
            self.result = Some(MatchResult::won(winners));
        } else if self.deals.hands.len() as u64 >= u64::from(self.opts.max_deals) {
            self.result = Some(MatchResult::draw());
        } else {
            self.deals.deal_next(self.opts, false);
        }
    }

    /// The match-end check after a scored hand (C-D16, C-D19).
    fn winners_after(&self, s: &Score) -> Option<Vec<Seat>> {
        let target = self.opts.target;
        match self.opts.match_end {
            MatchEnd::Pooled => {
                let sol = self.totals[s.soloist];
                let def = self.totals[s.defenders[0]] + self.totals[s.defenders[1]];
                let soloist_wins = sol >= target && (def < target || sol > def);
                let defenders_win = def >= target && (sol < target || def > sol);
                if soloist_wins {
                    Some(vec![s.soloist])
                } else if defenders_win {
                    let mut d = s.defenders.to_vec();
                    d.sort();
                    Some(d)
                } else {
                    None
                }
            }
            MatchEnd::Individual => {
                let scorers: Vec<Seat> = Seat::first_n(self.opts.players)
                    .filter(|&p| !(self.opts.a_due && p == Options::DUMMY))
                    .collect();
                let best = scorers.iter().map(|&p| self.totals[p]).max()?;
                let at_top: Vec<Seat> = scorers
                    .into_iter()
                    .filter(|&p| self.totals[p] == best)
                    .collect();
                (best >= target && at_top.len() == 1).then_some(at_top)
            }
        }
    }

    /// The view of `viewer`, with match totals and earlier hands' results.
    pub fn observation(&self, viewer: Viewer) -> Option<Observation> {
        let hand = self.deals.hands.last()?;
        let mut obs = hand.observation(viewer);
        obs.hand_number = self.deals.hands.len() as u32 - 1;
        obs.totals = self.totals;
        obs.previous = self.outcomes[..self.outcomes.len().min(obs.hand_number as usize)].to_vec();
        Some(obs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Contract;
    use crate::calabresella::score::Side;
    use crate::cardset::CardSet;

    fn after(opts: Options, totals: [u32; 4]) -> Option<Vec<Seat>> {
        let mut m = Match::new(opts, Seat::ALL[0]).expect("valid options");
        m.totals = PerSeat::from_fn(4, |s| totals[s.index()]);
        let s = Score {
            soloist: Seat::ALL[1],
            defenders: [Seat::ALL[2], Seat::ALL[0]],
            contract: Contract::Solo,
            called: None,
            points: [6, 5],
            tricks: [6, 6],
            last_trick: Side::Soloist,
            made: true,
            multiplier: 1,
            award: PerSeat::splat(0),
            monte: CardSet::EMPTY,
        };
        m.winners_after(&s)
    }

    #[test]
    fn c_d16_pooled() {
        let o = Options::default();
        let s = |v: u8| Seat::ALL[v as usize];
        assert_eq!(
            after(o, [5, 21, 5, 0]),
            Some(vec![s(1)]),
            "only the soloist at the target"
        );
        assert_eq!(
            after(o, [11, 3, 10, 0]),
            Some(vec![s(0), s(2)]),
            "only D = 11 + 10 at the target"
        );
        assert_eq!(
            after(o, [11, 22, 10, 0]),
            Some(vec![s(1)]),
            "both: S 22 > D 21"
        );
        assert_eq!(
            after(o, [12, 22, 11, 0]),
            Some(vec![s(0), s(2)]),
            "both: D 23 > S 22"
        );
        assert_eq!(after(o, [11, 22, 11, 0]), None, "equal: another hand");
        assert_eq!(after(o, [5, 20, 5, 0]), None, "nobody at the target");
    }

    #[test]
    fn c_d16_individual_and_c_d17_idle_excluded() {
        let o = Options {
            match_end: MatchEnd::Individual,
            ..Options::default()
        };
        let s = |v: u8| Seat::ALL[v as usize];
        assert_eq!(after(o, [11, 22, 10, 0]), Some(vec![s(1)]));
        assert_eq!(
            after(o, [21, 21, 3, 0]),
            None,
            "a tie at the top: another hand"
        );
        assert_eq!(
            after(o, [25, 21, 3, 0]),
            Some(vec![s(0)]),
            "the unique highest, soloist or not"
        );
        let four = Options {
            players: 4,
            ..Options::default()
        };
        assert_eq!(
            after(four, [5, 10, 5, 30]),
            None,
            "pooled counts only this hand's sides"
        );
    }

    #[test]
    fn c_d19_a_due_ignores_the_dummy() {
        let o = Options {
            a_due: true,
            match_end: MatchEnd::Individual,
            ..Options::default()
        };
        assert_eq!(after(o, [21, 5, 40, 0]), Some(vec![Seat::ALL[0]]));
    }
}
