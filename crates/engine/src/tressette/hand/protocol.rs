//! Tressette's hand behind the engine's two hand interfaces: the match driver's hand protocol
//! ([`HandRules`]: dealing, who acts, legality, applying, the view) and what every surface
//! reads of a hand ([`GameHand`]).

use arrayvec::ArrayVec;

use crate::action::Action;
use crate::card::Suit;
use crate::cardset::CardSet;
use crate::error::IllegalAction;
use crate::game::{
    CardPlaces, DealtCards, Features, GameHand, GameOptions, HandCore, HandError, HandRules, Phase,
    Rollout, Viewer,
};
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
    /// A new hand dealt by `dealer`; checks the options and the deal.
    fn new(opts: Options, dealer: Seat, deal: Deal) -> Result<Hand, HandError> {
        opts.validate()?;
        if dealer.index() >= opts.variant.players() as usize {
            return Err(HandError::Dealer(dealer));
        }
        deal.validate(opts.variant)?;
        Ok(Hand::new_unchecked(opts, dealer, deal))
    }
    /// [`Hand::new`] without checks (valid options and deal guaranteed by the caller).
    fn new_unchecked(opts: Options, dealer: Seat, deal: Deal) -> Hand {
        let n = opts.variant.players();
        let eldest = dealer.next(n);
        let mut accusi = ArrayVec::new();
        if opts.accusi {
            // T-D2: compulsory, automatic, in turn from the eldest.
            let mut seat = eldest;
            for _ in 0..n {
                for a in declare(deal.hands[seat]) {
                    let _ = accusi.try_push((seat, a));
                }
                seat = seat.next(n);
            }
        }
        let mut h = Hand {
            core: HandCore::new(opts, dealer, deal, deal.hands, (eldest, eldest)),
            stock_next: 0,
            accusi,
            history: ArrayVec::new(),
            legal: CardSet::EMPTY,
            outcome: None,
        };
        h.legal = h.compute_legal();
        h
    }
    /// Who plays next, or `None` when the hand is over.
    #[inline]
    fn actor(&self) -> Option<Seat> {
        (!self.is_over()).then_some(self.core.actor)
    }
    /// Why `action` is not legal now, or `Ok`.
    fn check(&self, action: &Action) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::HandOver);
        }
        let Action::Play(card, signal) = *action else {
            return Err(IllegalAction::WrongPhase {
                phase: crate::game::Phase::Play,
            });
        };
        if signal.is_some() && !self.signals_allowed() {
            return Err(IllegalAction::SignalNotAllowed);
        }
        if !self.core.hands[self.core.actor].contains(card) {
            return Err(IllegalAction::NotInHand(card));
        }
        if !self.legal.contains(card) {
            return Err(IllegalAction::MustFollowSuit(
                self.core
                    .tricks
                    .current()
                    .led_suit()
                    .unwrap_or(Suit::Bastoni),
            ));
        }
        Ok(())
    }
    fn shuffled_deal(opts: &Options, dealer: Seat, rng: &mut GameRng) -> Deal {
        Deal::shuffled(rng, opts.variant, dealer)
    }
    fn apply<S: EventSink<Event>>(&mut self, action: Action, sink: &mut S) {
        Hand::apply(self, action, sink)
    }
    fn observation(&self, viewer: Viewer) -> Observation {
        Hand::observation(self, viewer)
    }
}

impl GameHand for Hand {
    type Options = Options;
    type Deal = Deal;
    type Event = Event;
    fn core(&self) -> &HandCore<Options, Deal> {
        &self.core
    }
    fn dealt(&self) -> DealtCards {
        DealtCards {
            hands: self.deal().hands,
            monte: Vec::new(),
            stock: self.deal().stock.map(|s| s.to_vec()).unwrap_or_default(),
        }
    }
    fn award_sum(&self) -> u64 {
        self.outcome()
            .map_or(0, |o| u64::from(o.points[0] + o.points[1]))
    }
    fn action_list(&self) -> Vec<Action> {
        self.actions().collect()
    }
    fn card_places(&self) -> CardPlaces {
        let [a, b] = self.piles();
        CardPlaces {
            hands: PerSeat::from_fn(self.players(), |s| self.hand_of(s)),
            trick: self.trick().card_set(),
            won: [a, b],
            aside: self.stock().iter().copied().collect(),
        }
    }
    /// Every event so far, nothing hidden.
    fn events(&self) -> Vec<Event> {
        let mut replay = Hand::new_unchecked(self.core.opts, self.core.dealer, self.core.deal);
        let n = self.players();
        let mut events = Vec::with_capacity(64);
        let mut seat = self.core.dealer.next(n);
        for _ in 0..n {
            events.push(Event::Dealt {
                seat,
                cards: self.core.deal.hands[seat],
            });
            seat = seat.next(n);
        }
        events.extend(
            self.accusi
                .iter()
                .map(|&(seat, accuso)| Event::Declared { seat, accuso }),
        );
        for a in self.actions() {
            replay.apply(a, &mut events);
        }
        events
    }
    fn visible(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        event.visible(viewer)
    }
    fn features(&self, viewer: Viewer) -> Features {
        let n = self.players();
        let mut f = Features {
            players: n,
            viewer: viewer.seat(),
            own: viewer.seat().map_or(CardSet::EMPTY, |s| self.hand_of(s)),
            phase: if Rollout::is_over(self) {
                Phase::Over
            } else {
                Phase::Play
            },
            actor: self.actor(),
            decider: self.actor(),
            dealer: Hand::dealer(self),
            tricks_done: self.tricks_done(),
            stock_left: self.stock().len() as u8,
            ..Features::default()
        };
        let t = self.side_tricks();
        let mine = viewer.seat().map_or(0, side_of);
        f.side_tricks = [t[mine], t[1 - mine]];
        f.fill_table(self.trick(), |s| s.next(n), &self.card_places());
        f
    }
}
