//! [`Hand`]: one deal of Calabresella from the auction to scoring, as a value.

use arrayvec::ArrayVec;

use crate::action::{Action, Contract};
use crate::card::{Card, Rank};
use crate::cardset::CardSet;
use crate::game::HandCore;
use crate::game::Rollout;
use crate::seat::{PerSeat, Seat};
use crate::trick::follow_suit;

use super::deal::{Deal, active_seats};
use super::event::VisibilityContext;
use super::options::Options;
use super::score::HandOutcome;
use crate::game::HandRules;
use crate::game::Phase;
use crate::sink::NoEvents;

mod apply;
mod protocol;

/// The most actions one hand can take (auction 3, chiamo 6, 36 cards).
pub(crate) const MAX_HISTORY: usize = 48;

/// Id of `play <card>` for the card with index 0 (see [`crate::action`]).
const PLAY_ID: u16 = 142;

/// Tricks in every Calabresella hand (C-D12).
pub const TRICKS: u8 = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Step {
    Auction,
    Call,
    Return,
    SoloistDiscard { left: u8 },
    DefenderDiscard { def: u8, left: u8 },
    Take,
    Play,
    Over,
}

/// One hand of Calabresella: the deal, every action so far, and the state they lead to.
///
/// A `Hand` is a plain value: clone it to search, compare it to check determinism. Hidden
/// information is all here; seats must see it only through [`Hand::observation`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hand {
    /// The options, dealer, deal, cards held, tricks and turn (what every game shares).
    core: HandCore<Options, Deal>,
    step: Step,
    /// Active seats in play order from the eldest.
    active: [Seat; 3],
    /// For each seat, the next active seat in play order.
    next: PerSeat<Seat>,
    speakers: ArrayVec<Seat, 3>,
    spoken: u8,
    best: Option<(Seat, Contract)>,
    soloist: Seat,
    defenders: [Seat; 2],
    contract: Option<Contract>,
    called: Option<Card>,
    holder: Option<Seat>,
    taken: CardSet,
    setaside: CardSet,
    history: ArrayVec<u16, MAX_HISTORY>,
    outcome: Option<HandOutcome>,
    /// The cards behind the legal actions of a card-naming phase, refreshed after every
    /// transition so that counting and picking legal actions costs a popcount and a select.
    legal: CardSet,
}

impl Hand {
    /// The eldest hand: first to speak and to lead (C-D3, C-D11).
    pub fn eldest(&self) -> Seat {
        self.active[0]
    }

    /// The idle dealer of a four-player game.
    pub fn idle_seat(&self) -> Option<Seat> {
        Deal::idle_seat(self.core.opts.players, self.core.dealer)
    }

    /// What the hand waits for.
    pub fn phase(&self) -> Phase {
        match self.step {
            Step::Auction => Phase::Auction,
            Step::Call => Phase::Call,
            Step::Return => Phase::Return,
            Step::SoloistDiscard { .. } | Step::DefenderDiscard { .. } => Phase::Discard,
            Step::Take => Phase::Take,
            Step::Play => Phase::Play,
            Step::Over => Phase::Over,
        }
    }

    /// How the hand ended, once it is over.
    pub fn outcome(&self) -> Option<&HandOutcome> {
        self.outcome.as_ref()
    }

    /// The seat that takes decisions for `seat`: itself, or in a due the person defending
    /// with the dummy.
    pub fn controller(&self, seat: Seat) -> Seat {
        if self.core.opts.a_due && seat == Options::DUMMY && self.contract.is_some() {
            self.defenders
                .into_iter()
                .find(|&d| d != Options::DUMMY)
                .unwrap_or(seat)
        } else {
            seat
        }
    }

    /// The soloist, once the auction has one.
    pub fn soloist(&self) -> Option<Seat> {
        self.contract.map(|_| self.soloist)
    }

    /// The defenders in play order from the eldest, once the auction has a soloist.
    pub fn defenders(&self) -> Option<[Seat; 2]> {
        self.contract.map(|_| self.defenders)
    }

    /// The contract, once the auction has closed with one.
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }

    /// The highest bid so far and who made it.
    pub fn highest_bid(&self) -> Option<(Seat, Contract)> {
        self.best
    }

    /// The called card in Chiamo.
    pub fn called(&self) -> Option<Card> {
        self.called
    }

    /// The cards face down on the table now: the monte, or the discards that replace it
    /// (hidden information: for referees and tests).
    pub fn setaside(&self) -> CardSet {
        self.setaside
    }

    /// Card thirds won so far (the last trick's bonus and monte included once taken),
    /// `[soloist, defenders]`.
    pub fn side_thirds(&self) -> [u32; 2] {
        self.core.tricks.side_thirds()
    }

    /// Number of actions taken so far.
    pub fn action_count(&self) -> usize {
        self.history.len()
    }

    /// The actions taken so far, in order.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.history.iter().map(|&id| self.decode(id))
    }

    fn decode(&self, id: u16) -> Action {
        // Ids in the history were produced by `to_id` with this hand's monte: always valid.
        Action::from_id(id, Some(&self.core.deal.monte)).unwrap_or(Action::Pass)
    }

    /// The numeric id of `action` here (see [`crate::action`]); `take` ids use this hand's monte.
    pub fn action_id(&self, action: &Action) -> Result<u16, crate::action::ActionIdError> {
        action.to_id(Some(&self.core.deal.monte))
    }

    /// The action with numeric id `id` here.
    pub fn action_from_id(&self, id: u16) -> Result<Action, crate::action::ActionIdError> {
        Action::from_id(id, Some(&self.core.deal.monte))
    }

    /// The cards the soloist may call (C-D5): any card he does not hold; with
    /// `chiamo_threes_only`, a 3 he does not hold. Holding all four 3s he calls a 2, holding all
    /// 2s too an ace, and so on down the ranks, so a call is always possible.
    fn callable(&self) -> CardSet {
        let own = self.core.hands[self.soloist];
        if !self.core.opts.chiamo_threes_only {
            return !own;
        }
        for rank in Rank::ALL {
            let missing = CardSet::rank_mask(rank) - own;
            if !missing.is_empty() {
                return missing;
            }
        }
        CardSet::EMPTY
    }

    fn discarder(&self) -> Seat {
        match self.step {
            Step::DefenderDiscard { def, .. } => self.defenders[def as usize],
            _ => self.soloist,
        }
    }

    /// The contracts that may be bid now, lowest first, as a range of [`Contract::ALL`].
    #[inline]
    fn biddable(&self) -> std::ops::Range<usize> {
        if self.core.opts.only_chiamo {
            return 0..usize::from(self.best.is_none());
        }
        let from = self.best.map_or(0, |(_, b)| b.ordinal() + 1);
        from..Contract::ALL.len()
    }

    /// The cards behind the legal actions of a card-naming phase (cached in `legal`).
    #[inline]
    fn legal_cards(&self) -> CardSet {
        self.legal
    }

    /// Recomputes the cached legal card set after a transition.
    #[inline(always)]
    fn refresh_legal(&mut self) {
        self.legal = self.compute_legal_cards();
    }

    #[inline(always)]
    fn compute_legal_cards(&self) -> CardSet {
        match self.step {
            Step::Call => self.callable(),
            Step::Return => self.return_options(),
            Step::SoloistDiscard { .. } | Step::DefenderDiscard { .. } => {
                self.core.hands[self.discarder()]
            }
            Step::Play => follow_suit(
                self.core.hands[self.core.actor],
                self.core.tricks.current().led_suit(),
            ),
            _ => CardSet::EMPTY,
        }
    }

    /// The cards the actor may play now.
    #[inline]
    pub fn playable(&self) -> CardSet {
        if !matches!(self.step, Step::Play) {
            return CardSet::EMPTY;
        }
        self.legal_cards()
    }

    fn return_options(&self) -> CardSet {
        let mut own = self.core.hands[self.soloist];
        if let Some(c) = self.called {
            own.remove(c);
        }
        own
    }

    fn bid_allowed(&self, c: Contract) -> bool {
        self.biddable().contains(&c.ordinal())
    }

    /// The `i`-th playable card. Following suit every playable card is of the led suit, so a
    /// table lookup within the suit finds it; otherwise a general select.
    #[inline(always)]
    fn nth_playable(&self, i: usize) -> Option<Card> {
        match self.core.tricks.current().led_suit() {
            Some(suit) if (self.legal - self.core.tricks.current().led_mask()).is_empty() => {
                self.legal.nth_of_suit(suit, i)
            }
            _ => self.legal.nth(i),
        }
    }

    /// The next active seat after `seat` in play order (skipping an idle dealer).
    #[inline]
    pub fn next_active(&self, seat: Seat) -> Seat {
        self.next[seat]
    }

    pub(crate) fn visibility(&self) -> VisibilityContext {
        VisibilityContext {
            soloist: self.soloist(),
            dummy: self.core.opts.a_due.then_some(Options::DUMMY),
        }
    }
}

impl Rollout for Hand {
    /// Whether the hand is over (scored or void).
    #[inline]
    fn is_over(&self) -> bool {
        matches!(self.step, Step::Over)
    }

    /// How many legal actions there are now (0 once the hand is over). With
    /// [`Hand::legal_action`] this walks the legal actions without building a list.
    #[inline]
    fn num_legal_actions(&self) -> usize {
        if matches!(self.step, Step::Play) {
            return self.legal.len();
        }
        match self.step {
            Step::Auction => 1 + self.biddable().len(),
            Step::Take => 16,
            Step::Over => 0,
            _ => self.legal_cards().len(),
        }
    }

    /// The `i`-th legal action (0-based) in the order of [`Hand::legal_actions`]: pass before
    /// bids, bids low to high, cards by index, takes by monte mask.
    #[inline]
    fn legal_action(&self, i: usize) -> Option<Action> {
        if matches!(self.step, Step::Play) {
            return self.nth_playable(i).map(|c| Action::Play(c, None));
        }
        match self.step {
            Step::Auction => match i {
                0 => Some(Action::Pass),
                _ => {
                    let r = self.biddable();
                    (i - 1 < r.len()).then(|| Action::Bid(Contract::ALL[r.start + i - 1]))
                }
            },
            Step::Take => (i < 16).then(|| {
                Action::Take(
                    (0..4)
                        .filter(|b| i & (1 << b) != 0)
                        .map(|b| self.core.deal.monte[b])
                        .collect(),
                )
            }),
            Step::Call => self.legal_cards().nth(i).map(Action::Call),
            Step::Return => self.legal_cards().nth(i).map(Action::Return),
            Step::SoloistDiscard { .. } | Step::DefenderDiscard { .. } => {
                self.legal_cards().nth(i).map(Action::Discard)
            }
            Step::Play => self.legal_cards().nth(i).map(|c| Action::Play(c, None)),
            Step::Over => None,
        }
    }

    /// When the actor must play a card: the playable cards (no signals in Calabresella).
    #[inline]
    fn legal_plays(&self) -> Option<(CardSet, bool)> {
        matches!(self.step, Step::Play).then_some((self.legal, false))
    }

    /// Applies `action` without checking it.
    ///
    /// Contract: `action` must be legal ([`Hand::is_legal`]); an illegal action leaves the hand
    /// in an unspecified (but memory-safe) state. This is the fast path for search and
    /// self-play, where actions come from [`Hand::legal_actions`].
    #[inline]
    fn apply_unchecked(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(&action),
            "apply_unchecked({action}) is illegal: {:?}",
            self.check(&action)
        );
        if let (Step::Play, Action::Play(card, None)) = (self.step, action) {
            // The common case (36 of about 42 actions a hand), kept lean for self-play.
            let _ = self.history.try_push(PLAY_ID + u16::from(card.index()));
            self.play(card, None, &mut NoEvents);
            return;
        }
        self.apply(action, &mut NoEvents);
    }

    /// Plays the hand to its end choosing every action uniformly at random with `rng`, and
    /// returns how many actions it took. The result is exactly what the loop
    /// `while !over { apply_unchecked(legal_action(rng.below(num_legal_actions()))) }` gives
    /// with the same generator (a test holds this); it only skips building and decoding an
    /// [`Action`] per card, which makes it the engine's fastest random rollout (for search).
    fn playout_random(&mut self, rng: &mut crate::rng::GameRng) -> usize {
        let mut taken = 0;
        while !matches!(self.step, Step::Over) {
            let n = self.num_legal_actions() as u32;
            let i = rng.below(n) as usize;
            if matches!(self.step, Step::Play) {
                // Following suit, every legal card is of the led suit: a table lookup finds it.
                let pick = self.nth_playable(i);
                if let Some(card) = pick {
                    let _ = self.history.try_push(PLAY_ID + u16::from(card.index()));
                    self.play(card, None, &mut NoEvents);
                }
            } else if let Some(a) = self.legal_action(i) {
                self.apply(a, &mut NoEvents);
            }
            taken += 1;
        }
        taken
    }
}
