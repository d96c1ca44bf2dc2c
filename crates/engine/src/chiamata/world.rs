//! Search support for the calling games: the worlds a seat cannot tell apart
//! ([`Observation::world_sampler`]) and the full-information facts of a hand ([`Searchable`]).
//!
//! What a seat knows: its own cards, the auction and the call, every card played and by whom,
//! and, in Tressette con la Chiamata, voids (a seat that did not follow the led suit holds none
//! of it). The called card is in another seat's hand until it is played, and not in the
//! caller's where he may not call his own card. A sampled world fixes the partner, which is
//! exactly what the seat does not know.

use crate::action::Action;
use crate::cardset::CardSet;
use crate::game::GameHand;
use crate::game::{HandRules, Phase, Viewer};
use crate::search::world::{Build, PlayEvidence, all_but, hands_of, replayed};
use crate::search::{Layout, Searchable, WorldError, WorldSampler};
use crate::seat::{PerSeat, Seat};

use super::deal::Deal;
use super::event::Event;
use super::hand::Hand;
use super::observation::Observation;
use super::options::Variant;

impl Searchable for Hand {
    fn side(&self, seat: Seat) -> u8 {
        match self.caller() {
            Some(c) if c == seat || self.partner() == Some(seat) => 0,
            Some(_) => 1,
            None => 2,
        }
    }
    fn value(&self, seat: Seat) -> i32 {
        self.outcome().map_or(0, |o| o.award[seat])
    }
    fn value_scale(&self, seat: Seat) -> i32 {
        // The payout of a made hand at multiplier 1: the caller is paid twice what his partner
        // is (four times a defender's when alone); a failed or doubled hand scales them alike.
        match self.caller() {
            Some(c) => {
                super::score::payout(self.players(), c, self.partner(), self.is_alone(), true, 1)
                    [seat]
            }
            None => 0,
        }
    }
    fn points_margin(&self, seat: Seat) -> f64 {
        let side = match self.side(seat) {
            0 => 0,
            1 => 1,
            _ => return 0.0,
        };
        self.outcome().map_or(0.0, |o| {
            let total = f64::from(o.points[0] + o.points[1]).max(1.0);
            (f64::from(o.points[side]) - f64::from(o.points[1 - side])) / total
        })
    }
    fn in_play(&self) -> bool {
        self.phase() == Phase::Play
    }
    fn tricks_left(&self) -> u32 {
        (40 / u32::from(self.players()).max(1)).saturating_sub(u32::from(self.tricks_done()))
    }
}

impl Observation {
    /// A sampler of the worlds this seat's view allows, uniformly among the consistent ones.
    pub fn world_sampler(&self) -> Result<WorldSampler<Hand>, WorldError> {
        let v = WorldError::sampling_seat(self.viewer, self.outcome.is_some())?;
        let opts = self.options;
        let n = opts.players;
        let mut evidence = PlayEvidence::default();
        let mut actions: Vec<Action> = Vec::new();
        let mut caller = None;
        let mut called = None;
        for e in &self.events {
            match e {
                Event::Spoke { action, .. } => actions.push(*action),
                Event::Called { seat, card } => {
                    actions.push(Action::Call(*card));
                    caller = Some(*seat);
                    called = Some(*card);
                }
                Event::Played { seat, card, signal } => {
                    // TC-D7: follow suit binds; BC-D9: it does not.
                    evidence.play(*seat, *card, opts.variant == Variant::Tressette);
                    actions.push(Action::Play(*card, *signal));
                }
                Event::TrickWon { .. } => evidence.trick_won(),
                _ => {}
            }
        }
        let played = evidence.played;
        let others: Vec<Seat> = Seat::first_n(n).filter(|&s| s != v).collect();
        let all_played = others.iter().fold(played[v], |a, &s| a | played[s]);
        let unseen = CardSet::ALL - self.hand - all_played;
        let sizes: Vec<u8> = others.iter().map(|&s| self.hand_sizes[s]).collect();
        let places = sizes.len();
        let allowed = unseen
            .iter()
            .map(|c| {
                let mut barred = evidence.void_places(&others, c);
                if Some(c) == called
                    && !opts.own_card_allowed()
                    && let Some(i) = others.iter().position(|&s| Some(s) == caller)
                {
                    barred.push(i);
                }
                (c, all_but(places, &barred))
            })
            .collect();
        let layout = Layout { sizes, allowed };
        let obs = self.clone();
        let build: Build<Hand> = Box::new(move |placed, _rng| {
            let mut hands = hands_of(placed, &others, &PerSeat::splat(CardSet::EMPTY));
            hands[v] = obs.hand;
            let dealt = PerSeat::from_fn(n, |s| hands[s] | played[s]);
            let world = Hand::new(opts, obs.dealer, Deal { hands: dealt }).ok()?;
            let hand = replayed(world, &actions)?;
            (hand.observation(Viewer::Seat(v)).events == obs.events).then_some(hand)
        });
        WorldSampler::new(&layout, build)
    }
}

crate::search::pimc::determinize! {
    solve_tricks: |hand| if hand.players() == 4 { 4 } else { 3 },
}
