//! [`WorldSampler`]: the worlds one seat cannot tell apart from the real one, drawn uniformly.
//!
//! Each game builds a sampler from an observation (its module's `world.rs`): a [`Layout`] of
//! the cards the seat has not seen and the places they may be in now (each other seat's hand,
//! the monte or its discards, the stock), with what the seat knows of each card (voids shown,
//! the called card, cards it saw); and a builder that turns one placement into a full hand by
//! replaying the observed history on a deal that leads to it. The builder checks the replayed
//! hand's view against the observation and refuses a world that differs, so a sampled world
//! is always consistent; constraints the layout leaves out (an accuso not declared, a card the
//! caller could not call) are enforced by that check: rejection from a uniform draw over a
//! superset keeps the draw uniform among the consistent ones (where a builder draws hidden
//! steps at random, over consistent deals with their hidden steps).

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{HandRules, Viewer};
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

use super::assign::{Assigner, Layout, LayoutError};

/// How many placements a sampler tries before it gives up on a position.
pub const MAX_TRIES: u32 = 2_000;

/// Why no world could be drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// A spectator's view: worlds are sampled for a seat.
    #[error("worlds are sampled from a seat's observation, not a spectator's")]
    Spectator,
    /// The hand is over: nothing is hidden any more.
    #[error("the hand is over")]
    HandOver,
    /// The observation does not fit any placement (it was not made by the engine).
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// Every placement tried was refused by the replay check.
    #[error("no consistent world found in {MAX_TRIES} tries")]
    Rejected,
}

impl WorldError {
    /// The seat whose worlds an observation by `viewer` samples: refused for a spectator, and
    /// once the hand is `over`.
    pub fn sampling_seat(viewer: Viewer, over: bool) -> Result<Seat, WorldError> {
        let seat = viewer.seat().ok_or(WorldError::Spectator)?;
        if over {
            return Err(WorldError::HandOver);
        }
        Ok(seat)
    }
}

/// Builds a hand from one placement of the unseen cards, or refuses it.
pub(crate) type Build<H> = Box<dyn Fn(&[CardSet], &mut GameRng) -> Option<H> + Send + Sync>;

/// The worlds consistent with one observation; cheap to sample once built.
pub struct WorldSampler<H> {
    assigner: Assigner,
    build: Build<H>,
}

impl<H> std::fmt::Debug for WorldSampler<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldSampler")
            .field("deals", &self.assigner.count_deals())
            .finish_non_exhaustive()
    }
}

impl<H> WorldSampler<H> {
    /// A sampler over `layout`, whose placements `build` turns into hands.
    pub(crate) fn new(layout: &Layout, build: Build<H>) -> Result<WorldSampler<H>, WorldError> {
        Ok(WorldSampler {
            assigner: Assigner::new(layout)?,
            build,
        })
    }

    /// How many placements of the unseen cards the layout allows (before the replay check).
    pub fn placements(&self) -> f64 {
        self.assigner.count_deals()
    }

    /// One world, uniformly among the consistent ones.
    pub fn sample(&self, rng: &mut GameRng) -> Result<H, WorldError> {
        for _ in 0..MAX_TRIES {
            let places = self.assigner.sample(rng);
            if let Some(h) = (self.build)(&places, rng) {
                return Ok(h);
            }
        }
        Err(WorldError::Rejected)
    }
}

/// The places mask of every place but those in `except`.
pub(crate) fn all_but(places: usize, except: &[usize]) -> u8 {
    let mut m = ((1u16 << places) - 1) as u8;
    for &e in except {
        m &= !(1 << e);
    }
    m
}

/// A match whose only hand is `hand` as it stands: dealt the same cards, with the same
/// actions taken (a world as a match, for surfaces that hold matches).
fn world_match<G: crate::game::Game>(opts: G::Options, hand: &G::Hand) -> Option<G> {
    use crate::game::GameHand;
    let dealt = hand.dealt();
    let rest = if dealt.monte.is_empty() {
        dealt.stock
    } else {
        dealt.monte
    };
    let deal = G::deal_from_cards(&opts, dealt.hands, &rest).ok()?;
    let mut m = G::new(opts, hand.dealer()).ok()?;
    m.start_hand(hand.dealer(), deal).ok()?;
    for a in hand.action_list() {
        let seat = m.decider()?;
        m.try_apply_as(seat, a).ok()?;
    }
    Some(m)
}

macro_rules! any_world {
    ($($V:ident => $m:ident),* $(,)?) => {
        impl crate::game::AnyObservation {
            /// `count` worlds this seat cannot tell apart from the real one, drawn uniformly
            /// with a generator seeded by `seed`: each a match whose only hand is the sampled
            /// world at this point of play (earlier hands and totals are not part of it).
            pub fn sample_worlds(
                &self,
                count: usize,
                seed: u64,
            ) -> Result<Vec<crate::game::AnyMatch>, WorldError> {
                let mut rng = GameRng::from_seed(seed);
                match self {
                    $(crate::game::AnyObservation::$V(o) => {
                        let sampler = o.world_sampler()?;
                        (0..count)
                            .map(|_| {
                                let h = sampler.sample(&mut rng)?;
                                world_match::<crate::$m::Match>(o.options, &h)
                                    .map(crate::game::AnyMatch::from)
                                    .ok_or(WorldError::Rejected)
                            })
                            .collect()
                    })*
                }
            }
        }
    };
}
crate::for_each_game!(any_world);

/// `hand`, a world's deal, with the seat's history `actions` replayed on it: `None` when one of
/// them is illegal there (the world cannot have happened).
pub(crate) fn replayed<H: HandRules>(mut hand: H, actions: &[Action]) -> Option<H> {
    for &action in actions {
        hand.try_apply(action).ok()?;
    }
    Some(hand)
}

/// What a seat learns from the cards played to tricks: who played which card, and the suits a
/// seat showed void in by not following where following binds.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlayEvidence {
    /// The cards each seat played.
    pub(crate) played: PerSeat<CardSet>,
    /// The suits each seat is known to have been dealt none of.
    pub(crate) voids: PerSeat<CardSet>,
    /// The first card of the trick in progress.
    led: Option<Card>,
}

impl PlayEvidence {
    /// `seat` played `card`; `binds` says whether following suit was compulsory then.
    pub(crate) fn play(&mut self, seat: Seat, card: Card, binds: bool) {
        match self.led {
            Some(l) if binds && l.suit() != card.suit() => {
                self.voids[seat] |= CardSet::suit(l.suit());
            }
            None => self.led = Some(card),
            _ => {}
        }
        self.played[seat].insert(card);
    }

    /// The trick in progress was completed.
    pub(crate) fn trick_won(&mut self) {
        self.led = None;
    }

    /// The places (indices into `seats`) that cannot hold `card`: the seats void in its suit.
    pub(crate) fn void_places(&self, seats: &[Seat], card: Card) -> Vec<usize> {
        seats
            .iter()
            .enumerate()
            .filter(|(_, s)| self.voids[**s].contains(card))
            .map(|(i, _)| i)
            .collect()
    }
}

/// The seats' hands in a sampled placement: `seats[i]` holds place `i`'s cards and the cards
/// it is known to hold (`known`); the other seats nothing yet.
pub(crate) fn hands_of(
    placed: &[CardSet],
    seats: &[Seat],
    known: &PerSeat<CardSet>,
) -> PerSeat<CardSet> {
    let mut hands = PerSeat::splat(CardSet::EMPTY);
    for (&seat, &cards) in seats.iter().zip(placed) {
        hands[seat] = cards | known[seat];
    }
    hands
}
