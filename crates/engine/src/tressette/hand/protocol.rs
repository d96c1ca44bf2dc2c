//! Tressette's hand behind the engine's two hand interfaces: the match driver's hand protocol
//! ([`HandRules`]: dealing, who acts, legality, applying, the view) and what every surface
//! reads of a hand ([`GameHand`]).

use arrayvec::ArrayVec;

use crate::action::Action;
use crate::cardset::CardSet;
use crate::error::IllegalAction;
use crate::game::{
    DealtCards, Features, GameHand, GameOptions, HandCore, HandError, HandRules, Phase, Rollout,
    Viewer, replay_events,
};
use crate::rng::GameRng;
use crate::seat::Seat;
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
        self.core
            .check_play((card, signal), self.signals_allowed(), self.legal)
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
            stock: self.deal().stock.map(|s| s.to_vec()).unwrap_or_default(),
            ..DealtCards::new(self.deal().hands)
        }
    }
    fn award_sum(&self) -> u64 {
        self.outcome()
            .map_or(0, |o| u64::from(o.points[0] + o.points[1]))
    }
    fn action_list(&self) -> Vec<Action> {
        self.actions().collect()
    }
    /// The stock not yet drawn (Tressette in Due).
    fn aside(&self) -> CardSet {
        self.stock().iter().copied().collect()
    }
    /// Every event so far, nothing hidden: the deal from the eldest, the accusi, the play.
    fn events(&self) -> Vec<Event> {
        let accusi = self
            .accusi
            .iter()
            .map(|&(seat, accuso)| Event::Declared { seat, accuso });
        let n = self.players();
        replay_events(self, self.core.dealer.next(n).round(n), accusi)
    }
    fn visible(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        event.visible(viewer)
    }
    fn features(&self, viewer: Viewer) -> Features {
        let n = self.players();
        let phase = if Rollout::is_over(self) {
            Phase::Over
        } else {
            Phase::Play
        };
        let mut f = Features {
            stock_left: self.stock().len() as u8,
            ..Features::common(&self.core, viewer, phase, (self.actor(), self.actor()))
        };
        let t = self.side_tricks();
        let mine = viewer.seat().map_or(0, side_of);
        f.side_tricks = [t[mine], t[1 - mine]];
        f.fill_table(self.trick(), |s| s.next(n), &self.card_places());
        f
    }
}
