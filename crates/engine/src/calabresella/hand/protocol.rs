//! Calabresella's hand behind the engine's two hand interfaces: the match driver's hand protocol
//! ([`HandRules`]: dealing, who acts, legality, applying, the view) and what every surface
//! reads of a hand ([`GameHand`]).

use arrayvec::ArrayVec;

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::DealError;
use crate::error::IllegalAction;
use crate::game::{DealtCards, Features, HandCore, Viewer, replay_events};
use crate::game::{GameHand, HandRules};
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
    fn check_deal(opts: &Options, dealer: Seat, deal: &Deal) -> Result<(), DealError> {
        deal.validate(opts.players, dealer)
    }
    /// [`Hand::new`] without checks: the caller guarantees valid options, a dealer below
    /// `players` and a valid deal (as [`Deal::shuffled`] makes). Used on hot paths.
    fn new_unchecked(opts: Options, dealer: Seat, deal: Deal) -> Hand {
        let active = active_seats(opts.players, dealer);
        let mut next = PerSeat::splat(Seat::ALL[0]);
        for i in 0..3 {
            next[active[i]] = active[(i + 1) % 3];
        }
        let speakers: ArrayVec<Seat, 3> = active
            .iter()
            .copied()
            .filter(|&s| !(opts.a_due && s == Options::DUMMY))
            .collect();
        // The first to speak: the eldest, unless he is the a due dummy (C-D19).
        let first_speaker = speakers.first().copied().unwrap_or(active[0]);
        Hand {
            core: HandCore::new(opts, dealer, deal, deal.hands, (active[0], first_speaker)),
            step: Step::Auction,
            active,
            next,
            speakers,
            spoken: 0,
            best: None,
            soloist: active[0],
            defenders: [active[1], active[2]],
            contract: None,
            called: None,
            holder: None,
            taken: CardSet::EMPTY,
            setaside: deal.monte.iter().copied().collect(),
            history: ArrayVec::new(),
            outcome: None,
            legal: CardSet::EMPTY,
        }
    }
    fn shuffled_deal(opts: &Options, dealer: Seat, rng: &mut GameRng) -> Deal {
        Deal::shuffled(rng, opts.players, dealer)
    }
    /// The actor, or the a due person playing the dummy.
    fn decider(&self) -> Option<Seat> {
        self.actor().map(|a| self.controller(a))
    }
    /// C-D4: after a void deal the same dealer deals again.
    fn same_dealer_again(&self) -> bool {
        matches!(self.outcome(), Some(HandOutcome::Void))
    }
    /// Why `action` is not legal now, or `Ok` if it is.
    fn check(&self, action: &Action) -> Result<(), IllegalAction> {
        use IllegalAction as E;
        let expected = || E::WrongPhase {
            phase: self.phase(),
        };
        match (self.step, *action) {
            (Step::Over, _) => Err(E::HandOver),
            (Step::Auction, Action::Pass) => Ok(()),
            (Step::Auction, Action::Bid(c)) => {
                if self.bid_allowed(c) {
                    Ok(())
                } else if self.core.opts.only_chiamo {
                    Err(E::OnlyChiamo)
                } else {
                    Err(E::BidTooLow {
                        highest: self.best.map(|(_, b)| b),
                    })
                }
            }
            (Step::Call, Action::Call(c)) => {
                if self.core.hands[self.soloist].contains(c) {
                    Err(E::CallOwnCard(c))
                } else if !self.callable().contains(c) {
                    Err(E::CallRank {
                        allowed: self.callable().first().map_or(Rank::Three, Card::rank),
                    })
                } else {
                    Ok(())
                }
            }
            (Step::Return, Action::Return(c)) => {
                if Some(c) == self.called {
                    Err(E::ReturnCalledCard(c))
                } else if !self.core.hands[self.soloist].contains(c) {
                    Err(E::NotInHand(c))
                } else {
                    Ok(())
                }
            }
            (Step::SoloistDiscard { .. } | Step::DefenderDiscard { .. }, Action::Discard(c)) => {
                if self.core.hands[self.discarder()].contains(c) {
                    Ok(())
                } else {
                    Err(E::NotInHand(c))
                }
            }
            (Step::Take, Action::Take(set)) => {
                let monte: CardSet = self.core.deal.monte.iter().copied().collect();
                match (set - monte).first() {
                    Some(c) => Err(E::NotInMonte(c)),
                    None => Ok(()),
                }
            }
            (Step::Play, Action::Play(c, signal)) => {
                let hand = self.core.hands[self.core.actor];
                let playable = follow_suit(hand, self.core.trick().led_suit());
                self.core.check_play((c, signal), false, playable)
            }
            _ => Err(expected()),
        }
    }
    fn observation(&self, viewer: Viewer) -> Observation {
        Hand::observation(self, viewer)
    }
    fn apply<S: EventSink<Event>>(&mut self, action: Action, sink: &mut S) {
        let id = match action {
            // The common case, without the general encoder's branches.
            Action::Play(c, None) => PLAY_ID + u16::from(c.index()),
            _ => self.action_id(&action).unwrap_or(0),
        };
        // A legal hand never exceeds the capacity; an unchecked illegal stream must not panic.
        let _ = self.history.try_push(id);
        match action {
            Action::Pass | Action::Bid(_) => self.speak(action, sink),
            Action::Call(c) => self.call(c, sink),
            Action::Return(c) => {
                let holder = self.holder.unwrap_or(self.soloist);
                self.core.hands[self.soloist].remove(c);
                self.core.hands[holder].insert(c);
                if S::ACTIVE {
                    sink.push(Event::Returned {
                        to: holder,
                        card: Some(c),
                    });
                }
                self.take_monte(sink);
            }
            Action::Discard(c) => self.discard(c, sink),
            Action::Take(set) => self.split_monte(set, sink),
            Action::Play(c, signal) => self.play(c, signal, sink),
            // Never legal here (a Briscola Chiamata bid); apply_unchecked's contract excludes it.
            Action::Promise(_) => {}
        }
        self.refresh_legal();
    }
}

impl GameHand for Hand {
    fn award_sum(&self) -> u64 {
        self.outcome()
            .map_or(0, |o| o.award().0.iter().map(|&x| u64::from(x)).sum())
    }
    fn dealt(&self) -> DealtCards {
        DealtCards {
            monte: self.deal().monte.to_vec(),
            ..DealtCards::new(self.deal().hands)
        }
    }
    fn action_list(&self) -> Vec<Action> {
        self.actions().collect()
    }
    /// The monte until it is taken or split, then the discards.
    fn aside(&self) -> CardSet {
        self.setaside()
    }
    type Event = Event;
    /// Every event of the hand so far, with nothing hidden (for referees and records).
    fn events(&self) -> Vec<Event> {
        replay_events(self, self.active, [])
    }
    fn visible(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        event.visible(viewer, &self.visibility())
    }
    fn features(&self, viewer: Viewer) -> Features {
        let decider = self.actor().map(|a| self.controller(a));
        let mut f = Features {
            contract: self.contract(),
            highest: self.highest_bid(),
            soloist: self.soloist(),
            called: self.called(),
            idle: self.idle_seat(),
            side_tricks: self.side_tricks(),
            ..Features::common(&self.core, viewer, self.phase(), (self.actor(), decider))
        };
        for (s, cards) in self.visible_hands(viewer) {
            f.visible[s.index()] = cards;
        }
        f.fill_table(self.trick(), |s| self.next_active(s), &self.card_places());
        f
    }
    fn phase_text(&self) -> Option<String> {
        Some(format!("{:?}", self.phase()))
    }
    type Options = Options;
    type Deal = Deal;
    fn core(&self) -> &HandCore<Options, Deal> {
        &self.core
    }
}
