//! Search support for Tressette and Tressette in Due: the worlds a seat cannot tell apart
//! ([`Observation::world_sampler`]) and the full-information facts of a hand ([`Searchable`]).
//!
//! What a seat knows: its own cards; every card played and by whom; the cards drawn in Due
//! (shown to both); the cards accusi show; and voids: a seat that did not follow the led suit
//! when it had to holds none of that suit among the cards it was dealt (cards it drew later
//! are public anyway). Accusi *not* declared are left to the replay check.

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::GameHand;
use crate::game::Rollout;
use crate::game::{HandRules, Viewer};
use crate::search::world::{Build, PlayEvidence, all_but, hands_of, replayed};
use crate::search::{Layout, Searchable, WorldError, WorldSampler};
use crate::seat::{PerSeat, Seat};

use super::deal::Deal;
use super::event::Event;
use super::hand::{Hand, side_of};
use super::observation::Observation;
use super::options::Variant;

impl Searchable for Hand {
    fn side(&self, seat: Seat) -> u8 {
        side_of(seat) as u8
    }
    fn value(&self, seat: Seat) -> i32 {
        let s = side_of(seat);
        self.outcome()
            .map_or(0, |o| o.points[s] as i32 - o.points[1 - s] as i32)
    }
    fn in_play(&self) -> bool {
        !self.is_over()
    }
    fn tricks_left(&self) -> u32 {
        let total = 40 / u32::from(self.players()).max(1);
        let total = if self.options().variant == Variant::Due {
            20
        } else {
            total
        };
        total.saturating_sub(u32::from(self.tricks_done()))
    }
}

impl Observation {
    /// A sampler of the worlds this seat's view allows, uniformly among the consistent ones.
    pub fn world_sampler(&self) -> Result<WorldSampler<Hand>, WorldError> {
        let v = WorldError::sampling_seat(self.viewer, self.outcome.is_some())?;
        let opts = self.options;
        let n = opts.variant.players();
        let mut evidence = PlayEvidence::default();
        let mut drawn = PerSeat::splat(CardSet::EMPTY);
        let mut declared = PerSeat::splat(CardSet::EMPTY);
        let mut draw_order: Vec<Card> = Vec::new();
        let mut actions: Vec<Action> = Vec::new();
        for e in &self.events {
            match e {
                Event::Played { seat, card, signal } => {
                    // Follow suit binds in Tressette, and in Due once the stock is out (or
                    // always, by option).
                    let binds = opts.variant != Variant::Due
                        || opts.follow_suit_always
                        || draw_order.len() == 20;
                    evidence.play(*seat, *card, binds);
                    actions.push(Action::Play(*card, *signal));
                }
                Event::TrickWon { .. } => evidence.trick_won(),
                Event::Drew { seat, card } => {
                    drawn[*seat].insert(*card);
                    draw_order.push(*card);
                }
                Event::Declared { seat, accuso } => {
                    declared[*seat] |= accuso.cards();
                }
                Event::Dealt { .. } | Event::Scored(_) => {}
            }
        }
        let played = evidence.played;
        let others: Vec<Seat> = Seat::first_n(n).filter(|&s| s != v).collect();
        let all_played = others.iter().fold(played[v], |a, &s| a | played[s]);
        // Cards whose holder the seat knows: drawn or declared and not played since.
        let known = PerSeat::from_fn(n, |s| (drawn[s] | declared[s]) - played[s]);
        let mut unseen = CardSet::ALL - self.hand - all_played;
        for &s in &others {
            unseen = unseen - known[s];
        }
        let stock_place = (opts.variant == Variant::Due).then_some(others.len());
        let mut sizes: Vec<u8> = others
            .iter()
            .map(|&s| self.hand_sizes[s].saturating_sub(known[s].len() as u8))
            .collect();
        if stock_place.is_some() {
            sizes.push(self.stock_left);
        }
        let places = sizes.len();
        let allowed = unseen
            .iter()
            .map(|c| {
                let barred = evidence.void_places(&others, c);
                (c, all_but(places, &barred))
            })
            .collect();
        let layout = Layout { sizes, allowed };
        let obs = self.clone();
        let build: Build<Hand> = Box::new(move |placed, rng| {
            let mut hands = hands_of(placed, &others, &known);
            hands[v] = obs.hand;
            let dealt = PerSeat::from_fn(n, |s| (hands[s] | played[s]) - drawn[s]);
            let stock = match stock_place {
                Some(i) => {
                    let mut rest: Vec<Card> = placed[i].iter().collect();
                    rng.shuffle(&mut rest);
                    let all: Vec<Card> = draw_order.iter().copied().chain(rest).collect();
                    Some(<[Card; 20]>::try_from(all).ok()?)
                }
                None => None,
            };
            let hand = Hand::new(
                opts,
                obs.dealer,
                Deal {
                    hands: dealt,
                    stock,
                },
            )
            .ok()?;
            let hand = replayed(hand, &actions)?;
            (hand.observation(Viewer::Seat(v)).events == obs.events).then_some(hand)
        });
        WorldSampler::new(&layout, build)
    }
}

crate::search::pimc::determinize! {
    solve_tricks: |hand| if hand.options().variant == Variant::Due { 6 } else { 4 },
}
