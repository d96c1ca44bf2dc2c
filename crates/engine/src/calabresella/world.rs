//! Search support for Calabresella: the worlds a seat cannot tell apart
//! ([`Observation::world_sampler`]) and the full-information facts of a hand ([`Searchable`]).
//!
//! The unseen cards are placed where they can be now: each other seat's hand, the monte while
//! it lies untouched, and each discarder's discards (kept apart because what is known of them
//! differs: the scegliete taker's discards may hold the monte cards he took). What the seat
//! knows fixes or limits cards: its own hand and discards, the exposed dummy, the aperta
//! partner's hand, the return card (soloist and holder), the called card (with the soloist
//! from the hand-over on), the scegliete monte and split, and voids. The builder then
//! reconstructs a deal that leads to the placement through the observed history (drawing the
//! hidden steps, such as which of the soloist's cards were the monte, at random) and replays
//! it; the replay check refuses anything the layout missed. A placement thus counts in
//! proportion to the hidden histories that fit it. In a due the dummy's hand exposed after the
//! auction is its dealt hand: what has since left its visible hand unplayed was discarded, and
//! the rest of what it holds came from the monte.

use crate::action::{Action, Contract};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::GameHand;
use crate::game::{HandRules, Phase, Viewer};
use crate::rng::GameRng;
use crate::search::world::{Build, PlayEvidence, all_but, hands_of};
use crate::search::{Layout, Searchable, WorldError, WorldSampler};
use crate::seat::{PerSeat, Seat};

use super::deal::Deal;
use super::event::Event;
use super::hand::{Hand, TRICKS};
use super::observation::Observation;
use super::score::HandOutcome;

impl Searchable for Hand {
    fn side(&self, seat: Seat) -> u8 {
        match (self.soloist(), self.defenders()) {
            (Some(s), _) if s == seat => 0,
            (Some(_), Some(d)) if d.contains(&seat) => 1,
            _ => 2,
        }
    }
    fn value(&self, seat: Seat) -> i32 {
        let Some(HandOutcome::Scored(s)) = self.outcome() else {
            return 0;
        };
        let solo = s.award[s.soloist] as i32;
        let def = s
            .defenders
            .iter()
            .map(|&d| s.award[d] as i32)
            .max()
            .unwrap_or(0);
        match self.side(seat) {
            0 => solo - def,
            1 => def - solo,
            _ => 0,
        }
    }
    fn points_margin(&self, seat: Seat) -> f64 {
        let Some(HandOutcome::Scored(s)) = self.outcome() else {
            return 0.0;
        };
        let side = match self.side(seat) {
            0 => 0,
            1 => 1,
            _ => return 0.0,
        };
        let total = f64::from(s.points[0] + s.points[1]).max(1.0);
        (f64::from(s.points[side]) - f64::from(s.points[1 - side])) / total
    }
    fn in_play(&self) -> bool {
        self.phase() == Phase::Play
    }
    fn tricks_left(&self) -> u32 {
        u32::from(TRICKS).saturating_sub(u32::from(self.tricks_done()))
    }
}

/// What the events tell one seat, gathered in one pass.
#[derive(Debug, Clone, Default)]
struct Story {
    contract: Option<(Seat, Contract)>,
    /// A due: the dummy and the cards it was dealt, exposed after the auction.
    exposed: Option<(Seat, CardSet)>,
    called: Option<Card>,
    holder: Option<Seat>,
    called_in_monte: bool,
    returned: Option<Option<Card>>,
    monte_known: Option<[Card; 4]>,
    monte_received: Vec<(Seat, Option<CardSet>)>,
    split: Option<[(Seat, CardSet); 2]>,
    discards: [Vec<Option<Card>>; Seat::MAX],
    /// The cards played, and the voids they show.
    play: PlayEvidence,
    /// The hand's actions, hidden ones as `None` (a discard or the return card).
    actions: Vec<Option<Action>>,
}

fn story(obs: &Observation) -> Story {
    let mut st = Story::default();
    for e in &obs.events {
        match e {
            Event::Bid { contract, .. } => {
                st.actions
                    .push(Some(contract.map_or(Action::Pass, Action::Bid)));
            }
            Event::AuctionWon { soloist, contract } => st.contract = Some((*soloist, *contract)),
            Event::DummyExposed { seat, cards } => st.exposed = Some((*seat, *cards)),
            Event::Called { card } => {
                st.called = Some(*card);
                st.actions.push(Some(Action::Call(*card)));
            }
            Event::HandedOver { from } => st.holder = Some(*from),
            Event::CalledInMonte => st.called_in_monte = true,
            Event::Returned { card, .. } => {
                st.returned = Some(*card);
                st.actions.push(card.map(Action::Return));
            }
            Event::MonteTaken { cards: Some(c), .. } => st.monte_known = Some(*c),
            Event::MonteReceived { seat, cards } => st.monte_received.push((*seat, *cards)),
            Event::MonteShown { cards } => st.monte_known = Some(*cards),
            Event::MonteSplit { first, second } => {
                st.split = Some([*first, *second]);
                st.actions.push(Some(Action::Take(first.1)));
            }
            Event::Discarded { seat, card } => {
                st.discards[seat.index()].push(*card);
                st.actions.push(card.map(Action::Discard));
            }
            Event::Played { seat, card, signal } => {
                st.play.play(*seat, *card, true);
                st.actions.push(Some(Action::Play(*card, *signal)));
            }
            Event::TrickWon { .. } => st.play.trick_won(),
            _ => {}
        }
    }
    st
}

/// `k` cards drawn uniformly from `pool`.
fn choose(pool: CardSet, k: usize, rng: &mut GameRng) -> Option<CardSet> {
    let mut v: Vec<Card> = pool.iter().collect();
    if v.len() < k {
        return None;
    }
    rng.shuffle(&mut v);
    Some(v.into_iter().take(k).collect())
}

impl Observation {
    /// A sampler of the worlds this seat's view allows, uniformly among the consistent
    /// placements of the cards it has not seen.
    pub fn world_sampler(&self) -> Result<WorldSampler<Hand>, WorldError> {
        let v = WorldError::sampling_seat(self.viewer, self.outcome.is_some())?;
        let opts = self.options;
        let st = story(self);
        let n = opts.players;
        let idle = self.idle;
        let active: Vec<Seat> = Seat::first_n(n).filter(|&s| Some(s) != idle).collect();
        let played_all = Seat::first_n(n).fold(CardSet::EMPTY, |a, s| a | st.play.played[s]);
        let soloist = st.contract.map(|(s, _)| s);
        let contract = st.contract.map(|(_, c)| c);

        // Cards whose place the seat knows, by seat hand (beyond its own).
        let mut known_in = PerSeat::splat(CardSet::EMPTY);
        for &(s, cards) in &self.visible_hands {
            known_in[s] = cards;
        }
        if let (Some(s), Some(h), Some(Some(r))) = (soloist, st.holder, st.returned)
            && v == s
            && !played_all.contains(r)
        {
            known_in[h].insert(r);
        }
        // Discards whose cards the seat knows: those it saw (its own, and the dummy's when it
        // plays the dummy), and the exposed dummy's cards that have left its visible hand
        // without being played or handed over (the soloist's view).
        let mut known_disc = PerSeat::from_fn(n, |s| own_discards_of(&st, s));
        if let Some((d, exposed)) = st.exposed
            && !st.discards[d.index()].is_empty()
        {
            let mut went = exposed;
            if let Some(split) = st.split {
                for (taker, set) in split {
                    if taker == d {
                        went |= set;
                    }
                }
            }
            for &(s, cards) in &st.monte_received {
                if s == d {
                    went |= cards.unwrap_or(CardSet::EMPTY);
                }
            }
            known_disc[d] |= went - known_in[d] - st.play.played[d];
        }
        // The monte while it lies face up and untaken (scegliete before the split).
        let shown_aside = match (contract, st.split, st.monte_known) {
            (Some(Contract::Scegliete), None, Some(m)) => m.into_iter().collect(),
            _ => CardSet::EMPTY,
        };
        let mut seen = self.hand | played_all | shown_aside;
        for &s in &active {
            seen |= known_in[s] | known_disc[s];
        }
        let unseen = CardSet::ALL - seen;

        // The places: other seats' hands, the untouched monte, then each other discarder's
        // discards.
        let hand_seats: Vec<Seat> = active.iter().copied().filter(|&s| s != v).collect();
        let mut sizes: Vec<u8> = hand_seats
            .iter()
            .map(|&s| self.hand_sizes[s].saturating_sub(known_in[s].len() as u8))
            .collect();
        let monte_untouched = match contract {
            None | Some(Contract::Solissimo) => 4,
            Some(Contract::Chiamo) if st.called.is_none() || st.returned.is_none() => {
                if st.called_in_monte { 0 } else { 4 }
            }
            Some(Contract::Dividete) => 4 - 2 * st.monte_received.len() as u8,
            _ => 0,
        };
        let monte_place = (monte_untouched > 0).then(|| {
            sizes.push(monte_untouched);
            sizes.len() - 1
        });
        let hidden_discards = |s: Seat| {
            st.discards[s.index()]
                .len()
                .saturating_sub(known_disc[s].len()) as u8
        };
        let discarders: Vec<Seat> = active
            .iter()
            .copied()
            .filter(|&s| s != v && hidden_discards(s) > 0)
            .collect();
        let first_discard = hand_seats.len() + usize::from(monte_place.is_some());
        let disc_place: [Option<usize>; Seat::MAX] = std::array::from_fn(|i| {
            discarders
                .iter()
                .position(|&d| d == Seat::ALL[i])
                .map(|k| first_discard + k)
        });
        let discard_place = move |s: Seat| disc_place[s.index()];
        for &s in &discarders {
            sizes.push(hidden_discards(s));
        }
        let places = sizes.len();
        let hand_place = |s: Seat| hand_seats.iter().position(|&h| h == s);
        // Where a card the seat has seen move to `s` may be now: s's hand or s's discards.
        let with = |s: Seat| -> u8 {
            let mut m = 0u8;
            if let Some(i) = hand_place(s) {
                m |= 1 << i;
            }
            if let Some(i) = discard_place(s) {
                m |= 1 << i;
            }
            m
        };
        let allowed = unseen
            .iter()
            .map(|c| {
                let barred = st.play.void_places(&hand_seats, c);
                let mut mask = all_but(places, &barred);
                if let (Some(s), Some(called)) = (soloist, st.called)
                    && called == c
                    && (st.holder.is_some() || st.called_in_monte)
                {
                    mask &= with(s);
                }
                if let Some(split) = st.split {
                    for (taker, set) in split {
                        if set.contains(c) {
                            mask &= with(taker);
                        }
                    }
                }
                (c, mask)
            })
            .collect();
        let layout = Layout { sizes, allowed };

        let obs = self.clone();
        let build: Build<Hand> = Box::new(move |placed, rng| {
            let mut cur = hands_of(placed, &hand_seats, &known_in);
            if Some(v) != idle {
                cur[v] = obs.hand;
            }
            let disc = PerSeat::from_fn(n, |s| {
                known_disc[s] | discard_place(s).map_or(CardSet::EMPTY, |i| placed[i])
            });
            let orig = PerSeat::from_fn(n, |s| cur[s] | st.play.played[s]);
            let untouched = monte_place.map_or(CardSet::EMPTY, |i| placed[i]);
            let mut dealt = orig;
            let mut monte: Vec<Card> = Vec::new();
            let mut hidden: Vec<Action> = Vec::new();
            let random_order = |set: CardSet, rng: &mut GameRng| {
                let mut v: Vec<Card> = set.iter().collect();
                rng.shuffle(&mut v);
                v
            };
            match (soloist, contract) {
                (Some(s), Some(Contract::Chiamo)) if st.called.is_some() => {
                    let c = st.called?;
                    if let Some(h) = st.holder {
                        let r = match st.returned {
                            Some(Some(r)) => Some(r),
                            Some(None) => {
                                choose(orig[h] - CardSet::single(c), 1, rng)?.iter().next()
                            }
                            None => None,
                        };
                        if st.returned == Some(None) {
                            hidden.push(Action::Return(r?));
                        }
                        dealt[h] = orig[h] | CardSet::single(c);
                        if let Some(r) = r {
                            dealt[h].remove(r);
                        }
                        if st.returned.is_some() {
                            // The monte was taken right after the return.
                            let m = match st.monte_known {
                                Some(m) => m.into_iter().collect(),
                                None => choose((orig[s] | disc[s]) - CardSet::single(c), 4, rng)?,
                            };
                            let mut ds = (orig[s] | disc[s] | CardSet::single(r?)) - m;
                            ds.remove(c);
                            dealt[s] = ds;
                            monte = match st.monte_known {
                                Some(m) => m.to_vec(),
                                None => random_order(m, rng),
                            };
                        } else {
                            let mut ds = orig[s];
                            ds.remove(c);
                            dealt[s] = ds;
                            monte = random_order(untouched, rng);
                        }
                    } else {
                        // C-D7: the called card was in the monte, taken at once.
                        let m = match st.monte_known {
                            Some(m) => m.into_iter().collect(),
                            None => {
                                choose((orig[s] | disc[s]) - CardSet::single(c), 3, rng)?
                                    | CardSet::single(c)
                            }
                        };
                        dealt[s] = (orig[s] | disc[s]) - m;
                        monte = match st.monte_known {
                            Some(m) => m.to_vec(),
                            None => random_order(m, rng),
                        };
                    }
                }
                (Some(s), Some(Contract::Solo)) => {
                    let m = match st.monte_known {
                        Some(m) => m.into_iter().collect(),
                        None => choose(orig[s] | disc[s], 4, rng)?,
                    };
                    dealt[s] = (orig[s] | disc[s]) - m;
                    monte = match st.monte_known {
                        Some(m) => m.to_vec(),
                        None => random_order(m, rng),
                    };
                }
                (Some(_), Some(Contract::Dividete)) => {
                    for &(d, cards) in &st.monte_received {
                        let got = match (cards, st.exposed) {
                            (Some(c), _) => c,
                            // The dummy was dealt what was exposed; the rest it received.
                            (None, Some((x, exposed))) if x == d => (orig[d] | disc[d]) - exposed,
                            (None, _) => choose(orig[d] | disc[d], 2, rng)?,
                        };
                        dealt[d] = (orig[d] | disc[d]) - got;
                        monte.extend(random_order(got, rng));
                    }
                    monte.extend(random_order(untouched, rng));
                }
                (Some(_), Some(Contract::Scegliete)) => {
                    monte = st.monte_known?.to_vec();
                    if let Some(split) = st.split {
                        for (d, set) in split {
                            dealt[d] = (orig[d] | disc[d]) - set;
                        }
                    }
                }
                _ => monte = random_order(untouched, rng),
            }
            // The hidden steps: the return card, then each discarder's discards in turn.
            let mut disc_order: [Vec<Card>; Seat::MAX] = std::array::from_fn(|i| {
                let s = Seat::ALL[i];
                let mut d: Vec<Card> = (disc[s] - own_discards_of(&st, s)).iter().collect();
                rng.shuffle(&mut d);
                d
            });
            let deal = Deal {
                hands: PerSeat::from_fn(n, |s| {
                    if Some(s) == idle {
                        CardSet::EMPTY
                    } else {
                        dealt[s]
                    }
                }),
                monte: <[Card; 4]>::try_from(monte).ok()?,
            };
            let mut hand = Hand::new(opts, obs.dealer, deal).ok()?;
            let mut hidden = hidden.into_iter();
            for a in &st.actions {
                let a = match a {
                    Some(a) => *a,
                    None => match hand.phase() {
                        Phase::Return => hidden.next()?,
                        _ => {
                            let who = hand.actor()?;
                            Action::Discard(disc_order[who.index()].pop()?)
                        }
                    },
                };
                hand.try_apply(a).ok()?;
            }
            (hand.observation(Viewer::Seat(v)).events == obs.events).then_some(hand)
        });
        WorldSampler::new(&layout, build)
    }
}

/// The discards of `s` whose cards the events show (the seat's own, or the dummy's to the
/// person playing it).
fn own_discards_of(st: &Story, s: Seat) -> CardSet {
    st.discards[s.index()].iter().flatten().copied().collect()
}

crate::search::pimc::determinize! {
    solve_tricks: |_hand| 5,
}
