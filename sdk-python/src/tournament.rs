//! The match runner behind `calabresella.tournament`: plays a list of jobs (a deal seed and a
//! seating of bots) to the end. Matches between built-in bots run on Rust threads with the GIL
//! released; matches with a Python bot run on the calling thread, asking the bot through the
//! same `Observation` objects as everywhere else.

use std::sync::mpsc;

use numpy::PyUntypedArrayMethods;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use calabresella_engine::bots::{self, Bot};
use calabresella_engine::game::Rules;
use calabresella_engine::rng::GameRng;
use calabresella_engine::{Action, Seat};

use crate::errors;
use crate::game::Game;
use crate::observation::{Observation, parse_action};
use crate::state::rules_from;

/// A player in one match.
enum Player {
    /// Uniformly random legal actions, drawn as the engine's `RandomBot` draws them (from the
    /// legal list, which for the decider is its observation's legal list).
    Random(GameRng),
    /// Another built-in bot.
    BuiltIn(Box<dyn Bot + Send>),
    /// A Python bot: an object with `act(observation)` or a callable.
    Python(Py<PyAny>),
}

/// What a bot is, as the Python side passed it.
#[derive(Clone)]
enum Spec {
    BuiltIn(String),
    Python,
}

/// The organiser's controls over every match of a run.
struct Controls {
    /// The longest a bot may take over one decision.
    limit: Option<std::time::Duration>,
    /// Over the limit the seat forfeits the match; otherwise the heuristic bot answers for it.
    forfeit: bool,
    /// Per bot, what each record's `meta` says of it (its name and version).
    bot_meta: Vec<serde_json::Value>,
    /// The number of this run's first match in the whole tournament (a shard's start), so
    /// records name their match the same however the tournament is cut.
    first_match: usize,
}

/// One finished match.
struct Played {
    job: usize,
    returns: [f64; Seat::MAX],
    winners: Vec<usize>,
    draw: bool,
    hands: usize,
    actions: u64,
    faults: [u32; Seat::MAX],
    /// Every fault: the seat, the action's index in the match, and what went wrong.
    errors: Vec<(usize, u64, String)>,
    /// The seat that forfeited the match (over the time limit), if one did.
    forfeit: Option<usize>,
    record: Option<String>,
}

impl Played {
    /// The summary of job `job`'s finished game (or the game stopped by `forfeit`: every
    /// other side wins, and the points are those scored so far). `meta` goes into the record.
    #[allow(clippy::too_many_arguments)]
    fn of(
        job: usize,
        game: &Game,
        actions: u64,
        faults: [u32; Seat::MAX],
        errors: Vec<(usize, u64, String)>,
        forfeit: Option<usize>,
        meta: Option<serde_json::Value>,
    ) -> Played {
        let (winners, draw) = match forfeit {
            Some(f) => (
                game.rules()
                    .teams()
                    .into_iter()
                    .filter(|team| !team.iter().any(|s| s.index() == f))
                    .flatten()
                    .collect(),
                false,
            ),
            None => game.winners().unwrap_or_default(),
        };
        let mut winners: Vec<usize> = winners.into_iter().map(Seat::index).collect();
        winners.sort_unstable();
        Played {
            job,
            returns: game.returns(),
            winners,
            draw,
            hands: game.hands_started(),
            actions,
            faults,
            errors,
            forfeit,
            record: meta.map(|m| game.record(Some(m)).to_json()),
        }
    }
}

fn next_seed(rng: &mut GameRng) -> u64 {
    (u64::from(rng.next_half()) << 32) | u64::from(rng.next_half())
}

fn builtin(name: &str, seed: u64) -> Option<Player> {
    if name.eq_ignore_ascii_case("random") {
        return Some(Player::Random(GameRng::from_seed(seed)));
    }
    bots::by_name(name, seed).map(Player::BuiltIn)
}

/// Chooses an action for the decider. `Err` carries a fault message (the caller plays the first
/// legal action instead).
fn choose(
    player: &mut Player,
    game: &Game,
    seat: Seat,
    legal: &[(u16, Action)],
) -> Result<Action, String> {
    match player {
        Player::Random(rng) => Ok(legal[rng.below(legal.len() as u32) as usize % legal.len()].1),
        Player::BuiltIn(b) => match game.observation(Some(seat)) {
            Some(o) => Ok(b.act(&o)),
            None => Err("no observation".into()),
        },
        Player::Python(obj) => Python::attach(|py| {
            let obs = Observation::of_game(game, Some(seat))
                .ok_or_else(|| "no observation".to_owned())?;
            let monte = obs.monte();
            let bound = obj.bind(py);
            let answer = if bound.hasattr("act").unwrap_or(false) {
                bound.call_method1("act", (obs,))
            } else {
                bound.call1((obs,))
            };
            let answer = answer.map_err(|e| {
                let tb = e
                    .traceback(py)
                    .and_then(|t| t.format().ok())
                    .unwrap_or_default();
                format!("{tb}{e}")
            })?;
            parse_action(&answer, monte.as_ref()).map_err(|e| e.to_string())
        }),
    }
}

/// Matches a worker hands over at once (or whatever it has after [`BATCH_TIME`], so progress
/// keeps moving on long matches).
const BATCH: usize = 256;
/// The longest a worker keeps finished matches before handing them over.
const BATCH_TIME: std::time::Duration = std::time::Duration::from_millis(100);

/// Plays a game between built-in random bots on the engine's unchecked fast path: each seat
/// draws from its own generator exactly as `RandomBot` does (`legal[below(len)]`), so the
/// matches are the ones the checked path would play.
fn random_playout(game: &mut Game, players: &mut [Player]) -> u64 {
    let single = game.single;
    game.inner
        .play_out(single, |seat, n| match &mut players[seat.index()] {
            Player::Random(rng) => rng.below(n as u32) as usize % n.max(1),
            // Only random players reach this loop; any other seat stops it.
            _ => usize::MAX,
        })
}

#[allow(clippy::too_many_arguments)]
fn play_one(
    job: usize,
    rules: Rules,
    single: bool,
    seed: u64,
    seating: &[usize],
    specs: &[Spec],
    objects: &[Option<Py<PyAny>>],
    keep_record: bool,
    controls: &Controls,
) -> Result<Played, String> {
    let mut game = Game::seeded(rules, seed, None, single).map_err(|e| e.to_string())?;
    let n = usize::from(rules.seats());
    let mut bot_rng = GameRng::from_seed(seed ^ 0x005e_ed0f_b075);
    let mut players = Vec::with_capacity(n);
    for &b in seating.iter().take(n) {
        let bot_seed = next_seed(&mut bot_rng);
        players.push(match &specs[b] {
            Spec::BuiltIn(name) => {
                builtin(name, bot_seed).ok_or_else(|| format!("unknown bot {name:?}"))?
            }
            Spec::Python => Player::Python(
                objects[b]
                    .as_ref()
                    .map(|o| Python::attach(|py| o.clone_ref(py)))
                    .ok_or("bot object missing")?,
            ),
        });
    }
    let meta = |forfeit: Option<usize>| {
        keep_record.then(|| {
            let seats: Vec<serde_json::Value> = seating
                .iter()
                .take(n)
                .map(|&b| controls.bot_meta.get(b).cloned().unwrap_or_default())
                .collect();
            serde_json::json!({
                "tournament": {"match": controls.first_match + job, "seed": seed.to_string(), "seats": seats, "forfeit": forfeit}
            })
        })
    };
    if players.iter().all(|p| matches!(p, Player::Random(_))) {
        let actions = random_playout(&mut game, &mut players);
        return Ok(Played::of(
            job,
            &game,
            actions,
            [0; Seat::MAX],
            Vec::new(),
            None,
            meta(None),
        ));
    }
    let mut stand_ins: Vec<Option<Box<dyn Bot + Send>>> = (0..n).map(|_| None).collect();
    let mut forfeit = None;
    let mut legal = Vec::with_capacity(40);
    let mut faults = [0u32; Seat::MAX];
    let mut errors = Vec::new();
    let mut actions = 0u64;
    while let Some(seat) = game.decider() {
        game.legal(&mut legal);
        if legal.is_empty() {
            break;
        }
        let started = std::time::Instant::now();
        let pick = choose(&mut players[seat.index()], &game, seat, &legal);
        let took = started.elapsed();
        let action = match (pick, controls.limit) {
            (_, Some(limit)) if took > limit => {
                faults[seat.index()] += 1;
                errors.push((
                    seat.index(),
                    actions,
                    format!(
                        "answered in {:.1} ms, over the {:.1} ms limit",
                        took.as_secs_f64() * 1e3,
                        limit.as_secs_f64() * 1e3
                    ),
                ));
                if controls.forfeit {
                    forfeit = Some(seat.index());
                    break;
                }
                // The heuristic answers for the slow seat, from the seat's own view.
                let stand_in = stand_ins[seat.index()].get_or_insert_with(|| {
                    Box::new(bots::HeuristicBot::new(seed ^ seat.index() as u64))
                });
                game.observation(Some(seat))
                    .map(|o| stand_in.act(&o))
                    .filter(|a| legal.iter().any(|&(_, l)| l == *a))
                    .unwrap_or(legal[0].1)
            }
            (pick, _) => match pick {
                Ok(a) if legal.iter().any(|&(_, l)| l == a) => a,
                Ok(a) => {
                    faults[seat.index()] += 1;
                    errors.push((seat.index(), actions, format!("illegal action {a}")));
                    legal[0].1
                }
                Err(e) => {
                    faults[seat.index()] += 1;
                    errors.push((seat.index(), actions, e));
                    legal[0].1
                }
            },
        };
        game.apply_as(seat, action).map_err(|e| e.to_string())?;
        actions += 1;
    }
    Ok(Played::of(
        job,
        &game,
        actions,
        faults,
        errors,
        forfeit,
        meta(forfeit),
    ))
}

/// The results as numpy arrays, one row per job.
fn to_arrays<'py>(py: Python<'py>, played: &[Played], n: usize) -> PyResult<Bound<'py, PyDict>> {
    use numpy::{PyArray1, PyArrayMethods};
    let rows = played.len();
    let mut returns = Vec::with_capacity(rows * n);
    let mut won = Vec::with_capacity(rows * n);
    let mut faults = Vec::with_capacity(rows * n);
    let mut forfeits = Vec::with_capacity(rows * n);
    for p in played {
        returns.extend_from_slice(&p.returns[..n]);
        won.extend((0..n).map(|s| p.winners.contains(&s)));
        faults.extend_from_slice(&p.faults[..n]);
        forfeits.extend((0..n).map(|s| p.forfeit == Some(s)));
    }
    let d = PyDict::new(py);
    d.set_item(
        "returns",
        PyArray1::from_vec(py, returns).reshape([rows, n])?,
    )?;
    d.set_item("won", PyArray1::from_vec(py, won).reshape([rows, n])?)?;
    d.set_item("faults", PyArray1::from_vec(py, faults).reshape([rows, n])?)?;
    d.set_item(
        "forfeits",
        PyArray1::from_vec(py, forfeits).reshape([rows, n])?,
    )?;
    d.set_item(
        "draw",
        PyArray1::from_iter(py, played.iter().map(|p| p.draw)),
    )?;
    d.set_item(
        "hands",
        PyArray1::from_iter(py, played.iter().map(|p| p.hands as u64)),
    )?;
    d.set_item(
        "actions",
        PyArray1::from_iter(py, played.iter().map(|p| p.actions)),
    )?;
    let records: Option<Vec<String>> = played.iter().map(|p| p.record.clone()).collect();
    d.set_item("records", records)?;
    // Every fault of every match: (row, seat, action index, message), in row order.
    let errors: Vec<(usize, usize, u64, String)> = played
        .iter()
        .enumerate()
        .flat_map(|(row, p)| {
            p.errors
                .iter()
                .map(move |(seat, at, e)| (row, *seat, *at, e.clone()))
        })
        .collect();
    d.set_item(
        "first_error",
        errors
            .first()
            .map(|(_, seat, _, e)| format!("seat {seat}: {e}")),
    )?;
    d.set_item("errors", errors)?;
    Ok(d)
}

/// Plays one match per row of `seeds` (the deal seed) and `seatings` (per seat, an index into
/// `bots`) and returns, in job order, numpy arrays `returns` (float64 `[jobs, seats]`),
/// `won` (bool `[jobs, seats]`), `faults` (`[jobs, seats]`), `forfeits` (bool `[jobs, seats]`:
/// the seat that lost the match by answering over `move_limit_ms`), `draw`, `hands`, `actions`
/// (`[jobs]`), plus `records` (JSON texts when asked), `errors` (every fault, as `(row, seat,
/// action index, message)`) and `first_error`. A bot is a built-in name (`"random"`,
/// `"heuristic"`) or a Python object with `act(observation)` or a callable. `progress(done)`
/// is called as matches finish. `threads` (0: every core) applies when every bot is built in.
/// `move_limit_ms` bounds each answer: over it the answer is a fault and, by `on_slow`, the
/// heuristic answers instead (`"fallback"`) or the seat forfeits the match (`"forfeit"`: every
/// other side wins). `bot_meta` (a JSON text per bot) goes into each record's `meta`, with the
/// match (numbered from `first_match`) and its seed.
#[pyfunction]
#[pyo3(signature = (game, options, bots, seeds, seatings, *, episode = "match", threads = 0, records = false, progress = None, move_limit_ms = None, on_slow = "fallback", bot_meta = None, first_match = 0))]
#[allow(clippy::too_many_arguments)]
pub fn play_matches<'py>(
    py: Python<'py>,
    game: &str,
    options: Option<&Bound<'py, PyDict>>,
    bots: &Bound<'py, PyList>,
    seeds: numpy::PyReadonlyArray1<'py, u64>,
    seatings: numpy::PyReadonlyArray2<'py, i64>,
    episode: &str,
    threads: usize,
    records: bool,
    progress: Option<Py<PyAny>>,
    move_limit_ms: Option<f64>,
    on_slow: &str,
    bot_meta: Option<Vec<String>>,
    first_match: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_from(game, options)?;
    let limit = match move_limit_ms {
        None => None,
        Some(ms) if ms.is_finite() && ms > 0.0 && ms <= 86_400_000.0 => {
            Some(std::time::Duration::from_secs_f64(ms / 1e3))
        }
        Some(ms) => {
            return Err(errors::notation(format!(
                "move_limit_ms is a positive number of milliseconds (at most a day), not {ms}"
            )));
        }
    };
    let forfeit = match on_slow {
        "fallback" => false,
        "forfeit" => true,
        other => {
            return Err(errors::notation(format!(
                "on_slow is \"fallback\" (the heuristic answers) or \"forfeit\" (the seat loses the match), not {other:?}"
            )));
        }
    };
    let bot_meta = bot_meta
        .unwrap_or_default()
        .iter()
        .map(|t| serde_json::from_str(t))
        .collect::<Result<Vec<serde_json::Value>, _>>()
        .map_err(|e| errors::notation(format!("bot_meta: each entry is a JSON text: {e}")))?;
    let controls = Controls {
        limit,
        forfeit,
        bot_meta,
        first_match,
    };
    let single = crate::game::single_hand(episode).map_err(errors::notation)?;
    let n = usize::from(rules.seats());
    let shape = seatings.shape();
    if shape[0] != seeds.len() || shape[1] != n {
        return Err(errors::notation(format!(
            "seatings must be [jobs, {n}] with one row per seed; got {shape:?} for {} seeds",
            seeds.len()
        )));
    }
    let sa = seatings.as_array();
    let jobs: Vec<(u64, Vec<usize>)> = seeds
        .as_array()
        .iter()
        .zip(sa.rows())
        .map(|(&seed, row)| {
            (
                seed,
                row.iter()
                    .map(|&b| usize::try_from(b).unwrap_or(usize::MAX))
                    .collect(),
            )
        })
        .collect();
    let mut specs = Vec::new();
    let mut objects = Vec::new();
    for b in bots.iter() {
        if let Ok(name) = b.extract::<String>() {
            if builtin(&name, 0).is_none() {
                return Err(errors::notation(format!(
                    "unknown built-in bot {name:?}: {}",
                    calabresella_engine::bots::BOT_NAMES.join(", ")
                )));
            }
            specs.push(Spec::BuiltIn(name));
            objects.push(None);
        } else if b.hasattr("act")? || b.is_callable() {
            specs.push(Spec::Python);
            objects.push(Some(b.clone().unbind()));
        } else {
            return Err(errors::notation(format!(
                "a bot is a built-in name, an object with act(observation) or a callable; got {}",
                b.get_type().name()?
            )));
        }
    }
    for (seed, seating) in &jobs {
        if seating.len() != n || seating.iter().any(|&b| b >= specs.len()) {
            return Err(errors::notation(format!(
                "job with seed {seed}: a seating names one bot index (0..{}) for each of the {n} seats",
                specs.len()
            )));
        }
    }
    let all_builtin = specs.iter().all(|s| matches!(s, Spec::BuiltIn(_)));
    let mut results: Vec<Option<Played>> = (0..jobs.len()).map(|_| None).collect();
    let report = |done: usize| -> PyResult<()> {
        if let Some(cb) = &progress {
            Python::attach(|py| cb.call1(py, (done,)).map(|_| ()))?;
        }
        Ok(())
    };
    if all_builtin {
        let workers = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        }
        .clamp(1, 256);
        let outcome: Result<Vec<Played>, PyErr> = py.detach(|| {
            let next = std::sync::atomic::AtomicUsize::new(0);
            // Results travel in batches: a message per match kept the receiving thread waking
            // and sleeping, which cost a third of a thread's time on short matches.
            let (tx, rx) = mpsc::channel::<Result<Vec<Played>, String>>();
            std::thread::scope(|scope| {
                for _ in 0..workers {
                    let tx = tx.clone();
                    let (next, jobs, specs, objects, controls) =
                        (&next, &jobs, &specs, &objects, &controls);
                    scope.spawn(move || {
                        let mut batch = Vec::with_capacity(BATCH);
                        let mut since = std::time::Instant::now();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some((seed, seating)) = jobs.get(i) else {
                                break;
                            };
                            match play_one(
                                i, rules, single, *seed, seating, specs, objects, records, controls,
                            ) {
                                Ok(p) => batch.push(p),
                                Err(e) => {
                                    let _ = tx.send(Err(e));
                                    return;
                                }
                            }
                            if batch.len() >= BATCH || since.elapsed() >= BATCH_TIME {
                                if tx.send(Ok(std::mem::take(&mut batch))).is_err() {
                                    return;
                                }
                                since = std::time::Instant::now();
                            }
                        }
                        if !batch.is_empty() {
                            let _ = tx.send(Ok(batch));
                        }
                    });
                }
                drop(tx);
                let mut out = Vec::with_capacity(jobs.len());
                for r in rx {
                    match r {
                        Ok(mut b) => out.append(&mut b),
                        Err(e) => return Err(errors::notation(e)),
                    }
                    report(out.len())?;
                }
                Ok(out)
            })
        });
        for p in outcome? {
            let j = p.job;
            results[j] = Some(p);
        }
    } else {
        for (i, (seed, seating)) in jobs.iter().enumerate() {
            let p = play_one(
                i, rules, single, *seed, seating, &specs, &objects, records, &controls,
            )
            .map_err(errors::notation)?;
            results[i] = Some(p);
            report(i + 1)?;
        }
    }
    let played: Vec<Played> = results.into_iter().flatten().collect();
    to_arrays(py, &played, n)
}
