//! Tressette's hand behind the engine's two hand interfaces: the match driver's hand protocol
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
use crate::seat::Seat;
use crate::sink::EventSink;

use super::super::deal::Deal;
use super::super::event::Event;
use super::super::observation::Observation;
use super::super::options::Options;
use super::*;

impl HandRules for Hand {
    type Observation = Observation;
    fn check_deal(opts: &Options, _dealer: Seat, deal: &Deal) -> Result<(), DealError> {
        deal.validate(opts.variant)
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
    fn shuffled_deal(opts: &Options, dealer: Seat, rng: &mut GameRng) -> Deal {
        Deal::shuffled(rng, opts.variant, dealer)
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
    fn observation(&self, viewer: Viewer) -> Observation {
        Hand::observation(self, viewer)
    }
    fn apply<S: EventSink<Event>>(&mut self, action: Action, sink: &mut S) {
        let Action::Play(card, signal) = action else {
            return;
        };
        if let Some(id) = action.history_id() {
            let _ = self.history.try_push(id);
        }
        let seat = self.core.actor;
        let n = self.players();
        self.core
            .tricks
            .play_from(&mut self.core.hands[seat], seat, (card, signal), sink);
        if self.core.tricks.current().len() < n as usize {
            self.core.actor = seat.next(n);
        } else {
            self.complete_trick(sink);
        }
        self.legal = if self.is_over() {
            CardSet::EMPTY
        } else {
            self.compute_legal()
        };
    }
}

impl GameHand for Hand {
    fn award_sum(&self) -> u64 {
        self.outcome()
            .map_or(0, |o| u64::from(o.points[0] + o.points[1]))
    }
    fn dealt(&self) -> DealtCards {
        DealtCards {
            stock: self.deal().stock.map(|s| s.to_vec()).unwrap_or_default(),
            ..DealtCards::new(self.deal().hands)
        }
    }
    fn action_list(&self) -> Vec<Action> {
        self.actions().collect()
    }
    /// The stock not yet drawn (Tressette in Due).
    fn aside(&self) -> CardSet {
        self.stock().iter().copied().collect()
    }
    type Event = Event;
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
        public_but_deals(event, viewer)
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
    type Options = Options;
    type Deal = Deal;
    fn core(&self) -> &HandCore<Options, Deal> {
        &self.core
    }
}
