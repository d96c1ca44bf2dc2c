//! [`RandomBot`]: uniform over the legal actions, seeded.

use crate::action::Action;
use crate::rng::GameRng;

use super::{Bot, View};
use crate::playable::Rollout;

/// Picks uniformly among the legal actions with its own seeded generator.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    /// A random bot seeded with `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: GameRng::from_seed(seed),
        }
    }
}

impl<O: View> Bot<O> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn act(&mut self, obs: &O) -> Action {
        let legal = obs.legal_actions();
        legal[self.rng.below(legal.len() as u32) as usize % legal.len().max(1)]
    }
}

/// Counts from [`random_hands`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RandomRun {
    /// Hands played (void deals included).
    pub hands: u64,
    /// Actions applied.
    pub actions: u64,
    /// Sum of all awards, a checksum that makes the work observable.
    pub award_sum: u64,
}

/// How [`random_hands`] drives each hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    /// The per-action public API: [`Hand::num_legal_actions`], [`Hand::legal_action`] and
    /// [`Hand::apply_unchecked`], as a bot or search loop outside the engine would.
    ///
    /// [`Hand::num_legal_actions`]: crate::calabresella::Hand::num_legal_actions
    /// [`Hand::legal_action`]: crate::calabresella::Hand::legal_action
    /// [`Hand::apply_unchecked`]: crate::calabresella::Hand::apply_unchecked
    Api,
    /// The engine's rollout, [`Hand::playout_random`]: the same draws and the same result.
    ///
    /// [`Hand::playout_random`]: crate::calabresella::Hand::playout_random
    Playout,
}

/// Plays `n` full Calabresella hands (auction to scoring) with uniformly random legal actions,
/// dealing each from one generator seeded with `seed`; the dealer rotates every hand. Both
/// drivers give the same hands and counts.
pub fn random_hands(
    opts: crate::calabresella::Options,
    seed: u64,
    n: u64,
    driver: Driver,
) -> RandomRun {
    use crate::calabresella::{Deal, Hand};
    run_hands(
        seed,
        n,
        driver,
        |rng, i| {
            let dealer = crate::seat::Seat::ALL[(i % u64::from(opts.players)) as usize];
            Hand::new_unchecked(opts, dealer, Deal::shuffled(rng, opts.players, dealer))
        },
        |hand| {
            hand.outcome()
                .map_or(0, |o| o.award().0.iter().map(|&x| u64::from(x)).sum())
        },
    )
}

/// [`random_hands`] for Tressette and Tressette in Due.
pub fn random_tressette_hands(
    opts: crate::tressette::Options,
    seed: u64,
    n: u64,
    driver: Driver,
) -> RandomRun {
    use crate::tressette::{Deal, Hand};
    run_hands(
        seed,
        n,
        driver,
        |rng, i| {
            let dealer = crate::seat::Seat::ALL[(i % u64::from(opts.variant.players())) as usize];
            Hand::new_unchecked(opts, dealer, Deal::shuffled(rng, opts.variant, dealer))
        },
        |hand| {
            hand.outcome()
                .map_or(0, |o| u64::from(o.points[0] + o.points[1]))
        },
    )
}

/// The loop every game's random run shares: deal, play out with the chosen driver, count.
fn run_hands<H: Rollout>(
    seed: u64,
    n: u64,
    driver: Driver,
    mut deal: impl FnMut(&mut GameRng, u64) -> H,
    award: impl Fn(&H) -> u64,
) -> RandomRun {
    let mut rng = GameRng::from_seed(seed);
    let mut run = RandomRun::default();
    for i in 0..n {
        let mut hand = deal(&mut rng, i);
        run.actions += match driver {
            Driver::Playout => hand.playout_random(&mut rng) as u64,
            Driver::Api => {
                let mut taken = 0;
                while !hand.is_over() {
                    if let Some(a) =
                        hand.legal_action(rng.below(hand.num_legal_actions() as u32) as usize)
                    {
                        hand.apply_unchecked(a);
                    }
                    taken += 1;
                }
                taken
            }
        };
        run.award_sum += award(&hand);
        run.hands += 1;
    }
    run
}
