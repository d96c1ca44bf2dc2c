//! [`RandomBot`]: uniform over the legal actions, seeded.

use crate::action::Action;
use crate::rng::GameRng;

use super::{Bot, View};
use crate::game::{Game, GameHand, Rules};

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
    /// The per-action public API: [`Rollout::num_legal_actions`](crate::game::Rollout::num_legal_actions), [`Rollout::legal_action`](crate::game::Rollout::legal_action)
    /// and [`Rollout::apply_unchecked`](crate::game::Rollout::apply_unchecked), as a bot or search loop outside the engine would.
    Api,
    /// The engine's rollout, [`Rollout::playout_random`](crate::game::Rollout::playout_random): the same draws and the same result.
    Playout,
}

/// Plays `n` full hands of the game of `rules` with uniformly random legal actions, dealing
/// each from one generator seeded with `seed`; the dealer rotates every hand. Both drivers give
/// the same hands and counts.
pub fn random_hands(rules: Rules, seed: u64, n: u64, driver: Driver) -> RandomRun {
    random_hands_of(rules, seed, n, driver)
}

macro_rules! random_hands_dispatch {
    ($($V:ident => $m:ident),* $(,)?) => {
        fn random_hands_of(rules: Rules, seed: u64, n: u64, driver: Driver) -> RandomRun {
            match rules {
                $(Rules::$V(o) => run_game::<crate::$m::Match>(o, seed, n, driver),)*
            }
        }
    };
}
crate::for_each_game!(random_hands_dispatch);

/// [`random_hands`] for one game: each hand is dealt by the next seat, and the checksum is the
/// sum of every seat's points of the hand.
fn run_game<G: Game>(opts: G::Options, seed: u64, n: u64, driver: Driver) -> RandomRun {
    let seats = u64::from(G::seats(&opts));
    run_hands(
        seed,
        n,
        driver,
        |rng, i| {
            let dealer = crate::seat::Seat::ALL[(i % seats) as usize];
            G::seeded_hand(&opts, dealer, rng)
        },
        |hand| hand.award_sum(),
    )
}

/// The loop every game's random run shares: deal, play out with the chosen driver, count.
fn run_hands<H: GameHand>(
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
