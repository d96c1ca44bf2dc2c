//! `VectorEnv`: N games stepped together inside Rust, writing observations, masks, rewards and
//! done flags into numpy arrays allocated once.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use calabresella_engine::game::MAX_LEGAL;
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, Seat};

use crate::args::Seed;
use crate::encode::{self, Encode, Features, INFO_SIZE, MASK_SIZE, OBS_SIZE};
use crate::errors;
use crate::game::Game;
use crate::state::{State, rules_from};

/// One environment's game and the bookkeeping around it.
struct Slot {
    game: Game,
    /// Returns so far, to turn cumulative points into per-step rewards.
    returned: [f64; Seat::MAX],
    /// The legal action ids now (the first `n_legal`): kept in the slot, not behind a pointer,
    /// so stepping many games reads memory in order.
    legal: [u16; MAX_LEGAL],
    /// How many of `legal` are set.
    n_legal: u8,
    /// The seed the game was dealt from (a `State` copy pickles with it).
    seed: u64,
}

/// N self-play games stepped at once. Every step, each game's deciding seat plays the action
/// given for it; the arrays `observations` (float32 `[N, OBSERVATION_SIZE]`, the decider's view;
/// `[N, INFORMATION_STATE_SIZE]` with `information_state=True`),
/// `masks` (int8 `[N, NUM_ACTIONS]`, 1 where legal: the dtype of every environment's mask), `rewards` (float32 `[N, players]`, points won this step per
/// seat), `dones` (bool `[N]`) and `players` (int64 `[N]`, the seat that decides next) are
/// rewritten in place. With `threads` > 1, worker threads step shards of the games with the GIL
/// released; the results are the same for every number of threads. The arrays belong to the
/// environment: read them, or copy them before changing them. A finished game is reset at once with the next seed (auto-reset): its
/// `dones` entry and `rewards` row belong to the finished game, its observation to the new one.
#[pyclass(module = "calabresella._core")]
pub struct VectorEnv {
    rules: calabresella_engine::game::Rules,
    single: bool,
    slots: Vec<Slot>,
    rng: GameRng,
    /// Observation tensors, `[N, OBSERVATION_SIZE]`.
    #[pyo3(get)]
    observations: Py<PyArray2<f32>>,
    /// Legal-action masks, `[N, NUM_ACTIONS]`.
    #[pyo3(get)]
    masks: Py<PyArray2<i8>>,
    /// Rewards of the last step per seat, `[N, players]`.
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    /// Whether the last step ended each game, `[N]`.
    #[pyo3(get)]
    dones: Py<PyArray1<bool>>,
    /// The seat that decides next in each game, `[N]`.
    #[pyo3(get)]
    players: Py<PyArray1<i64>>,
    /// Episodes finished since creation.
    #[pyo3(get)]
    episodes: u64,
    /// Steps taken since creation (one per game per `step`).
    #[pyo3(get)]
    steps: u64,
    /// Worker threads stepping shards of the games (`None`: the calling thread alone).
    pool: Option<rayon::ThreadPool>,
    /// Floats per observation row: the observation tensor, or the information-state tensor.
    width: usize,
}

impl VectorEnv {
    fn fresh(&mut self) -> Result<(Game, u64), crate::game::GameError> {
        let seed = next_seed(&mut self.rng);
        Game::seeded(self.rules, seed, None, self.single).map(|g| (g, seed))
    }

    /// Rewrites every array from the slots (after reset).
    fn write_all(&mut self, py: Python<'_>) -> PyResult<()> {
        let obs = self.observations.bind(py);
        let masks = self.masks.bind(py);
        let players = self.players.bind(py);
        let mut o = obs.try_readwrite()?;
        let mut m = masks.try_readwrite()?;
        let mut p = players.try_readwrite()?;
        let (o, m, p) = (o.as_slice_mut()?, m.as_slice_mut()?, p.as_slice_mut()?);
        // Every row is written afresh: no previous legal list describes it.
        m.fill(0);
        let w = self.width;
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.n_legal = 0;
            write_slot(
                slot,
                &mut o[i * w..(i + 1) * w],
                &mut m[i * MASK_SIZE..(i + 1) * MASK_SIZE],
                &mut p[i],
            );
        }
        Ok(())
    }
}

/// Games a worker thread takes at a time: fewer cost more in hand-offs than they save.
const MIN_PER_TASK: usize = 32;

impl Slot {
    /// The legal action ids now.
    fn legal_ids(&self) -> &[u16] {
        &self.legal[..usize::from(self.n_legal)]
    }
}

/// A 64-bit seed from the environment's generator.
fn next_seed(rng: &mut GameRng) -> u64 {
    (u64::from(rng.next_half()) << 32) | u64::from(rng.next_half())
}

/// Writes one game's row and caches its legal actions (used to check the next step's action
/// and by `sample_actions`).
///
/// The mask row must hold the slot's previous legal actions (or be all zero): only those
/// entries are cleared, not the whole row (431 bytes a game a step).
fn write_slot(slot: &mut Slot, obs: &mut [f32], mask: &mut [i8], player: &mut i64) {
    let decider = slot.game.decider();
    if obs.len() == INFO_SIZE {
        // The information state needs the hand's history as the decider saw it.
        match slot.game.observation(decider) {
            Some(o) => encode::encode_info_engine(&Features::of_game(&slot.game, decider), &o, obs),
            None => obs.fill(0.0),
        }
    } else {
        Features::of_game(&slot.game, decider).encode(obs);
    }
    for &id in slot.legal_ids() {
        mask[usize::from(id)] = 0;
    }
    slot.n_legal = slot.game.legal_ids(&mut slot.legal) as u8;
    for &id in slot.legal_ids() {
        mask[usize::from(id)] = 1;
    }
    *player = decider.map_or(-1, |s| s.index() as i64);
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` games of `game` with rule options as keyword arguments; `episode` is `"hand"`
    /// (one hand per episode, the default) or `"match"`. Game `i` of the first batch is dealt
    /// from a seed drawn from `seed`, and so is every game after an auto-reset.
    #[new]
    #[pyo3(signature = (game = "calabresella", num_envs = 64, seed = Seed(0), episode = "hand", threads = 1, information_state = false, **options), text_signature = "(game='calabresella', num_envs=64, seed=0, episode='hand', threads=1, information_state=False, **options)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        num_envs: usize,
        seed: Seed,
        episode: &str,
        threads: i64,
        information_state: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorEnv> {
        let width = if information_state {
            INFO_SIZE
        } else {
            OBS_SIZE
        };
        let seed = seed.0;
        let threads = match usize::try_from(threads) {
            Ok(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Ok(t) if t <= 1024 => t,
            _ => {
                return Err(errors::notation(format!(
                    "threads must be between 0 (every core) and 1024, not {threads}"
                )));
            }
        };
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("calabresella-vector-{i}"))
                    .build()
                    .map_err(|e| {
                        errors::notation(format!("cannot start {threads} threads: {e}"))
                    })?,
            )
        } else {
            None
        };
        let rules = rules_from(game, options)?;
        let single = crate::game::single_hand(episode).map_err(errors::notation)?;
        if num_envs == 0 || num_envs > 1 << 20 {
            return Err(errors::notation("num_envs must be between 1 and 1048576"));
        }
        let mut env = VectorEnv {
            rules,
            single,
            slots: Vec::with_capacity(num_envs),
            rng: GameRng::from_seed(seed),
            observations: PyArray2::zeros(py, [num_envs, width], false).unbind(),
            masks: PyArray2::zeros(py, [num_envs, MASK_SIZE], false).unbind(),
            rewards: PyArray2::zeros(py, [num_envs, usize::from(rules.seats())], false).unbind(),
            dones: PyArray1::zeros(py, num_envs, false).unbind(),
            players: PyArray1::zeros(py, num_envs, false).unbind(),
            episodes: 0,
            steps: 0,
            pool,
            width,
        };
        for _ in 0..num_envs {
            let (game, seed) = env.fresh().map_err(errors::notation)?;
            env.slots.push(Slot {
                game,
                returned: [0.0; Seat::MAX],
                legal: [0; MAX_LEGAL],
                n_legal: 0,
                seed,
            });
        }
        env.write_all(py)?;
        Ok(env)
    }

    /// How many games step together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// Seats at each table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.rules.seats()
    }

    /// Deals every game afresh (from `seed` when given, else the stream continues) and returns
    /// `(observations, masks, players)`.
    #[pyo3(signature = (seed = None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<Seed>,
    ) -> PyResult<(Py<PyArray2<f32>>, Py<PyArray2<i8>>, Py<PyArray1<i64>>)> {
        if let Some(Seed(s)) = seed {
            self.rng = GameRng::from_seed(s);
        }
        for i in 0..self.slots.len() {
            let (g, seed) = self.fresh().map_err(errors::notation)?;
            self.slots[i].game = g;
            self.slots[i].seed = seed;
            self.slots[i].returned = [0.0; Seat::MAX];
        }
        {
            let r = self.rewards.bind(py);
            r.try_readwrite()?.as_slice_mut()?.fill(0.0);
            let d = self.dones.bind(py);
            d.try_readwrite()?.as_slice_mut()?.fill(false);
        }
        self.write_all(py)?;
        Ok((
            self.observations.clone_ref(py),
            self.masks.clone_ref(py),
            self.players.clone_ref(py),
        ))
    }

    /// Plays `actions[i]` (an action id, int64 `[N]`) in game `i` for its deciding seat. Every
    /// action is checked first: if any is illegal, `IllegalActionError` names the game and no
    /// game changes. Returns `(observations, masks, rewards, dones, players)`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Py<PyArray2<f32>>,
        Py<PyArray2<i8>>,
        Py<PyArray2<f32>>,
        Py<PyArray1<bool>>,
        Py<PyArray1<i64>>,
    )> {
        let n = self.slots.len();
        let actions = crate::args::action_ids(actions, n)?;
        if actions.len() != n {
            return Err(errors::notation(format!(
                "actions has {} entries; there are {n} games",
                actions.len()
            )));
        }
        let ids = actions.as_slice()?;
        let mut chosen: Vec<Action> = Vec::with_capacity(n);
        for (i, (slot, &id)) in self.slots.iter().zip(ids).enumerate() {
            let known = slot.legal_ids().iter().find(|&&lid| i64::from(lid) == id);
            match known.map(|&lid| Action::from_id(lid, slot.game.monte().as_ref())) {
                Some(Ok(a)) => chosen.push(a),
                _ => {
                    return Err(errors::illegal(format!(
                        "game {i}: action id {id} is not legal now (legal: {:?})",
                        slot.legal_ids()
                    )));
                }
            }
        }
        let obs = self.observations.bind(py);
        let masks = self.masks.bind(py);
        let rewards = self.rewards.bind(py);
        let dones = self.dones.bind(py);
        let players = self.players.bind(py);
        let mut o = obs.try_readwrite()?;
        let mut m = masks.try_readwrite()?;
        let mut r = rewards.try_readwrite()?;
        let mut d = dones.try_readwrite()?;
        let mut p = players.try_readwrite()?;
        let (o, m, r, d, p) = (
            o.as_slice_mut()?,
            m.as_slice_mut()?,
            r.as_slice_mut()?,
            d.as_slice_mut()?,
            p.as_slice_mut()?,
        );
        let rules = self.rules;
        let single = self.single;
        let seats = usize::from(rules.seats());
        let slots = &mut self.slots;
        let rng = &mut self.rng;
        let pool = self.pool.as_ref();
        let width = self.width;
        let finished = py.detach(|| {
            let reset = |slot: &mut Slot, rng: &mut GameRng| {
                let seed = next_seed(rng);
                if let Ok(g) = Game::seeded(rules, seed, None, single) {
                    slot.game = g;
                    slot.seed = seed;
                }
                slot.returned = [0.0; Seat::MAX];
            };
            let act = |slot: &mut Slot, action: Action, reward: &mut [f32], done: &mut bool| {
                // Every action was checked against the cached legal list above.
                slot.game.apply_unchecked(action);
                let now = slot.game.returns();
                for (s, x) in reward.iter_mut().enumerate() {
                    *x = (now[s] - slot.returned[s]) as f32;
                }
                slot.returned = now;
                *done = slot.game.is_over();
            };
            let Some(pool) = pool else {
                // One pass in game order (the same games as the three phases below: the
                // resets draw their seeds in game order either way), so each game's state is
                // read from memory once per step, not twice, when the batch outgrows the cache.
                let mut finished = 0u64;
                for (((((slot, action), reward), done), o), (m, p)) in slots
                    .iter_mut()
                    .zip(chosen)
                    .zip(r.chunks_mut(seats))
                    .zip(d.iter_mut())
                    .zip(o.chunks_mut(width))
                    .zip(m.chunks_mut(MASK_SIZE).zip(p.iter_mut()))
                {
                    act(slot, action, reward, done);
                    if *done {
                        finished += 1;
                        reset(slot, rng);
                    }
                    write_slot(slot, o, m, p);
                }
                return finished;
            };
            // Threads: three phases, so the games are the same for any number of threads: the
            // actions (in parallel), the auto-resets (in game order, each drawing the next seed
            // from the one generator), the new observations (in parallel).
            pool.install(|| {
                slots
                    .par_iter_mut()
                    .zip(chosen)
                    .zip(r.par_chunks_mut(seats))
                    .zip(d.par_iter_mut())
                    .with_min_len(MIN_PER_TASK)
                    .for_each(|(((slot, action), reward), done)| {
                        act(slot, action, reward, done);
                    });
            });
            let mut finished = 0u64;
            for (slot, &done) in slots.iter_mut().zip(d.iter()) {
                if done {
                    finished += 1;
                    reset(slot, rng);
                }
            }
            pool.install(|| {
                slots
                    .par_iter_mut()
                    .zip(o.par_chunks_mut(width))
                    .zip(m.par_chunks_mut(MASK_SIZE))
                    .zip(p.par_iter_mut())
                    .with_min_len(MIN_PER_TASK)
                    .for_each(|(((slot, o), m), p)| write_slot(slot, o, m, p));
            });
            finished
        });
        self.episodes += finished;
        self.steps += n as u64;
        Ok((
            self.observations.clone_ref(py),
            self.masks.clone_ref(py),
            self.rewards.clone_ref(py),
            self.dones.clone_ref(py),
            self.players.clone_ref(py),
        ))
    }

    /// A uniformly random legal action id for every game (int64 `[N]`), from the
    /// environment's own generator, so random rollouts need no Python loop.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.slots.len()];
        for (slot, o) in self.slots.iter().zip(out.iter_mut()) {
            let n = slot.legal_ids().len().max(1) as u32;
            let k = self.rng.below(n) as usize;
            *o = slot.legal_ids().get(k).map_or(0, |&id| i64::from(id));
        }
        PyArray1::from_vec(py, out)
    }

    /// A copy of game `i` as a `State` (to inspect it or continue it alone).
    fn state(&self, i: usize) -> PyResult<State> {
        self.slots
            .get(i)
            .map(|s| State {
                game: s.game.clone(),
                seed: Some(s.seed),
            })
            .ok_or_else(|| errors::notation(format!("game {i} is out of range")))
    }

    /// The seat of game `i` whose view `observations[i]` is, or -1.
    fn decider(&self, i: usize) -> PyResult<i64> {
        self.slots
            .get(i)
            .map(|s| s.game.decider().map_or(-1, |x: Seat| x.index() as i64))
            .ok_or_else(|| errors::notation(format!("game {i} is out of range")))
    }
}
