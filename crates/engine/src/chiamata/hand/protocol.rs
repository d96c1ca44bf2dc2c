//! A calling game's hand behind the engine's two hand interfaces: the match driver's hand protocol
//! ([`HandRules`]: dealing, who acts, legality, applying, the view) and what every surface
//! reads of a hand ([`GameHand`]).

use arrayvec::ArrayVec;

use crate::action::Action;
use crate::cardset::CardSet;
use crate::deals::DealError;
use crate::error::IllegalAction;
use crate::game::{DealtCards, Features, HandCore, Phase, Viewer, replay_events};
use crate::game::{GameHand, HandRules, Rollout, public_but_deals};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};
use crate::sink::EventSink;

use super::super::deal::Deal;
use super::super::event::Event;
use super::super::observation::Observation;
use super::super::options::Options;
use super::*;

impl HandRules for Hand {
    type Observation = Observation;
    fn check_deal(opts: &Options, _dealer: Seat, deal: &Deal) -> Result<(), DealError> {
        deal.validate(opts.players)
    }
    /// [`Hand::new`] without checks (valid options and deal guaranteed by the caller).
    fn new_unchecked(opts: Options, dealer: Seat, deal: Deal) -> Hand {
        let eldest = dealer.next(opts.players);
        let mut h = Hand {
            core: HandCore::new(opts, dealer, deal, deal.hands, (eldest, eldest)),
            phase: Phase::Auction,
            passed: 0,
            spoken: 0,
            highest: None,
            caller: None,
            bid: None,
            called: None,
            holder: None,
            revealed: false,
            solo: false,
            trump: CardSet::EMPTY,
            seat_won: PerSeat::splat(CardSet::EMPTY),
            history: ArrayVec::new(),
            legal: CardSet::EMPTY,
            void: false,
            tricks_in_hand: opts.hand_size() as u8,
            outcome: None,
        };
        if opts.four_players() {
            // TC-D15: no auction; the eldest must call.
            h.caller = Some(eldest);
            h.phase = Phase::Call;
        }
        h.refresh_legal();
        h
    }
    fn shuffled_deal(opts: &Options, dealer: Seat, rng: &mut GameRng) -> Deal {
        Deal::shuffled(rng, opts.players, dealer)
    }
    /// CH-D5: after a void deal the same dealer deals again.
    fn same_dealer_again(&self) -> bool {
        self.is_void()
    }
    /// Why `action` is not legal now, or `Ok`.
    fn check(&self, action: &Action) -> Result<(), IllegalAction> {
        match (self.phase, *action) {
            (Phase::Over, _) => Err(IllegalAction::HandOver),
            (Phase::Auction, Action::Pass) => Ok(()),
            (Phase::Auction, a @ (Action::Bid(_) | Action::Promise(_))) => self.check_bid(a),
            (Phase::Call, Action::Call(c)) => self.check_call(c),
            (Phase::Play, Action::Play(card, signal)) => {
                self.core
                    .check_play((card, signal), self.signals_allowed(), self.legal)
            }
            (phase, _) => Err(IllegalAction::WrongPhase { phase }),
        }
    }
    fn observation(&self, viewer: Viewer) -> Observation {
        Hand::observation(self, viewer)
    }
    fn apply<S: EventSink<Event>>(&mut self, action: Action, sink: &mut S) {
        if let Some(id) = action.history_id() {
            // A legal hand never exceeds the capacity; an unchecked illegal stream must not panic.
            let _ = self.history.try_push(id);
        }
        match action {
            Action::Pass | Action::Bid(_) | Action::Promise(_) => self.speak(action, sink),
            Action::Call(c) => self.call(c, sink),
            Action::Play(c, signal) => match self.core.opts.variant {
                Variant::Tressette => self.play_in::<S, true>(c, signal, sink),
                Variant::Briscola => self.play_in::<S, false>(c, signal, sink),
            },
            // No other kind is ever legal here.
            Action::Return(_) | Action::Discard(_) | Action::Take(_) => {}
        }
        if !self.is_over() {
            self.refresh_legal();
        }
    }
}

impl GameHand for Hand {
    /// The sum of the awards' sizes (the awards themselves sum to zero).
    fn award_sum(&self) -> u64 {
        self.outcome().map_or(0, |o| {
            o.award.0.iter().map(|a| u64::from(a.unsigned_abs())).sum()
        })
    }
    fn dealt(&self) -> DealtCards {
        DealtCards::new(self.deal().hands)
    }
    fn action_list(&self) -> Vec<Action> {
        self.actions().collect()
    }
    type Event = Event;
    /// Every event so far, nothing hidden: the deal from the eldest, then the auction and
    /// the play.
    fn events(&self) -> Vec<Event> {
        replay_events(self, self.eldest().round(self.players()), [])
    }
    fn visible(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        public_but_deals(event, viewer)
    }
    fn features(&self, viewer: Viewer) -> Features {
        let n = self.players();
        let promise = |a: Option<Action>| match a {
            Some(Action::Promise(p)) => Some(p),
            _ => None,
        };
        let contract = |a: Option<Action>| match a {
            Some(Action::Bid(c)) => Some(c),
            _ => None,
        };
        let highest = self.highest();
        let mut f = Features {
            called: self.called(),
            contract: contract(self.bid()),
            highest: highest.and_then(|(s, a)| contract(Some(a)).map(|c| (s, c))),
            highest_promise: highest.and_then(|(s, a)| promise(Some(a)).map(|p| (s, p))),
            promise: promise(self.bid()),
            soloist: self.caller(),
            trump: self.trump(),
            partner: self.partner_seen_by(viewer),
            alone: self.alone_seen_by(viewer),
            target: self.target().unwrap_or(0),
            ..Features::common(
                &self.core,
                viewer,
                self.phase(),
                (self.actor(), self.actor()),
            )
        };
        // Per-side tricks would reveal the secret sides: the viewer's own tricks and everyone
        // else's, which are public.
        let mine = viewer.seat().unwrap_or(Seat::ALL[0]);
        for s in Seat::first_n(n) {
            f.seat_points[s.index()] = self.seat_points(s);
            let tricks = (self.seat_won(s).len() / usize::from(n)) as u32;
            f.side_tricks[usize::from(s != mine)] += tricks;
        }
        f.fill_table(self.trick(), |s| s.next(n), &self.card_places());
        f
    }
    fn phase_text(&self) -> Option<String> {
        Some(format!("{:?}", self.phase()).to_lowercase())
    }
    type Options = Options;
    type Deal = Deal;
    fn core(&self) -> &HandCore<Options, Deal> {
        &self.core
    }
}
