//! [`RandomBot`]: uniform over the legal actions, seeded.

use crate::action::Action;
use crate::calabresella::Observation;
use crate::rng::GameRng;

use super::Bot;

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

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn act(&mut self, obs: &Observation) -> Action {
        let n = obs.legal_actions.len() as u32;
        obs.legal_actions[self.rng.below(n) as usize % obs.legal_actions.len().max(1)]
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

/// Plays `n` full hands (auction to scoring) with uniformly random legal actions, dealing each
/// from one generator seeded with `seed`; the dealer rotates every hand. Both drivers give the
/// same hands and counts.
pub fn random_hands(
    opts: crate::calabresella::Options,
    seed: u64,
    n: u64,
    driver: Driver,
) -> RandomRun {
    use crate::calabresella::{Deal, Hand};
    use crate::seat::Seat;
    let mut rng = GameRng::from_seed(seed);
    let mut run = RandomRun::default();
    for i in 0..n {
        let dealer = Seat::ALL[(i % u64::from(opts.players)) as usize];
        let deal = Deal::shuffled(&mut rng, opts.players, dealer);
        let mut hand = Hand::new_unchecked(opts, dealer, deal);
        match driver {
            Driver::Api => {
                while !hand.is_over() {
                    let n_legal = hand.num_legal_actions() as u32;
                    if let Some(a) = hand.legal_action(rng.below(n_legal) as usize) {
                        hand.apply_unchecked(a);
                    }
                    run.actions += 1;
                }
            }
            Driver::Playout => run.actions += hand.playout_random(&mut rng) as u64,
        }
        if let Some(o) = hand.outcome() {
            run.award_sum += o.award().0.iter().map(|&x| u64::from(x)).sum::<u64>();
        }
        run.hands += 1;
    }
    run
}
