//! How each action changes a Calabresella hand: the auction, the call, the monte taken, split
//! or shared out, the discards, trick play, and the scoring at the end.

use crate::action::{Action, Contract};
use crate::calabresella::event::Event;
use crate::calabresella::options::Options;
use crate::calabresella::score::{HandOutcome, Side, Tally, score};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;
use crate::sink::EventSink;
use crate::trick::{LAST_TRICK_THIRDS, follow_mask};

use super::{Hand, Step, TRICKS};

impl Hand {
    pub(super) fn speak<S: EventSink<Event>>(&mut self, action: Action, sink: &mut S) {
        let seat = self.core.actor;
        let contract = match action {
            Action::Bid(c) => Some(c),
            _ => None,
        };
        if S::ACTIVE {
            sink.push(Event::Bid { seat, contract });
        }
        if let Some(c) = contract {
            self.best = Some((seat, c));
        }
        self.spoken += 1;
        let closes = contract == Some(Contract::Scegliete)
            || (self.core.opts.only_chiamo && contract.is_some());
        if !closes && (self.spoken as usize) < self.speakers.len() {
            self.core.actor = self.speakers[self.spoken as usize];
            return;
        }
        let Some((soloist, contract)) = self.best else {
            if S::ACTIVE {
                sink.push(Event::AllPassed);
            }
            self.step = Step::Over;
            self.outcome = Some(HandOutcome::Void);
            return;
        };
        self.soloist = soloist;
        self.contract = Some(contract);
        let mut defs = self.active.iter().copied().filter(|&s| s != soloist);
        self.defenders = [
            defs.next().unwrap_or(soloist),
            defs.next().unwrap_or(soloist),
        ];
        if S::ACTIVE {
            sink.push(Event::AuctionWon { soloist, contract });
            if self.core.opts.a_due {
                sink.push(Event::DummyExposed {
                    seat: Options::DUMMY,
                    cards: self.core.hands[Options::DUMMY],
                });
            }
        }
        match contract {
            Contract::Chiamo => {
                self.step = Step::Call;
                self.core.actor = soloist;
            }
            Contract::Solo => self.take_monte(sink),
            Contract::Solissimo => self.start_play(),
            Contract::Dividete => {
                let first = self.defenders[0];
                self.receive(
                    first,
                    [self.core.deal.monte[0], self.core.deal.monte[1]],
                    sink,
                );
                self.step = Step::DefenderDiscard { def: 0, left: 2 };
                self.core.actor = first;
            }
            Contract::Scegliete => {
                if S::ACTIVE {
                    sink.push(Event::MonteShown {
                        cards: self.core.deal.monte,
                    });
                }
                self.step = Step::Take;
                self.core.actor = self.defenders[0];
            }
        }
    }

    pub(super) fn call<S: EventSink<Event>>(&mut self, card: Card, sink: &mut S) {
        self.called = Some(card);
        if S::ACTIVE {
            sink.push(Event::Called { card });
        }
        let holder = self
            .defenders
            .into_iter()
            .find(|&d| self.core.hands[d].contains(card));
        match holder {
            Some(h) => {
                self.holder = Some(h);
                self.core.hands[h].remove(card);
                self.core.hands[self.soloist].insert(card);
                if S::ACTIVE {
                    sink.push(Event::HandedOver { from: h });
                }
                self.step = Step::Return;
            }
            None => {
                if S::ACTIVE {
                    sink.push(Event::CalledInMonte);
                }
                self.take_monte(sink);
            }
        }
    }

    pub(super) fn take_monte<S: EventSink<Event>>(&mut self, sink: &mut S) {
        self.core.hands[self.soloist] |= self.setaside;
        self.setaside = CardSet::EMPTY;
        if S::ACTIVE {
            sink.push(Event::MonteTaken {
                seat: self.soloist,
                cards: Some(self.core.deal.monte),
            });
        }
        self.step = Step::SoloistDiscard { left: 4 };
        self.core.actor = self.soloist;
    }

    fn receive<S: EventSink<Event>>(&mut self, seat: Seat, cards: [Card; 2], sink: &mut S) {
        let set: CardSet = cards.into_iter().collect();
        self.core.hands[seat] |= set;
        self.setaside = self.setaside - set;
        if S::ACTIVE {
            sink.push(Event::MonteReceived {
                seat,
                cards: Some(set),
            });
        }
    }

    pub(super) fn split_monte<S: EventSink<Event>>(&mut self, set: CardSet, sink: &mut S) {
        let [first, second] = self.defenders;
        let rest = self.setaside - set;
        self.taken = set;
        self.core.hands[first] |= set;
        self.core.hands[second] |= rest;
        self.setaside = CardSet::EMPTY;
        if S::ACTIVE {
            sink.push(Event::MonteSplit {
                first: (first, set),
                second: (second, rest),
            });
        }
        self.next_scegliete_discard(0);
    }

    /// Scegliete: defender `def` discards as many cards as he got from the monte; a defender
    /// who got none is skipped.
    fn next_scegliete_discard(&mut self, def: u8) {
        let got = if def == 0 {
            self.taken.len()
        } else {
            4 - self.taken.len()
        } as u8;
        if def > 1 {
            self.start_play();
        } else if got == 0 {
            self.next_scegliete_discard(def + 1);
        } else {
            self.step = Step::DefenderDiscard { def, left: got };
            self.core.actor = self.defenders[def as usize];
        }
    }

    pub(super) fn discard<S: EventSink<Event>>(&mut self, card: Card, sink: &mut S) {
        let seat = self.discarder();
        self.core.hands[seat].remove(card);
        self.setaside.insert(card);
        if S::ACTIVE {
            sink.push(Event::Discarded {
                seat,
                card: Some(card),
            });
        }
        match self.step {
            Step::SoloistDiscard { left: 1 } => self.start_play(),
            Step::SoloistDiscard { left } => self.step = Step::SoloistDiscard { left: left - 1 },
            Step::DefenderDiscard { def, left: 1 } => {
                if self.contract == Some(Contract::Dividete) {
                    if def == 0 {
                        let second = self.defenders[1];
                        self.receive(
                            second,
                            [self.core.deal.monte[2], self.core.deal.monte[3]],
                            sink,
                        );
                        self.step = Step::DefenderDiscard { def: 1, left: 2 };
                        self.core.actor = second;
                    } else {
                        self.start_play();
                    }
                } else {
                    self.next_scegliete_discard(def + 1);
                }
            }
            Step::DefenderDiscard { def, left } => {
                self.step = Step::DefenderDiscard {
                    def,
                    left: left - 1,
                }
            }
            _ => {}
        }
    }

    fn start_play(&mut self) {
        self.step = Step::Play;
        self.core.tricks.lead_by(self.active[0]);
        self.core.actor = self.active[0];
    }

    #[inline(always)]
    pub(super) fn play<S: EventSink<Event>>(
        &mut self,
        card: Card,
        signal: Option<crate::action::Signal>,
        sink: &mut S,
    ) {
        let seat = self.core.actor;
        self.core
            .tricks
            .play_from(&mut self.core.hands[seat], seat, (card, signal), sink);
        if self.core.tricks.current().len() < 3 {
            self.core.actor = self.next[seat];
            self.legal = follow_mask(
                self.core.hands[self.core.actor],
                self.core.tricks.current().led_mask(),
            );
        } else {
            self.complete_trick(sink);
        }
    }

    #[inline(never)]
    fn complete_trick<S: EventSink<Event>>(&mut self, sink: &mut S) {
        let soloist = self.soloist;
        let (winner, side, _) = self.core.tricks.close_logged(
            |w| if w == soloist { Side::Soloist } else { Side::Defenders } as usize,
            sink,
        );
        let done = self.core.tricks.done();
        if S::ACTIVE && done == 1 && self.core.opts.aperta {
            let [a, b] = self.defenders;
            sink.push(Event::HandShown {
                seat: a,
                to: b,
                cards: self.core.hands[a],
            });
            sink.push(Event::HandShown {
                seat: b,
                to: a,
                cards: self.core.hands[b],
            });
        }
        if done < TRICKS {
            self.core.actor = winner;
            self.legal = self.core.hands[winner];
            return;
        }
        // C-D12: the last trick's winner takes the set-aside monte and the last-trick bonus.
        let monte = self.setaside;
        self.core
            .tricks
            .credit(side, LAST_TRICK_THIRDS + monte.thirds(), monte);
        self.setaside = CardSet::EMPTY;
        if S::ACTIVE {
            sink.push(Event::MonteRevealed {
                to: winner,
                cards: monte,
            });
        }
        let result = score(
            &self.core.opts,
            Tally {
                soloist: self.soloist,
                defenders: self.defenders,
                contract: self.contract.unwrap_or(Contract::Chiamo),
                called: self.called,
                thirds: self.core.tricks.side_thirds(),
                tricks: self.core.tricks.side_tricks(),
                last_trick: if side == 0 {
                    Side::Soloist
                } else {
                    Side::Defenders
                },
                monte,
            },
        );
        self.step = Step::Over;
        self.outcome = Some(HandOutcome::Scored(result));
        self.legal = CardSet::EMPTY;
        if S::ACTIVE {
            sink.push(Event::Scored(Box::new(HandOutcome::Scored(result))));
        }
    }
}
