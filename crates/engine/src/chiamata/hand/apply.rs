//! How each action changes a calling game's hand: the auction, the call that makes the secret
//! partner, trick play, and the payout at the end.

use crate::action::{Action, Contract, Promise, Signal};
use crate::card::{Card, Rank};
use crate::cardset::CardSet;
use crate::chiamata::cards::{briscola_points_of, briscola_strength};
use crate::chiamata::event::Event;
use crate::chiamata::options::{FirstLead, Variant};
use crate::chiamata::score::{Outcome, payout};
use crate::game::Phase;
use crate::seat::Seat;
use crate::sink::EventSink;
use crate::trick::{LAST_TRICK_THIRDS, truncate_points};

use super::{Hand, caller_side, target_multiplier};

impl Hand {
    #[inline]
    pub(super) fn speak<S: EventSink<Event>>(&mut self, action: Action, sink: &mut S) {
        let seat = self.core.actor;
        let n = self.players();
        if S::ACTIVE {
            sink.push(Event::Spoke { seat, action });
        }
        self.spoken += 1;
        if action == Action::Pass {
            self.passed |= 1 << seat.index();
        } else {
            self.highest = Some((seat, action));
        }
        let passes = self.passed.count_ones() as u8;
        let closes = match action {
            // TC-D2: the first chiamo wins at once (unless solo may still be bid, TC-D16).
            Action::Bid(Contract::Chiamo) => !self.core.opts.solo_allowed(),
            Action::Bid(_) => true,
            // BC-D4, BC-D6, CH-D6: the top of the ladder, or a plain 2 with two_closes.
            Action::Promise(p) => {
                matches!(p, Promise::TwoFor(120) | Promise::Points(120))
                    || (self.core.opts.two_closes && p == Promise::Rank(Rank::Two))
            }
            _ => false,
        };
        let over = match self.core.opts.variant {
            Variant::Tressette => closes || self.spoken >= n,
            Variant::Briscola => {
                closes || passes >= n || (self.highest.is_some() && passes + 1 >= n)
            }
        };
        if !over {
            // The next seat that has not passed (in Tressette every seat speaks once, in turn).
            let mut next = seat.next(n);
            while self.passed & (1 << next.index()) != 0 && next != seat {
                next = next.next(n);
            }
            self.core.actor = next;
            return;
        }
        let Some((caller, bid)) = self.highest else {
            // TC-D3, BC-D4: all passed; the deal is void.
            if S::ACTIVE {
                sink.push(Event::AllPassed);
            }
            self.void = true;
            self.phase = Phase::Over;
            return;
        };
        self.caller = Some(caller);
        self.bid = Some(bid);
        if S::ACTIVE {
            sink.push(Event::AuctionWon { seat: caller, bid });
        }
        self.core.actor = caller;
        if bid == Action::Bid(Contract::Solo) {
            // TC-D16: the soloist calls no card and plays alone, publicly.
            self.solo = true;
            self.start_play();
        } else {
            self.phase = Phase::Call;
        }
    }

    pub(super) fn call<S: EventSink<Event>>(&mut self, card: Card, sink: &mut S) {
        let caller = self.core.actor;
        self.called = Some(card);
        self.holder = Seat::first_n(self.players()).find(|&s| self.core.hands[s].contains(card));
        if self.core.opts.variant == Variant::Briscola {
            // BC-D7: the called card's suit is trump.
            self.trump = CardSet::suit(card.suit());
        }
        if S::ACTIVE {
            sink.push(Event::Called { seat: caller, card });
        }
        self.start_play();
    }

    fn start_play(&mut self) {
        let leader = match (self.core.opts.variant, self.core.opts.first_lead) {
            (Variant::Briscola, FirstLead::Caller) => self.caller.unwrap_or(self.eldest()),
            _ => self.eldest(),
        };
        self.phase = Phase::Play;
        self.core.tricks.lead_by(leader);
        self.core.actor = leader;
    }

    // Inlined into the rollout: a call per card costs its prologue and epilogue every time.
    #[inline(always)]
    pub(super) fn play_in<S: EventSink<Event>, const TC: bool>(
        &mut self,
        card: Card,
        signal: Option<Signal>,
        sink: &mut S,
    ) {
        let seat = self.core.actor;
        let n = self.players();
        self.core.hands[seat].remove(card);
        if TC {
            self.core.tricks.play(seat, card);
        } else {
            let (led, trump) = (self.core.tricks.current().led_mask(), self.trump);
            self.core
                .tricks
                .play_ranked(seat, card, |c| briscola_strength(c, led, trump));
        }
        if S::ACTIVE {
            sink.push(Event::Played { seat, card, signal });
        }
        if Some(card) == self.called {
            // TC-D6, BC-D8: playing the called card makes the partnership public.
            self.revealed = true;
            if S::ACTIVE {
                sink.push(Event::PartnerKnown {
                    partner: self.partner(),
                });
            }
        }
        if self.core.tricks.current().len() < n as usize {
            self.core.actor = seat.next(n);
            return;
        }
        let (caller, holder) = (self.caller, self.holder);
        let (winner, side, cards) = self
            .core
            .tricks
            .close_logged(|w| caller_side(w, caller, holder), sink);
        self.seat_won[winner] |= cards;
        self.core.actor = winner;
        if self.core.tricks.done() == self.tricks_in_hand {
            self.score(side, sink);
        }
    }

    fn score<S: EventSink<Event>>(&mut self, last: usize, sink: &mut S) {
        let caller = self.caller.unwrap_or(self.core.dealer);
        let tricks = self.core.tricks.side_tricks();
        let all = self.core.opts.hand_size() as u32;
        let (points, cappotto) = match self.core.opts.variant {
            Variant::Tressette => {
                // TC-D9: the last trick adds 3 thirds; TC-D13: cappotto is every trick.
                self.core
                    .tricks
                    .credit(last, LAST_TRICK_THIRDS, CardSet::EMPTY);
                let p = self.core.tricks.side_thirds().map(truncate_points);
                (p, tricks[0] == all || tricks[1] == all)
            }
            Variant::Briscola => {
                // BC-D12: cappotto is every card point. Every card has been won by now, so the
                // defenders hold the rest of the 120.
                let caller_side = briscola_points_of(self.core.tricks.won()[0]);
                let p = [caller_side, 120 - caller_side];
                (p, p[0] == 120 || p[1] == 120)
            }
        };
        let target = self.target().unwrap_or(6);
        let made = points[0] >= target;
        let mut multiplier = if cappotto { 2 } else { 1 };
        if self.core.opts.bid_multiplier {
            multiplier *= target_multiplier(target);
        }
        let (partner, alone) = (self.partner(), self.is_alone());
        let outcome = Outcome {
            players: self.players(),
            caller,
            partner,
            alone,
            bid: self.bid,
            called: self.called,
            trump: self.trump(),
            target,
            points,
            tricks,
            last_trick: last,
            made,
            multiplier,
            award: payout(self.players(), caller, partner, alone, made, multiplier),
        };
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.legal = CardSet::EMPTY;
        if S::ACTIVE {
            sink.push(Event::Scored(Box::new(outcome)));
        }
    }
}
