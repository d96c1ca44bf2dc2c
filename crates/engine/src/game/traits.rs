//! The one interface every game implements: [`Game`] for a match, [`GameHand`] for one of its
//! hands, [`Rollout`] for the hand's allocation-free fast path, and [`View`] for what a bot
//! needs of an observation.

use std::fmt::{Debug, Display};

use serde_json::{Map, Value};

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::{DealError, DealRefused};
use crate::error::IllegalAction;
use crate::record::{RecordDeal, RecordError};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};
use crate::trick::Trick;

use super::features::{Features, HistoryFact};
use super::hand_core::HandCore;
use super::option_spec::{GameOptions, OptionDescription};
use super::vocab::{
    ActionList, CardPlaces, DealtCards, GameFacts, HandError, MatchResult, OptionError, Viewer,
};

/// What every game's observation offers a bot.
pub trait View {
    /// The viewer's legal actions (empty when it need not act).
    fn legal_actions(&self) -> &[Action];
    /// Calls `visit` with each step of the hand's history the viewer saw that an encoding of
    /// the history reads, in order.
    fn history(&self, visit: &mut dyn FnMut(HistoryFact));
}

/// The allocation-free fast path every game's hand offers, for search and self-play.
pub trait Rollout {
    /// Whether the hand is over.
    fn is_over(&self) -> bool;
    /// How many legal actions there are now.
    fn num_legal_actions(&self) -> usize;
    /// The `i`-th legal action.
    fn legal_action(&self, i: usize) -> Option<Action>;
    /// Applies a legal action without checking it.
    fn apply_unchecked(&mut self, action: Action);
    /// Plays the hand out with uniformly random legal actions from `rng`; returns the number
    /// of actions. A game may play the same actions faster its own way (the same result as
    /// this loop with the same generator).
    fn playout_random(&mut self, rng: &mut GameRng) -> usize {
        let mut taken = 0;
        while !self.is_over() {
            let i = rng.below(self.num_legal_actions() as u32) as usize;
            if let Some(a) = self.legal_action(i) {
                self.apply_unchecked(a);
            }
            taken += 1;
        }
        taken
    }
    /// When every legal action now is a card play: the playable cards, and whether each is
    /// offered with the three lead signals too (`None` in any other step). The legal actions
    /// are then the cards in index order, each plain first and, with signals, then with busso,
    /// striscio and volo: what batched environments list without building the actions.
    fn legal_plays(&self) -> Option<(CardSet, bool)>;
}

/// One hand of a game, as the surfaces see it: who dealt, what was dealt, what happened, and
/// the visibility filter every event passes before it reaches a viewer.
pub trait GameHand: Rollout + Clone + Debug + Send + Sync {
    /// The game's rule options.
    type Options: GameOptions;
    /// One hand's cards as dealt.
    type Deal: Clone + Debug;
    /// The game's events.
    type Event: Clone + PartialEq + Eq + Debug + Display + Send + Sync;
    /// The state every game's hand shares (options, dealer, deal, cards held, tricks, turn).
    fn core(&self) -> &HandCore<Self::Options, Self::Deal>;
    /// The options in force.
    fn options(&self) -> &Self::Options {
        self.core().options()
    }
    /// The deal this hand started from (hidden information until the hand is over).
    fn deal(&self) -> &Self::Deal {
        self.core().deal()
    }
    /// Who dealt this hand.
    fn dealer(&self) -> Seat {
        self.core().dealer()
    }
    /// The trick in progress.
    fn trick(&self) -> &Trick {
        self.core().trick()
    }
    /// Completed tricks.
    fn tricks_done(&self) -> u8 {
        self.core().tricks_done()
    }
    /// Cards won so far per side (hidden information while a partnership is secret).
    fn piles(&self) -> [CardSet; 2] {
        self.core().piles()
    }
    /// Tricks won so far per side (hidden information while a partnership is secret).
    fn side_tricks(&self) -> [u32; 2] {
        self.core().side_tricks()
    }
    /// The cards as dealt (secret until the hand is over).
    fn dealt(&self) -> DealtCards;
    /// Every action taken so far, in order.
    fn action_list(&self) -> Vec<Action>;
    /// The cards `seat` holds now (hidden information).
    fn hand_of(&self, seat: Seat) -> CardSet {
        self.core().hand_of(seat)
    }
    /// Cards face down apart now: the monte or its discards, or the stock not yet drawn
    /// (hidden information; none in the games without).
    fn aside(&self) -> CardSet {
        CardSet::EMPTY
    }
    /// Where every card is now (hidden information: for referees and tests).
    fn card_places(&self) -> CardPlaces {
        let core = self.core();
        CardPlaces {
            hands: PerSeat::from_fn(core.options().players(), |s| core.hand_of(s)),
            trick: core.trick().card_set(),
            won: core.piles(),
            aside: self.aside(),
        }
    }
    /// The cards of the trick in progress, in play order.
    fn trick_cards(&self) -> Vec<Card> {
        self.core().trick_cards()
    }
    /// Every event so far, nothing hidden; the hand's opening events when it is new.
    fn events(&self) -> Vec<Self::Event>;
    /// What `viewer` may see of `event`, an event of this hand: the one visibility filter.
    fn visible(&self, event: &Self::Event, viewer: Viewer) -> Option<Self::Event>;
    /// Every event so far as `viewer` may see it (through [`GameHand::visible`]).
    fn events_seen_by(&self, viewer: Viewer) -> Vec<Self::Event> {
        self.events()
            .iter()
            .filter_map(|e| self.visible(e, viewer))
            .collect()
    }
    /// The points the hand awarded, added up (0 until it is over): a checksum of random runs.
    fn award_sum(&self) -> u64;
    /// What `viewer` may know of the hand now, without allocating (tensor encodings).
    fn features(&self, viewer: Viewer) -> Features;
    /// A short state word for debugging dumps (the phase, where the game has several).
    fn phase_text(&self) -> Option<String> {
        None
    }
}

/// A match of one game, as a value: every surface (server, Python, CLI, records, bots) plays
/// any game through this trait, and reaches a specific game only through the registry
/// ([`crate::game::AnyMatch`]).
///
/// Hidden information leaves a match only through [`Game::observation`] and
/// [`GameHand::visible`]; the rest of the interface is for the match's owner (the table, the
/// Python `State`), who holds the full state anyway.
pub trait Game: Clone + PartialEq + Eq + Debug + Send + Sync + Sized + 'static {
    /// The rule options.
    type Options: Copy + PartialEq + Eq + Debug + Display + Send + Sync;
    /// One hand's cards as dealt.
    type Deal: Clone + Debug;
    /// One hand.
    type Hand: GameHand<Event = Self::Event>;
    /// The game's events (raw; filter with [`GameHand::visible`]).
    type Event: Clone + PartialEq + Eq + Debug + Display + Send + Sync;
    /// One viewer's observation.
    type Observation: View + Clone + PartialEq + Debug + Send + Sync;

    /// The names the registry knows this game by (a record's `game` value); one module may
    /// register several variants.
    const NAMES: &'static [&'static str];

    // --- Options -----------------------------------------------------------------------------

    /// Every combination of the rule options worth playing (each registered variant, every
    /// flag and rule choice, a short and a long target), for sweeps and conformance tests.
    fn option_sets() -> Vec<Self::Options>;
    /// The default options of the variant registered as `name`.
    fn default_options(name: &str) -> Option<Self::Options>;
    /// The registered name of the variant these options play.
    fn name(opts: &Self::Options) -> &'static str;
    /// Seats at the table.
    fn seats(opts: &Self::Options) -> u8;
    /// Which entry of [`Game::totals`] is `seat`'s: its own, or its side's.
    fn total_index(opts: &Self::Options, seat: Seat) -> usize;
    /// Seats that no player or bot takes: a dummy, played by another seat.
    fn dummy_seats(_opts: &Self::Options) -> Vec<Seat> {
        Vec::new()
    }
    /// The scoring units, each the seats that share one result: every seat alone, or the
    /// partnerships. Dummies are left out (they score for nobody).
    fn teams(opts: &Self::Options) -> Vec<Vec<Seat>>;
    /// The most actions a whole match under these options can take: every hand it may deal
    /// (up to its safety cap on deals), each at its longest. A server bounds what one table
    /// stores with it before the match starts.
    fn max_actions(opts: &Self::Options) -> u64;
    /// What the game declares of itself under these options: zero-sum or not, the bounds of
    /// one hand's award to a seat, its number of action ids.
    fn facts(opts: &Self::Options) -> GameFacts;
    /// These options with the safety cap on deals (`max_deals`) lowered, where needed, so
    /// that [`Game::max_actions`] is at most `limit`; `None` when no cap is low enough (a
    /// fixed number of hands is longer by itself).
    fn fit_actions(opts: &Self::Options, limit: u64) -> Option<Self::Options>;
    /// Sets one option from `key=value` text, as the CLI and Python give them.
    fn set_option(opts: &mut Self::Options, key: &str, value: &str) -> Result<(), OptionError>;
    /// Checks that the options make a playable game.
    fn validate(opts: &Self::Options) -> Result<(), OptionError>;
    /// Every option [`Game::set_option`] takes under these options' variant, with its value in
    /// `opts` (for a variant's defaults, its default).
    fn describe_options(opts: &Self::Options) -> Vec<OptionDescription>;
    /// The options that differ from the defaults, as a record's `options` object.
    fn non_default(opts: &Self::Options) -> Map<String, Value>;
    /// Options from a record's `game`, `players` and `options`, validated.
    fn options_from_record(
        name: &str,
        players: u8,
        options: &Map<String, Value>,
    ) -> Result<Self::Options, OptionError>;

    // --- Deals -------------------------------------------------------------------------------

    /// A match whose hands the caller deals with [`Game::start_hand`].
    fn new(opts: Self::Options, first_dealer: Seat) -> Result<Self, HandError>;
    /// A match dealt from `seed`: the first dealer is drawn first (unless given), then every
    /// hand is dealt from the same generator as the previous one ends.
    fn seeded(
        opts: Self::Options,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<Self, HandError>;
    /// The seeded deal of one hand by `dealer` (the deal [`Game::seeded`] makes).
    fn shuffled_deal(opts: &Self::Options, dealer: Seat, rng: &mut GameRng) -> Self::Deal;
    /// The seeded hand by `dealer` alone, unchecked (options valid, `dealer` a seat): the fast
    /// path's start for search and self-play.
    fn seeded_hand(opts: &Self::Options, dealer: Seat, rng: &mut GameRng) -> Self::Hand;
    /// A deal from explicit cards: each seat's hand and the monte or stock in order.
    fn deal_from_cards(
        opts: &Self::Options,
        hands: PerSeat<CardSet>,
        rest: &[Card],
    ) -> Result<Self::Deal, DealError>;
    /// A recorded hand's deal, with the record's one-line errors for hand `h`.
    fn deal_from_record(
        opts: &Self::Options,
        h: usize,
        deal: &RecordDeal,
    ) -> Result<Self::Deal, RecordError>;
    /// Starts the next hand with an explicit deal by `dealer`, who must be the next dealer.
    fn start_hand(&mut self, dealer: Seat, deal: Self::Deal) -> Result<(), DealRefused>;
    /// Who deals the next hand, when the match waits for one.
    fn next_dealer(&self) -> Option<Seat>;

    // --- State -------------------------------------------------------------------------------

    /// The options in force.
    fn options(&self) -> &Self::Options;
    /// The first dealer.
    fn first_dealer(&self) -> Seat;
    /// Every hand so far, the current one last.
    fn hands(&self) -> &[Self::Hand];
    /// The seat whose decision it is (in Calabresella a due possibly the dummy).
    fn actor(&self) -> Option<Seat>;
    /// The seat that takes the decision now (the actor, or who plays for it).
    fn decider(&self) -> Option<Seat>;
    /// The legal actions now (empty between hands and after the match).
    fn legal_actions(&self) -> ActionList;
    /// Why `seat` may not take `action` now, or `Ok` when it may: what
    /// [`Game::try_apply_as`] checks, without applying.
    fn check_as(&self, seat: Seat, action: &Action) -> Result<(), IllegalAction>;
    /// Whether `action` is legal now (no allocation: servers check every action).
    fn is_legal(&self, action: &Action) -> bool;
    /// The cards that `take` action ids refer to now: the open monte, when it is public.
    fn id_monte(&self) -> Option<[Card; 4]> {
        None
    }
    /// Whether the match is over.
    fn is_over(&self) -> bool;
    /// The result once the match is over.
    fn result(&self) -> Option<MatchResult>;
    /// Match totals in the game's own unit: per seat, or per side in a partnership game (the
    /// calling games' totals are zero-sum and may be negative).
    fn totals(&self) -> Vec<i32>;
    /// Points per seat: hand `hand`'s award, or with `None` the match totals so far (a side's
    /// points are each of its seats').
    fn seat_points(&self, hand: Option<usize>) -> PerSeat<i32>;
    /// Every seat that wins when `seat` forfeits.
    fn opponents_of(&self, seat: Seat) -> Vec<Seat>;

    // --- Acting ------------------------------------------------------------------------------

    /// Applies `action` for `seat`, which must be the one to decide; on error nothing changes.
    fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction>;
    /// Like [`Game::try_apply_as`], appending the events of the current hand that the action
    /// causes (nothing hidden) to `log`. When the action ends the hand, the next hand (if any)
    /// is dealt: its opening events are in that hand's [`GameHand::events`], not in `log`.
    fn try_apply_logged(
        &mut self,
        seat: Seat,
        action: Action,
        log: &mut Vec<Self::Event>,
    ) -> Result<(), IllegalAction>;
    /// Applies a legal `action` without checking it (the contract of each hand's
    /// `apply_unchecked`: the action must be legal).
    fn apply_unchecked(&mut self, action: Action);

    // --- Views and records -------------------------------------------------------------------

    /// The view of `viewer` of the current (or last) hand, with match totals and earlier
    /// hands' results.
    fn observation(&self, viewer: Viewer) -> Option<Self::Observation>;
    /// A one-line summary of finished hand `i` for people (contract, points, award, the
    /// totals after it), or `None` while it is in play.
    fn hand_summary(&self, i: usize) -> Option<String>;
    /// The view of `viewer` of hand `i` alone (no match totals or earlier results).
    fn hand_observation(&self, i: usize, viewer: Viewer) -> Option<Self::Observation>;
    /// Hand `i`'s line of the replay output (`records.md`), read after the hand was replayed.
    fn replay_hand(&self, i: usize) -> Value;
    /// The replay output's `winners` (seats, or sides in a partnership game).
    fn replay_winners(&self) -> Vec<usize>;
}
