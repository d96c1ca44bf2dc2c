//! The one match driver: [`Match`] plays any game's hands in sequence (who deals, seeded or
//! explicit deals, the checks that only the decider acts and that a refused action changes
//! nothing, the match's end and its safety cap) and implements [`Game`] once for every game.
//! A game describes only what is its own: its hand ([`HandRules`]) and how hands add up to a
//! match ([`MatchRules`]: options, deals from cards and records, the tally, the end, the
//! record's lines).

use std::fmt::Debug;

use serde_json::{Map, Value};

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::{DealError, DealRefused};
use crate::error::IllegalAction;
use crate::record::{RecordDeal, RecordError};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};
use crate::sink::{EventSink, NoEvents};
use crate::trick::CardEvents;

use super::option_spec::{GameOptions, MAX_DEALS, OptionDescription};
use super::traits::{Game, GameHand, Rollout, View};
use super::vocab::{ActionList, GameFacts, HandError, MatchResult, OptionError, Viewer};

/// A game's hand as the match driver plays it: how it is dealt, and the hand protocol (who
/// acts, what is legal, applying an action for a seat, the seat's view).
pub trait HandRules: GameHand + PartialEq + Eq + 'static {
    /// One viewer's observation of the hand.
    type Observation: View + Clone + PartialEq + Debug + Send + Sync;

    /// Why `deal` is not a deal of this game by `dealer` under `opts`, or `Ok`.
    fn check_deal(opts: &Self::Options, dealer: Seat, deal: &Self::Deal) -> Result<(), DealError>;
    /// A new hand dealt by `dealer` from `deal`; checks the options, the dealer and the deal.
    fn new(opts: Self::Options, dealer: Seat, deal: Self::Deal) -> Result<Self, HandError> {
        opts.validate()?;
        if dealer.index() >= usize::from(opts.players()) {
            return Err(HandError::Dealer(dealer));
        }
        Self::check_deal(&opts, dealer, &deal)?;
        Ok(Self::new_unchecked(opts, dealer, deal))
    }
    /// [`HandRules::new`] without the checks, for deals known to be valid (the seeded ones).
    fn new_unchecked(opts: Self::Options, dealer: Seat, deal: Self::Deal) -> Self;
    /// The seeded deal of one hand by `dealer`.
    fn shuffled_deal(opts: &Self::Options, dealer: Seat, rng: &mut GameRng) -> Self::Deal;
    /// Whether the same dealer deals again after this hand (a void deal, in the games that
    /// have one).
    fn same_dealer_again(&self) -> bool {
        false
    }
    /// The seat whose decision it is (`None` once the hand is over).
    fn actor(&self) -> Option<Seat> {
        (!self.is_over()).then_some(self.core().actor)
    }
    /// The seat that takes the decision now: the actor, or who plays for it (a dummy's
    /// partner).
    fn decider(&self) -> Option<Seat> {
        self.actor()
    }
    /// Every legal action now, in the order of [`Rollout::legal_action`] (empty once the hand
    /// is over).
    fn legal_actions(&self) -> ActionList {
        (0..self.num_legal_actions())
            .filter_map(|i| self.legal_action(i))
            .collect()
    }
    /// Why `action` is not legal now (for whoever decides), or `Ok` when it is: the game's
    /// legality, which every checked way of acting below goes through.
    fn check(&self, action: &Action) -> Result<(), IllegalAction>;
    /// Applies a legal `action`, sending the events it causes (nothing hidden) to `sink`.
    fn apply<S: EventSink<Self::Event>>(&mut self, action: Action, sink: &mut S);
    /// What `viewer` may know of the hand now, without the match's context.
    fn observation(&self, viewer: Viewer) -> Self::Observation;

    /// The legal actions `viewer` may take now: every one when it decides, else none.
    fn legal_actions_of(&self, viewer: Viewer) -> Vec<Action> {
        match (viewer.seat(), self.decider()) {
            (Some(v), Some(d)) if v == d => self.legal_actions().to_vec(),
            _ => Vec::new(),
        }
    }

    /// Whether `action` is legal now.
    fn is_legal(&self, action: &Action) -> bool {
        self.check(action).is_ok()
    }

    /// Why `seat` may not take `action` now, or `Ok` when it may: the hand must be in play,
    /// `seat` must be the one who decides (the actor, or who plays for it), and the action
    /// legal. What [`HandRules::try_apply_as`] checks, without applying.
    fn check_as(&self, seat: Seat, action: &Action) -> Result<(), IllegalAction> {
        if self.actor().is_none() {
            return Err(IllegalAction::HandOver);
        }
        match self.decider() {
            Some(d) if d != seat => Err(IllegalAction::NotYourTurn { actor: d }),
            _ => self.check(action),
        }
    }

    /// Applies `action` for whoever decides, if it is legal; on error nothing changes.
    fn try_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check(&action)?;
        self.apply(action, &mut NoEvents);
        Ok(())
    }

    /// Applies `action` as `seat`, which must be the one who decides; on error nothing
    /// changes.
    fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.check_as(seat, &action)?;
        self.apply(action, &mut NoEvents);
        Ok(())
    }

    /// Like [`HandRules::try_apply_as`], appending the events the action causes (nothing
    /// hidden) to `log`; pass each through [`GameHand::visible`] before it reaches a viewer.
    fn try_apply_logged(
        &mut self,
        seat: Seat,
        action: Action,
        log: &mut Vec<Self::Event>,
    ) -> Result<(), IllegalAction> {
        self.check_as(seat, &action)?;
        self.apply(action, log);
        Ok(())
    }
}

/// The options of the game `R`.
pub type OptionsFor<R> = <<R as MatchRules>::Hand as GameHand>::Options;
/// One hand's deal in the game `R`.
pub type DealFor<R> = <<R as MatchRules>::Hand as GameHand>::Deal;
/// One viewer's observation in the game `R`.
pub type ObservationFor<R> = <<R as MatchRules>::Hand as HandRules>::Observation;

/// How a game's hands add up to a match, and everything else of [`Game`] that is the game's
/// own: its option sets, its deals from cards and records, its record's lines. Implemented by a
/// marker type per game module; [`Match`] of it is the game's match.
pub trait MatchRules: Clone + PartialEq + Eq + Debug + Send + Sync + Sized + 'static {
    /// The game's hand.
    type Hand: HandRules;
    /// What the match keeps across hands besides the hands: the totals, and whatever its end
    /// rule counts.
    type Tally: Clone + Default + PartialEq + Eq + Debug + Send + Sync;

    /// The names the registry knows this game by (see [`Game::NAMES`]).
    const NAMES: &'static [&'static str];

    /// The candidates for [`Game::option_sets`]: every combination worth trying; those that
    /// do not validate are left out there.
    fn option_sets() -> Vec<OptionsFor<Self>>;
    /// See [`Game::default_options`].
    fn default_options(name: &str) -> Option<OptionsFor<Self>>;
    /// See [`Game::total_index`].
    fn total_index(opts: &OptionsFor<Self>, seat: Seat) -> usize;
    /// See [`Game::dummy_seats`].
    fn dummy_seats(_opts: &OptionsFor<Self>) -> Vec<Seat> {
        Vec::new()
    }
    /// See [`Game::teams`].
    fn teams(opts: &OptionsFor<Self>) -> Vec<Vec<Seat>>;
    /// The most actions a whole match can take, as `(fixed, per)`: `fixed` plus `per` for each
    /// deal the safety cap allows (see [`Game::max_actions`], [`Game::fit_actions`]).
    fn action_bounds(opts: &OptionsFor<Self>) -> (u64, u64);
    /// Whether every hand's awards sum to zero, and the least and greatest award of one seat
    /// in one hand: `(zero_sum, min, max)` (see [`Game::facts`]).
    fn award_bounds(opts: &OptionsFor<Self>) -> (bool, i32, i32);
    /// See [`Game::deal_from_cards`].
    fn deal_from_cards(
        opts: &OptionsFor<Self>,
        hands: PerSeat<CardSet>,
        rest: &[Card],
    ) -> Result<DealFor<Self>, DealError>;
    /// See [`Game::deal_from_record`].
    fn deal_from_record(
        opts: &OptionsFor<Self>,
        h: usize,
        deal: &RecordDeal,
    ) -> Result<DealFor<Self>, RecordError>;

    /// Adds the hand that just ended (the last of `hands`) to `tally`, and says whether the
    /// game's own rule ends the match: its result, or `None` (the match then ends as a draw
    /// only at the safety cap on deals, counted by [`MatchRules::deals_toward_cap`]).
    fn hand_over(
        opts: &OptionsFor<Self>,
        tally: &mut Self::Tally,
        hands: &[Self::Hand],
    ) -> Option<MatchResult>;
    /// The deals the safety cap counts, after `hands` were tallied: by default every deal.
    fn deals_toward_cap(_tally: &Self::Tally, hands: &[Self::Hand]) -> usize {
        hands.len()
    }
    /// Gives `obs`, a view of the last of `hands`, the match's context: the hand's number,
    /// the totals, the earlier hands' results.
    fn annotate(obs: &mut ObservationFor<Self>, tally: &Self::Tally, hands: &[Self::Hand]);

    /// See [`Game::id_monte`].
    fn id_monte(_m: &Match<Self>) -> Option<[Card; 4]> {
        None
    }
    /// See [`Game::totals`].
    fn totals(m: &Match<Self>) -> Vec<i32>;
    /// See [`Game::seat_points`].
    fn seat_points(m: &Match<Self>, hand: Option<usize>) -> PerSeat<i32>;
    /// See [`Game::opponents_of`].
    fn opponents_of(m: &Match<Self>, seat: Seat) -> Vec<Seat>;
    /// See [`Game::hand_summary`].
    fn hand_summary(m: &Match<Self>, i: usize) -> Option<String>;
    /// See [`Game::replay_hand`].
    fn replay_hand(m: &Match<Self>, i: usize) -> Value;
    /// See [`Game::replay_winners`]: by default the winning seats' numbers.
    fn replay_winners(m: &Match<Self>) -> Vec<usize> {
        m.result()
            .map(|r| r.winners.iter().map(|s| s.index()).collect())
            .unwrap_or_default()
    }
}

/// A whole match of the game `R` as a value: its hands so far and how the next is dealt, the
/// game's tally, and the result once over.
///
/// Hands come from a seeded generator ([`Match::seeded`]) or one by one from the caller
/// ([`Match::new`] and [`Match::start_hand`], as a record replay does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match<R: MatchRules> {
    opts: OptionsFor<R>,
    first_dealer: Seat,
    hands: Vec<R::Hand>,
    /// The generator of a seeded match's deals.
    rng: Option<GameRng>,
    tally: R::Tally,
    result: Option<MatchResult>,
}

impl<R: MatchRules> Match<R> {
    /// A match whose hands the caller deals with [`Match::start_hand`].
    pub fn new(opts: OptionsFor<R>, first_dealer: Seat) -> Result<Match<R>, HandError> {
        opts.validate()?;
        if first_dealer.index() >= opts.players() as usize {
            return Err(HandError::Dealer(first_dealer));
        }
        Ok(Match {
            opts,
            first_dealer,
            hands: Vec::new(),
            rng: None,
            tally: R::Tally::default(),
            result: None,
        })
    }

    /// A match dealt from `seed`: the first dealer is drawn first unless given, then every
    /// hand is dealt from the same generator as the previous one ends (C-D24).
    pub fn seeded(
        opts: OptionsFor<R>,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<Match<R>, HandError> {
        opts.validate()?;
        let mut rng = GameRng::from_seed(seed);
        let players = opts.players();
        let drawn = Seat::ALL[rng.below(u32::from(players.clamp(1, Seat::MAX as u8))) as usize];
        let mut m = Match::new(opts, first_dealer.unwrap_or(drawn))?;
        m.rng = Some(rng);
        m.deal_next();
        Ok(m)
    }

    /// The options in force.
    pub fn options(&self) -> &OptionsFor<R> {
        &self.opts
    }

    /// The first dealer.
    pub fn first_dealer(&self) -> Seat {
        self.first_dealer
    }

    /// Every hand so far, the current one last.
    pub fn hands(&self) -> &[R::Hand] {
        &self.hands
    }

    /// What the match keeps across hands (the game's totals and counts).
    pub fn tally(&self) -> &R::Tally {
        &self.tally
    }

    /// The hand being played, if one is.
    pub fn current(&self) -> Option<&R::Hand> {
        self.hands.last().filter(|h| !h.is_over())
    }

    /// The result once the match is over.
    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Who deals the next hand, when the match waits for one: the next seat, or the same
    /// after a void deal.
    pub fn next_dealer(&self) -> Option<Seat> {
        if self.is_over() || self.current().is_some() {
            return None;
        }
        Some(match self.hands.last() {
            Some(h) if h.same_dealer_again() => h.dealer(),
            Some(h) => h.dealer().next(self.opts.players()),
            None => self.first_dealer,
        })
    }

    /// Whether the match waits for [`Match::start_hand`].
    pub fn needs_deal(&self) -> bool {
        self.next_dealer().is_some()
    }

    /// Starts the next hand with an explicit deal by `dealer`, who must be the next dealer.
    pub fn start_hand(&mut self, dealer: Seat, deal: DealFor<R>) -> Result<(), DealRefused> {
        if self.is_over() {
            return Err(DealRefused::MatchOver);
        }
        let expected = self.next_dealer().ok_or(DealRefused::HandInProgress)?;
        if dealer != expected {
            return Err(DealRefused::WrongDealer {
                expected,
                got: dealer,
            });
        }
        self.hands.push(R::Hand::new(self.opts, dealer, deal)?);
        Ok(())
    }

    /// Whose decision it is now.
    pub fn actor(&self) -> Option<Seat> {
        self.current().and_then(HandRules::actor)
    }

    /// Who takes the current decision (the actor, or who plays for it).
    pub fn decider(&self) -> Option<Seat> {
        self.current().and_then(HandRules::decider)
    }

    /// The legal actions now (empty between hands and after the match).
    pub fn legal_actions(&self) -> ActionList {
        self.current()
            .map(HandRules::legal_actions)
            .unwrap_or_default()
    }

    /// Applies `action` for `seat`, which must be the one to decide; on error nothing changes.
    pub fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.apply_with(|h| h.try_apply_as(seat, action))
    }

    /// Like [`Match::try_apply_as`], appending the events of the current hand that the action
    /// causes (nothing hidden) to `log`. When the action ends the hand, the next hand (if any)
    /// is dealt: its opening events are in that hand's [`GameHand::events`], not in `log`.
    pub fn try_apply_logged(
        &mut self,
        seat: Seat,
        action: Action,
        log: &mut Vec<<R::Hand as GameHand>::Event>,
    ) -> Result<(), IllegalAction> {
        self.apply_with(|h| h.try_apply_logged(seat, action, log))
    }

    /// Applies a legal `action` without checking it (the hand's `apply_unchecked` contract).
    pub fn apply_unchecked(&mut self, action: Action) {
        if let Some(hand) = self.current_mut() {
            hand.apply_unchecked(action);
            self.after_action();
        }
    }

    /// The view of `viewer` of the current (or last) hand, with the match's context.
    pub fn observation(&self, viewer: Viewer) -> Option<ObservationFor<R>> {
        let mut obs = self.hands.last()?.observation(viewer);
        R::annotate(&mut obs, &self.tally, &self.hands);
        Some(obs)
    }

    /// Runs `f` on the hand being played (`HandOver` when none is), then settles the hand's
    /// end: how every action reaches a hand.
    pub(crate) fn apply_with(
        &mut self,
        f: impl FnOnce(&mut R::Hand) -> Result<(), IllegalAction>,
    ) -> Result<(), IllegalAction> {
        f(self.current_mut().ok_or(IllegalAction::HandOver)?)?;
        self.after_action();
        Ok(())
    }

    /// The hand being played, mutably.
    fn current_mut(&mut self) -> Option<&mut R::Hand> {
        self.hands.last_mut().filter(|h| !h.is_over())
    }

    /// After an action: when it ended the hand, the game tallies it and says whether the match
    /// is over, or the safety cap ends it; if not, a seeded match deals the next hand.
    fn after_action(&mut self) {
        if !self.hands.last().is_some_and(Rollout::is_over) {
            return;
        }
        let result = R::hand_over(&self.opts, &mut self.tally, &self.hands).or_else(|| {
            let deals = R::deals_toward_cap(&self.tally, &self.hands);
            MatchResult::at_cap(deals, self.opts.max_deals())
        });
        match result {
            Some(result) => self.result = Some(result),
            None => self.deal_next(),
        }
    }

    /// Deals the next hand from the seeded generator, if the match has one.
    fn deal_next(&mut self) {
        if let Some(dealer) = self.next_dealer()
            && let Some(rng) = self.rng.as_mut()
        {
            let deal = R::Hand::shuffled_deal(&self.opts, dealer, rng);
            self.hands
                .push(R::Hand::new_unchecked(self.opts, dealer, deal));
        }
    }
}

impl<R: MatchRules> Game for Match<R> {
    type Options = OptionsFor<R>;
    type Deal = DealFor<R>;
    type Hand = R::Hand;
    type Event = <R::Hand as GameHand>::Event;
    type Observation = ObservationFor<R>;

    const NAMES: &'static [&'static str] = R::NAMES;

    fn option_sets() -> Vec<Self::Options> {
        let mut sets = R::option_sets();
        sets.retain(|o| o.validate().is_ok());
        sets
    }
    fn default_options(name: &str) -> Option<Self::Options> {
        R::default_options(name)
    }
    fn name(opts: &Self::Options) -> &'static str {
        opts.game()
    }
    fn seats(opts: &Self::Options) -> u8 {
        opts.players()
    }
    fn total_index(opts: &Self::Options, seat: Seat) -> usize {
        R::total_index(opts, seat)
    }
    fn dummy_seats(opts: &Self::Options) -> Vec<Seat> {
        R::dummy_seats(opts)
    }
    fn teams(opts: &Self::Options) -> Vec<Vec<Seat>> {
        R::teams(opts)
    }
    fn max_actions(opts: &Self::Options) -> u64 {
        let (fixed, per) = R::action_bounds(opts);
        fixed + per * u64::from(opts.max_deals())
    }
    fn facts(opts: &Self::Options) -> GameFacts {
        let (zero_sum, min_hand_award, max_hand_award) = R::award_bounds(opts);
        GameFacts {
            zero_sum,
            min_hand_award,
            max_hand_award,
            distinct_actions: u32::from(crate::NUM_ACTION_IDS),
        }
    }
    fn fit_actions(opts: &Self::Options, limit: u64) -> Option<Self::Options> {
        let (fixed, per) = R::action_bounds(opts);
        let deals = limit.checked_sub(fixed)? / per.max(1);
        let deals = u32::try_from(deals).unwrap_or(u32::MAX);
        // Within the values `max_deals` takes, so that the cap is always set.
        let deals = deals.min(opts.max_deals()).min(MAX_DEALS.1);
        (deals > 0).then(|| opts.with_max_deals(deals))
    }
    fn set_option(opts: &mut Self::Options, key: &str, value: &str) -> Result<(), OptionError> {
        opts.set(key, value)
    }
    fn validate(opts: &Self::Options) -> Result<(), OptionError> {
        opts.validate()
    }
    fn describe_options(opts: &Self::Options) -> Vec<OptionDescription> {
        opts.describe()
    }
    fn non_default(opts: &Self::Options) -> Map<String, Value> {
        opts.non_default()
    }
    fn options_from_record(
        name: &str,
        players: u8,
        options: &Map<String, Value>,
    ) -> Result<Self::Options, OptionError> {
        R::default_options(name)
            .ok_or(OptionError::Conflict("not a game of this module"))?
            .with_record(players, options)
    }

    fn new(opts: Self::Options, first_dealer: Seat) -> Result<Self, HandError> {
        Match::new(opts, first_dealer)
    }
    fn seeded(
        opts: Self::Options,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<Self, HandError> {
        Match::seeded(opts, seed, first_dealer)
    }
    fn shuffled_deal(opts: &Self::Options, dealer: Seat, rng: &mut GameRng) -> Self::Deal {
        R::Hand::shuffled_deal(opts, dealer, rng)
    }
    fn seeded_hand(opts: &Self::Options, dealer: Seat, rng: &mut GameRng) -> Self::Hand {
        R::Hand::new_unchecked(*opts, dealer, R::Hand::shuffled_deal(opts, dealer, rng))
    }
    fn deal_from_cards(
        opts: &Self::Options,
        hands: PerSeat<CardSet>,
        rest: &[Card],
    ) -> Result<Self::Deal, DealError> {
        R::deal_from_cards(opts, hands, rest)
    }
    fn deal_from_record(
        opts: &Self::Options,
        h: usize,
        deal: &RecordDeal,
    ) -> Result<Self::Deal, RecordError> {
        R::deal_from_record(opts, h, deal)
    }
    fn start_hand(&mut self, dealer: Seat, deal: Self::Deal) -> Result<(), DealRefused> {
        Match::start_hand(self, dealer, deal)
    }
    fn next_dealer(&self) -> Option<Seat> {
        Match::next_dealer(self)
    }

    fn options(&self) -> &Self::Options {
        Match::options(self)
    }
    fn first_dealer(&self) -> Seat {
        Match::first_dealer(self)
    }
    fn hands(&self) -> &[Self::Hand] {
        Match::hands(self)
    }
    fn actor(&self) -> Option<Seat> {
        Match::actor(self)
    }
    fn decider(&self) -> Option<Seat> {
        Match::decider(self)
    }
    fn legal_actions(&self) -> ActionList {
        Match::legal_actions(self)
    }
    fn check_as(&self, seat: Seat, action: &Action) -> Result<(), IllegalAction> {
        self.current()
            .ok_or(IllegalAction::HandOver)?
            .check_as(seat, action)
    }
    fn is_legal(&self, action: &Action) -> bool {
        self.current().is_some_and(|h| h.is_legal(action))
    }
    fn id_monte(&self) -> Option<[Card; 4]> {
        R::id_monte(self)
    }
    fn is_over(&self) -> bool {
        Match::is_over(self)
    }
    fn result(&self) -> Option<MatchResult> {
        Match::result(self).cloned()
    }
    fn totals(&self) -> Vec<i32> {
        R::totals(self)
    }
    fn seat_points(&self, hand: Option<usize>) -> PerSeat<i32> {
        R::seat_points(self, hand)
    }
    fn opponents_of(&self, seat: Seat) -> Vec<Seat> {
        R::opponents_of(self, seat)
    }

    fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        Match::try_apply_as(self, seat, action)
    }
    fn try_apply_logged(
        &mut self,
        seat: Seat,
        action: Action,
        log: &mut Vec<Self::Event>,
    ) -> Result<(), IllegalAction> {
        Match::try_apply_logged(self, seat, action, log)
    }
    fn apply_unchecked(&mut self, action: Action) {
        Match::apply_unchecked(self, action)
    }

    fn observation(&self, viewer: Viewer) -> Option<Self::Observation> {
        Match::observation(self, viewer)
    }
    fn hand_summary(&self, i: usize) -> Option<String> {
        R::hand_summary(self, i)
    }
    fn hand_observation(&self, i: usize, viewer: Viewer) -> Option<Self::Observation> {
        self.hands.get(i).map(|h| h.observation(viewer))
    }
    fn replay_hand(&self, i: usize) -> Value {
        R::replay_hand(self, i)
    }
    fn replay_winners(&self) -> Vec<usize> {
        R::replay_winners(self)
    }
}

/// Every event of `hand` so far, nothing hidden: each of `seats` dealt its cards, in that
/// order, then the game's `opening` events (what is declared at the deal), then the hand's
/// actions replayed from the deal.
pub(crate) fn replay_events<H: HandRules>(
    hand: &H,
    seats: impl IntoIterator<Item = Seat>,
    opening: impl IntoIterator<Item = H::Event>,
) -> Vec<H::Event>
where
    H::Event: CardEvents,
{
    let dealt = hand.dealt();
    let mut events: Vec<H::Event> = seats
        .into_iter()
        .map(|seat| H::Event::dealt(seat, dealt.hands[seat]))
        .collect();
    events.extend(opening);
    let mut replay = H::new_unchecked(*hand.options(), hand.dealer(), hand.deal().clone());
    for action in hand.action_list() {
        replay.apply(action, &mut events);
    }
    events
}

/// The number of the last of `hands` (0-based) and the outcomes of the ones before it: the
/// match context a view of the last hand gives.
pub(crate) fn earlier_outcomes<H, O: Clone>(
    hands: &[H],
    outcome: impl Fn(&H) -> Option<&O>,
) -> (u32, Vec<O>) {
    let earlier = &hands[..hands.len().saturating_sub(1)];
    let previous = earlier.iter().filter_map(|h| outcome(h).cloned()).collect();
    (earlier.len() as u32, previous)
}

/// Applies a legal `action` to `hand` with no events (a debug build checks that the action is
/// legal): [`Rollout::apply_unchecked`] of the games without a faster path of their own
/// (Calabresella plays its cards without building the history id twice).
#[inline]
pub(crate) fn apply_quiet<H: HandRules>(hand: &mut H, action: Action) {
    debug_assert!(
        hand.is_legal(&action),
        "apply_unchecked({action}) is illegal"
    );
    hand.apply(action, &mut NoEvents);
}
