//! [`Hand`]: one hand of Tressette con la Chiamata or Briscola Chiamata: the auction, the call
//! that makes a secret partner (and in Briscola the trump), eight tricks, and the payout.

use arrayvec::ArrayVec;

use crate::action::{Action, Contract, Promise, Signal};
use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::error::IllegalAction;
use crate::game::HandCore;
use crate::game::HandRules;
use crate::game::Phase;
use crate::game::Rollout;
use crate::seat::{PerSeat, Seat};
use crate::sink::NoEvents;
use crate::trick::follow_mask;

use super::cards::briscola_points_of;
use super::deal::Deal;
use super::options::{Auction, Options, Variant};
use super::score::Outcome;

/// What a seat is in a hand, as that seat knows it (CH-D2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The auction winner, with a partner (whom he does not know until the called card is
    /// played).
    Caller,
    /// The holder of the called card.
    Partner,
    /// One of the other seats.
    Defender,
    /// The caller playing one against four: by `bid solo` (public), or by calling his own card
    /// (known only to him until he plays it).
    CallerAlone,
}

impl Role {
    /// `caller`, `partner`, `defender` or `caller_alone`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Caller => "caller",
            Role::Partner => "partner",
            Role::Defender => "defender",
            Role::CallerAlone => "caller_alone",
        }
    }
}

use crate::action::LEAD_SIGNALS as SIGNALS;

mod apply;
mod protocol;

/// The most actions a hand can take: a rank auction of 69 bids and 5 passes, a call, 40 cards.
pub(crate) const MAX_ACTIONS: usize = 120;

/// The highest step of the rank auction: `bid 2 120` (10 ranks, then 62..=120).
const LAST_RANK_STEP: u16 = 10 + 120 - 62;

/// One hand of a calling game, as a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hand {
    /// The options, dealer, deal, cards held, tricks and turn (what every game shares).
    core: HandCore<Options, Deal>,
    phase: Phase,
    /// Seats that have passed (bit per seat): a pass is final.
    passed: u8,
    /// Turns taken in the auction (Tressette con la Chiamata: one each).
    spoken: u8,
    /// The highest bid so far and who made it.
    highest: Option<(Seat, Action)>,
    /// The auction winner (the eldest with four players).
    caller: Option<Seat>,
    /// The winning bid (none with four players, where the eldest must call).
    bid: Option<Action>,
    /// The called card.
    called: Option<Card>,
    /// Who holds the called card: the secret partner (the caller himself when he called his own
    /// card). Hidden information until the called card is played.
    holder: Option<Seat>,
    /// Whether the called card has been played (the partnership is public).
    revealed: bool,
    /// `bid solo`: the caller plays alone, publicly, without a call.
    solo: bool,
    /// Briscola Chiamata: the trump suit's ten cards once called (empty in Tressette).
    trump: CardSet,
    /// Cards each seat has won in tricks (CH-D3: credited per seat, merged only at scoring).
    seat_won: PerSeat<CardSet>,
    history: ArrayVec<u16, MAX_ACTIONS>,
    /// The legal cards of the call or the play.
    legal: CardSet,
    void: bool,
    /// Tricks in the hand (8, or 10 with four players): kept, not divided out every trick.
    tricks_in_hand: u8,
    outcome: Option<Outcome>,
}

impl Hand {
    /// Number of seats.
    pub fn players(&self) -> u8 {
        self.core.opts.players
    }

    /// The eldest: the seat after the dealer.
    pub fn eldest(&self) -> Seat {
        self.core.dealer.next(self.core.opts.players)
    }

    /// What the hand waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether every player passed (TC-D3, BC-D4): nothing is scored, the same dealer deals.
    pub fn is_void(&self) -> bool {
        self.void
    }

    /// The result once the hand is scored.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The highest bid so far and its bidder (public).
    pub fn highest(&self) -> Option<(Seat, Action)> {
        self.highest
    }

    /// The caller, once the auction is won (public).
    pub fn caller(&self) -> Option<Seat> {
        self.caller
    }

    /// The winning bid (public); none with four players.
    pub fn bid(&self) -> Option<Action> {
        self.bid
    }

    /// The called card (public).
    pub fn called(&self) -> Option<Card> {
        self.called
    }

    /// Briscola Chiamata: the trump suit, once called (public).
    pub fn trump(&self) -> Option<Suit> {
        self.trump.first().map(Card::suit)
    }

    /// Whether the caller plays alone by `bid solo` (public from the auction on).
    pub fn is_solo(&self) -> bool {
        self.solo
    }

    /// Whether the called card has been played, which makes the partnership public.
    pub fn partner_revealed(&self) -> bool {
        self.revealed
    }

    /// The holder of the called card: the partner, or the caller himself when he called his
    /// own card. **Hidden information** until [`Hand::partner_revealed`]: for referees, the
    /// holder's own view, and tests.
    pub fn holder(&self) -> Option<Seat> {
        self.holder
    }

    /// Whether the caller plays alone (by `bid solo` or by calling his own card): hidden while
    /// only his own call makes it so and the card is unplayed.
    pub fn is_alone(&self) -> bool {
        self.solo || (self.holder.is_some() && self.holder == self.caller)
    }

    /// The partner (not the caller himself): hidden information until revealed.
    pub fn partner(&self) -> Option<Seat> {
        self.holder.filter(|&h| Some(h) != self.caller)
    }

    /// What `seat` is in this hand, as `seat` itself knows it.
    pub fn role_of(&self, seat: Seat) -> Option<Role> {
        let caller = self.caller?;
        Some(if seat == caller {
            if self.is_alone() {
                Role::CallerAlone
            } else {
                Role::Caller
            }
        } else if self.partner() == Some(seat) {
            Role::Partner
        } else {
            Role::Defender
        })
    }

    /// The target: 6 points in Tressette con la Chiamata (TC-D11); 61 card points, or the
    /// points bid, in Briscola Chiamata (BC-D10). Known once the auction is won.
    pub fn target(&self) -> Option<u32> {
        self.caller?;
        Some(match (self.core.opts.variant, self.bid) {
            (Variant::Briscola, Some(Action::Promise(p))) => u32::from(p.target()),
            (Variant::Briscola, _) => 61,
            (Variant::Tressette, _) => 6,
        })
    }

    /// Cards each seat has won so far (public: every trick's winner and cards are).
    pub fn seat_won(&self, seat: Seat) -> CardSet {
        self.seat_won[seat]
    }

    /// Points each seat has captured so far: thirds in Tressette con la Chiamata, card points
    /// in Briscola Chiamata (public, CH-D2).
    pub fn seat_points(&self, seat: Seat) -> u32 {
        match self.core.opts.variant {
            Variant::Tressette => self.seat_won[seat].thirds(),
            Variant::Briscola => briscola_points_of(self.seat_won[seat]),
        }
    }

    /// The actions taken so far, in order.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        crate::action::plain_actions(&self.history)
    }

    /// Number of actions taken so far.
    pub fn action_count(&self) -> usize {
        self.history.len()
    }

    // --- Legal actions ----------------------------------------------------------------------

    /// The auction's lowest and highest step still open to a bid, and whether any bid is
    /// possible: Tressette steps are chiamo 0 and solo 1; Briscola's are [`Promise::step`].
    #[inline]
    fn bid_range(&self) -> Option<(u16, u16)> {
        let (first, last) = match self.core.opts.variant {
            Variant::Tressette => (0, if self.core.opts.solo_allowed() { 1 } else { 0 }),
            Variant::Briscola => match self.core.opts.auction {
                Auction::Ranks if self.core.opts.two_closes => (0, 9),
                Auction::Ranks => (0, LAST_RANK_STEP),
                Auction::Points => (u16::from(Promise::MIN_POINTS), 120),
            },
        };
        let low = match self.highest {
            None => first,
            Some((_, a)) => bid_step(a) + 1,
        };
        (low <= last).then_some((low, last))
    }

    /// The bid at auction step `step` (see [`Hand::bid_range`]).
    #[inline]
    fn bid_at(&self, step: u16) -> Action {
        match (self.core.opts.variant, self.core.opts.auction) {
            (Variant::Tressette, _) => Action::Bid(if step == 0 {
                Contract::Chiamo
            } else {
                Contract::Solo
            }),
            (Variant::Briscola, Auction::Points) => Action::Promise(Promise::Points(step as u8)),
            (Variant::Briscola, Auction::Ranks) if step < 10 => {
                Action::Promise(Promise::Rank(Promise::RANK_LADDER[step as usize]))
            }
            (Variant::Briscola, Auction::Ranks) => {
                Action::Promise(Promise::TwoFor((step - 10 + 62) as u8))
            }
        }
    }

    /// Whether a signal may go with the next card: on a lead in Tressette (TC-D8).
    #[inline]
    fn signals_allowed(&self) -> bool {
        self.core.opts.variant == Variant::Tressette && self.core.tricks.current().is_empty()
    }

    /// The cards the caller may call (TC-D4, TC-D5, BC-D5, BC-D7, CH-D6).
    fn callable(&self) -> CardSet {
        let own = self.core.hands[self.core.actor];
        match self.core.opts.variant {
            Variant::Briscola => match self.bid {
                Some(Action::Promise(p)) => p.call_rank().map_or(CardSet::ALL, CardSet::rank_mask),
                _ => CardSet::ALL,
            },
            Variant::Tressette => {
                let mut allowed = if self.core.opts.own_card_allowed() {
                    CardSet::ALL
                } else {
                    CardSet::ALL - own
                };
                if self.core.opts.call_threes_only
                    && let Some(r) = self.forced_rank()
                {
                    allowed &= CardSet::rank_mask(r);
                }
                allowed
            }
        }
    }

    /// With `call_threes_only`: the highest rank (3, 2, A, ...) of which the caller lacks a
    /// card.
    fn forced_rank(&self) -> Option<Rank> {
        let own = self.core.hands[self.core.actor];
        Rank::ALL
            .into_iter()
            .find(|&r| !own.is_superset(CardSet::rank_mask(r)))
    }

    fn refresh_legal(&mut self) {
        self.legal = match self.phase {
            Phase::Call => self.callable(),
            Phase::Play => {
                let hand = self.core.hands[self.core.actor];
                match self.core.opts.variant {
                    Variant::Tressette => follow_mask(hand, self.core.tricks.current().led_mask()),
                    // BC-D9: no duty to follow suit or to trump.
                    Variant::Briscola => hand,
                }
            }
            _ => CardSet::EMPTY,
        };
    }

    /// What the auction takes, for error messages.
    fn bids_taken(&self) -> &'static str {
        match (self.core.opts.variant, self.core.opts.auction) {
            (Variant::Tressette, _) if self.core.opts.solo_allowed() => {
                "pass, bid chiamo or bid solo"
            }
            (Variant::Tressette, _) => "pass or bid chiamo",
            (Variant::Briscola, Auction::Points) => "pass or bid <N>, 61 to 120 (auction=points)",
            (Variant::Briscola, Auction::Ranks) if self.core.opts.two_closes => {
                "pass or bid <rank> (two_closes: no bidding in points)"
            }
            (Variant::Briscola, Auction::Ranks) => "pass, bid <rank> or bid 2 <N>",
        }
    }

    fn check_bid(&self, a: Action) -> Result<(), IllegalAction> {
        let taken = IllegalAction::BidNotTaken {
            expected: self.bids_taken(),
        };
        let kind_ok = match (self.core.opts.variant, a) {
            (Variant::Tressette, Action::Bid(Contract::Chiamo)) => true,
            (Variant::Tressette, Action::Bid(Contract::Solo)) => self.core.opts.solo_allowed(),
            (Variant::Briscola, Action::Promise(p)) => {
                p.is_valid()
                    && match (self.core.opts.auction, p) {
                        (Auction::Ranks, Promise::Rank(_)) => true,
                        (Auction::Ranks, Promise::TwoFor(_)) => !self.core.opts.two_closes,
                        (Auction::Points, Promise::Points(_)) => true,
                        _ => false,
                    }
            }
            _ => false,
        };
        if !kind_ok {
            return Err(taken);
        }
        match self.highest {
            Some((_, h)) if bid_step(a) <= bid_step(h) => Err(match h {
                Action::Promise(p) => IllegalAction::PromiseTooLow { highest: p },
                Action::Bid(c) => IllegalAction::BidTooLow { highest: Some(c) },
                _ => taken,
            }),
            _ => Ok(()),
        }
    }

    fn check_call(&self, c: Card) -> Result<(), IllegalAction> {
        if self.legal.contains(c) {
            return Ok(());
        }
        if self.core.hands[self.core.actor].contains(c) && !self.core.opts.own_card_allowed() {
            return Err(IllegalAction::CallOwnCard(c));
        }
        let rank = match self.core.opts.variant {
            Variant::Briscola => self.bid.and_then(|b| match b {
                Action::Promise(p) => p.call_rank(),
                _ => None,
            }),
            Variant::Tressette => self.forced_rank(),
        };
        let why = match self.core.opts.variant {
            Variant::Briscola => "the rank bid",
            Variant::Tressette => "call_threes_only: the highest rank the caller lacks",
        };
        Err(match rank {
            Some(rank) => IllegalAction::CallMustBe { rank, why },
            None => IllegalAction::CallOwnCard(c),
        })
    }

    /// [`Hand::playout_random`] for Tressette con la Chiamata (`TC`) or Briscola Chiamata.
    fn playout<const TC: bool>(&mut self, rng: &mut crate::rng::GameRng) -> usize {
        let mut taken = 0;
        while !self.is_over() {
            if self.phase == Phase::Play {
                // The tricks, most of a hand: the card (and signal) of `legal_action`'s order,
                // played without the general dispatch.
                let signals = TC && self.core.tricks.current().is_empty();
                let n = self.legal.len() * if signals { 4 } else { 1 };
                let i = rng.below(n as u32) as usize;
                let (k, signal) = if signals {
                    (i / 4, SIGNALS[i % 4])
                } else {
                    (i, None)
                };
                // A follow within the led suit picks by table lookup (`nth_of_suit`), the same
                // card as `nth` would.
                // In Briscola there is no duty to follow: the legal set spans suits.
                let led = if TC {
                    self.core.tricks.current().led_suit()
                } else {
                    None
                };
                let card = match led {
                    Some(suit) if CardSet::suit(suit).is_superset(self.legal) => {
                        self.legal.nth_of_suit(suit, k)
                    }
                    _ => self.legal.nth(k),
                };
                if let Some(card) = card {
                    self.play_card::<TC>(card, signal);
                }
            } else if self.phase == Phase::Auction {
                // The auction: `pass`, then the bids from the lowest, as `legal_action` lists them.
                let range = self.bid_range();
                let n = 1 + range.map_or(0, |(lo, hi)| u32::from(hi - lo) + 1);
                let i = rng.below(n) as u16;
                let action = match range {
                    Some((lo, _)) if i > 0 => self.bid_at(lo + i - 1),
                    _ => Action::Pass,
                };
                if let Some(id) = action.history_id() {
                    let _ = self.history.try_push(id);
                }
                self.speak(action, &mut NoEvents);
                if self.phase != Phase::Auction && !self.is_over() {
                    self.refresh_legal();
                }
            } else {
                let i = rng.below(self.num_legal_actions() as u32) as usize;
                if let Some(a) = self.legal_action(i) {
                    self.apply(a, &mut NoEvents);
                }
            }
            taken += 1;
        }
        taken
    }

    /// A legal card played on the fast path: recorded, played, and the next legal set.
    #[inline]
    fn play_card<const TC: bool>(&mut self, card: Card, signal: Option<Signal>) {
        if let Some(id) = Action::Play(card, signal).history_id() {
            let _ = self.history.try_push(id);
        }
        self.play_in::<NoEvents, TC>(card, signal, &mut NoEvents);
        if self.phase == Phase::Play {
            let hand = self.core.hands[self.core.actor];
            self.legal = if TC {
                follow_mask(hand, self.core.tricks.current().led_mask())
            } else {
                hand
            };
        }
    }

    // --- Applying ---------------------------------------------------------------------------
}

/// A bid's place on its auction's ladder (see [`Promise::step`]; chiamo 0, solo 1).
#[inline]
fn bid_step(a: Action) -> u16 {
    match a {
        Action::Bid(Contract::Chiamo) => 0,
        Action::Bid(_) => 1,
        Action::Promise(p) => p.step(),
        _ => 0,
    }
}

/// BC-D12, option `bid_multiplier`: 71–80 ×2, 81–90 ×3, 91–100 ×4, 101–120 ×5.
pub const fn target_multiplier(target: u32) -> u32 {
    match target {
        0..=70 => 1,
        71..=80 => 2,
        81..=90 => 3,
        91..=100 => 4,
        _ => 5,
    }
}

/// Side 0 (the caller and his partner, the called card's holder) or 1 (the defenders) of
/// `seat`; before the call every seat counts as a defender.
#[inline]
pub(super) fn caller_side(seat: Seat, caller: Option<Seat>, holder: Option<Seat>) -> usize {
    usize::from(Some(seat) != caller && Some(seat) != holder)
}

impl Rollout for Hand {
    /// Whether the hand is over (scored, or void).
    #[inline]
    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How many legal actions there are now.
    #[inline]
    fn num_legal_actions(&self) -> usize {
        match self.phase {
            Phase::Auction => {
                1 + self
                    .bid_range()
                    .map_or(0, |(lo, hi)| usize::from(hi - lo) + 1)
            }
            Phase::Call => self.legal.len(),
            Phase::Play if self.signals_allowed() => self.legal.len() * 4,
            Phase::Play => self.legal.len(),
            _ => 0,
        }
    }

    /// The `i`-th legal action: in the auction `pass` then the bids from the lowest; calls and
    /// cards in index order, each card on a Tressette lead plain first, then with busso,
    /// striscio and volo.
    #[inline]
    fn legal_action(&self, i: usize) -> Option<Action> {
        match self.phase {
            Phase::Auction if i == 0 => Some(Action::Pass),
            Phase::Auction => {
                let (lo, hi) = self.bid_range()?;
                let step = lo + u16::try_from(i - 1).ok()?;
                (step <= hi).then(|| self.bid_at(step))
            }
            Phase::Call => self.legal.nth(i).map(Action::Call),
            Phase::Play if self.signals_allowed() => {
                let card = self.legal.nth(i / 4)?;
                Some(Action::Play(card, SIGNALS[i % 4]))
            }
            Phase::Play => self.legal.nth(i).map(|c| Action::Play(c, None)),
            _ => None,
        }
    }

    /// When the actor must play a card: the playable cards and whether the lead signals are
    /// offered with them.
    #[inline]
    fn legal_plays(&self) -> Option<(CardSet, bool)> {
        matches!(self.phase, Phase::Play).then(|| (self.legal, self.signals_allowed()))
    }

    /// Applies a legal `action` without checking it (the action must be legal).
    #[inline]
    fn apply_unchecked(&mut self, action: Action) {
        crate::game::apply_quiet(self, action);
    }

    /// Plays the hand out with uniformly random legal actions from `rng` (the same result as
    /// the per-action loop with the same generator); returns the number of actions.
    fn playout_random(&mut self, rng: &mut crate::rng::GameRng) -> usize {
        // One loop per game, so the variant's branches fold away.
        match self.core.opts.variant {
            Variant::Tressette => self.playout::<true>(rng),
            Variant::Briscola => self.playout::<false>(rng),
        }
    }
}
