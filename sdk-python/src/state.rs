//! The Python `State`: a match or a single hand in-process, OpenSpiel style.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use calabresella_engine::game::Rules;
use calabresella_engine::{Action, Card, Seat};

use crate::args::{Seed, out_array};
use crate::encode::{self, Encode, Features};
use crate::errors;
use crate::game::Game;
use crate::observation::{Observation, parse_action};

/// `current_player()` when the episode is over (OpenSpiel's value).
pub const TERMINAL: i64 = -4;
/// `current_player()` when the match waits for the caller to deal the next hand.
pub const CHANCE: i64 = -1;

/// Rules from a game name and Python keyword options (`players=4`, `aperta=True`...).
pub fn rules_from(game: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    if let Some(opts) = options {
        for (k, v) in opts.iter() {
            let key: String = k.extract()?;
            let value = if let Ok(b) = v.extract::<bool>() {
                b.to_string()
            } else {
                v.str()?.to_string()
            };
            pairs.push((key, value));
        }
    }
    Rules::parse(game, pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| errors::notation(format!("bad options: {e}")))
}

/// A seat number from Python, checked against the table.
pub fn seat_arg(seat: i64, players: u8) -> PyResult<Seat> {
    u8::try_from(seat)
        .ok()
        .filter(|&s| s < players)
        .and_then(Seat::new)
        .ok_or_else(|| {
            errors::notation(format!(
                "seat {seat} is not a seat: seats are 0 to {}",
                players.saturating_sub(1)
            ))
        })
}

/// Card strings into cards.
pub fn cards_arg(list: &[String]) -> PyResult<Vec<Card>> {
    list.iter()
        .map(|t| {
            t.parse::<Card>()
                .map_err(|e| errors::notation(format!("{t:?}: {e}")))
        })
        .collect()
}

/// Runs `f` on the contents of a caller's numpy array `arr` (named `name` in errors), which
/// must hold exactly `len` elements, contiguous and writable.
fn write_into<T: numpy::Element, R>(
    arr: &Bound<'_, PyArray1<T>>,
    name: &str,
    len: usize,
    f: impl FnOnce(&mut [T]) -> R,
) -> PyResult<R> {
    let mut rw = arr
        .try_readwrite()
        .map_err(|e| errors::notation(format!("{name}: {e}")))?;
    let slice = rw
        .as_slice_mut()
        .map_err(|e| errors::notation(format!("{name}: {e}")))?;
    if slice.len() != len {
        return Err(errors::notation(format!(
            "{name} has {} elements; it must have {len}",
            slice.len()
        )));
    }
    Ok(f(slice))
}

/// A game in progress: a whole match, or (from `new_hand`) a single hand. Holds hidden
/// information: give bots only `observation(seat)`.
#[pyclass(module = "calabresella._core")]
#[derive(Clone)]
pub struct State {
    /// The game.
    pub game: Game,
    /// The seed it was dealt from, when known: a pickle deals the hands still to come from it.
    pub seed: Option<u64>,
}

impl State {
    fn viewer(&self, seat: Option<i64>) -> PyResult<Option<Seat>> {
        match seat {
            Some(s) => Ok(Some(seat_arg(s, self.game.players())?)),
            None => Ok(self.game.decider()),
        }
    }

    fn action_arg(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        parse_action(action, self.game.monte().as_ref())
    }
}

#[pymethods]
impl State {
    /// A match dealt from `seed` (a fresh random seed when omitted); `dealer` deals first
    /// (drawn from the seed when omitted). Rule options are keyword arguments: `players=4`,
    /// `target=31`, `aperta=True`, `preset="terziglio"`...
    #[staticmethod]
    #[pyo3(signature = (game = "calabresella", *, seed = None, dealer = None, **options))]
    fn new_match(
        game: &str,
        seed: Option<Seed>,
        dealer: Option<i64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<State> {
        let seed = seed.map(|s| s.0);
        let rules = rules_from(game, options)?;
        let dealer = dealer.map(|d| seat_arg(d, rules.seats())).transpose()?;
        let seed = seed.unwrap_or_else(fresh_seed);
        Game::seeded(rules, seed, dealer, false)
            .map(|game| State {
                game,
                seed: Some(seed),
            })
            .map_err(errors::notation)
    }

    /// A single hand: dealt from `seed`, or from an explicit `deal` (one list of card strings per
    /// seat, the idle dealer's empty) with the `monte` (Calabresella) or `stock` (Tressette in
    /// Due) in deal order. The state is terminal when the hand is over.
    #[staticmethod]
    #[pyo3(signature = (game = "calabresella", *, seed = None, dealer = None, deal = None, monte = None, stock = None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn new_hand(
        game: &str,
        seed: Option<Seed>,
        dealer: Option<i64>,
        deal: Option<Vec<Vec<String>>>,
        monte: Option<Vec<String>>,
        stock: Option<Vec<String>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<State> {
        let seed = seed.map(|s| s.0);
        let rules = rules_from(game, options)?;
        let dealer = dealer.map(|d| seat_arg(d, rules.seats())).transpose()?;
        match deal {
            None => {
                if monte.is_some() || stock.is_some() {
                    return Err(errors::notation("monte and stock go with an explicit deal"));
                }
                let seed = seed.unwrap_or_else(fresh_seed);
                Game::seeded(rules, seed, dealer, true)
                    .map(|game| State {
                        game,
                        seed: Some(seed),
                    })
                    .map_err(errors::notation)
            }
            Some(hands) => {
                if seed.is_some() {
                    return Err(errors::notation("give either a seed or a deal, not both"));
                }
                let mut game = Game::undealt(rules, dealer.unwrap_or(Seat::ALL[0]), true)
                    .map_err(errors::notation)?;
                let hands: Vec<Vec<Card>> = hands
                    .iter()
                    .map(|h| cards_arg(h))
                    .collect::<PyResult<_>>()?;
                let rest = cards_arg(&monte.or(stock).unwrap_or_default())?;
                game.start_hand(&hands, &rest).map_err(errors::notation)?;
                Ok(State { game, seed: None })
            }
        }
    }

    /// The state a game record (JSON text, format v1) leads to; every deal and action is checked.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<State> {
        Game::from_record(text)
            .map(|game| State { game, seed: None })
            .map_err(errors::record)
    }

    /// The game record (format v1, JSON text) of the match so far; `meta` is any JSON-able value
    /// stored with it.
    #[pyo3(signature = (meta = None))]
    fn to_record(&self, py: Python<'_>, meta: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let meta = match meta {
            None => None,
            Some(m) => {
                let json = py.import("json")?;
                let text: String = json.call_method1("dumps", (m,))?.extract()?;
                Some(serde_json::from_str(&text).map_err(errors::record)?)
            }
        };
        Ok(self.game.record(meta).to_json())
    }

    /// The game: `calabresella`, `tressette` or `tressette-in-due`.
    #[getter]
    fn game(&self) -> &'static str {
        self.game.rules().game_name()
    }

    /// Seats that nobody takes (the Calabresella a due dummy, played by another seat).
    #[getter]
    fn dummy_seats(&self) -> Vec<usize> {
        self.game
            .rules()
            .dummy_seats()
            .into_iter()
            .map(Seat::index)
            .collect()
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.game.players()
    }

    /// The rules in force, as the text the CLI prints.
    #[getter]
    fn options(&self) -> String {
        self.game.rules().to_string()
    }

    /// 0-based number of the current (or last) hand.
    #[getter]
    fn hand_number(&self) -> usize {
        self.game.hands_started().saturating_sub(1)
    }

    /// The seat that decides now; `TERMINAL` (-4) when the episode is over, `CHANCE` (-1) when
    /// the match waits for `deal(...)`.
    fn current_player(&self) -> i64 {
        if self.game.is_over() {
            TERMINAL
        } else {
            self.game.decider().map_or(CHANCE, |s| s.index() as i64)
        }
    }

    /// Whose decision it is (in a due, possibly the dummy's seat, decided by its partner).
    fn actor(&self) -> Option<usize> {
        self.game.actor().map(Seat::index)
    }

    /// Whether the episode (the match, or the single hand) is over.
    fn is_terminal(&self) -> bool {
        self.game.is_over()
    }

    /// Whether the match waits for the caller to deal the next hand (`deal(...)`).
    fn needs_deal(&self) -> bool {
        self.game.needs_deal()
    }

    /// Deals the next hand explicitly: one list of card strings per seat, and the monte
    /// (Calabresella) or stock (Tressette in Due).
    #[pyo3(signature = (hands, rest = Vec::new()))]
    fn deal(&mut self, hands: Vec<Vec<String>>, rest: Vec<String>) -> PyResult<()> {
        let hands: Vec<Vec<Card>> = hands
            .iter()
            .map(|h| cards_arg(h))
            .collect::<PyResult<_>>()?;
        let rest = cards_arg(&rest)?;
        self.game
            .start_hand(&hands, &rest)
            .map_err(errors::notation)
    }

    /// The legal actions now, as numeric ids.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        // Straight from the engine's fixed-size list into a Python list: this is called every
        // step of a training loop.
        let mut ids = [0u16; calabresella_engine::game::MAX_LEGAL];
        let n = self.game.legal_ids(&mut ids);
        pyo3::types::PyList::new(py, &ids[..n])
    }

    /// The legal actions now, as action strings (same order as `legal_actions`).
    fn legal_action_strings(&self) -> Vec<String> {
        let mut v = Vec::with_capacity(40);
        self.game.legal(&mut v);
        v.into_iter().map(|(_, a)| a.to_string()).collect()
    }

    /// The legal-action mask: bool array of length `NUM_ACTIONS`, indexed by action id. With
    /// `out` (a bool array of that length) it is written there and returned.
    #[pyo3(signature = (out = None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let arr = match out {
            Some(a) => out_array::<bool>(&a, "out", "bool", encode::MASK_SIZE)?,
            None => PyArray1::<bool>::zeros(py, encode::MASK_SIZE, false),
        };
        write_into(&arr, "out", encode::MASK_SIZE, |m| self.game.legal_mask(m))?;
        Ok(arr)
    }

    /// The action string of a numeric id.
    fn action_to_string(&self, action: u16) -> PyResult<String> {
        self.game
            .action_from_id(action)
            .map(|a| a.to_string())
            .map_err(errors::notation)
    }

    /// The numeric id of an action string (or id).
    fn string_to_action(&self, action: &Bound<'_, PyAny>) -> PyResult<u16> {
        let a = self.action_arg(action)?;
        self.game.action_id(a).map_err(errors::notation)
    }

    /// Applies an action (numeric id or string) for the seat that decides now. An illegal
    /// action raises `IllegalActionError` and changes nothing.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = self.action_arg(action)?;
        self.game
            .apply(a)
            .map_err(|e| errors::illegal(format!("{a}: {e}")))
    }

    /// Applies an action for `seat`, which must be the seat that decides now.
    fn apply_action_as(&mut self, seat: i64, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = seat_arg(seat, self.game.players())?;
        let a = self.action_arg(action)?;
        self.game
            .apply_as(s, a)
            .map_err(|e| errors::illegal(format!("{a} by seat {seat}: {e}")))
    }

    /// Points per seat: for a single hand its award (Tressette: the side's points), for a
    /// match the totals so far.
    fn returns(&self) -> Vec<f64> {
        self.game.returns()[..usize::from(self.game.players())].to_vec()
    }

    /// The winning seats once the match is over (empty for a draw); `None` before.
    fn winners(&self) -> Option<Vec<usize>> {
        self.game
            .winners()
            .map(|(w, _)| w.into_iter().map(Seat::index).collect())
    }

    /// The view of `seat` (default: the seat that decides now, or the public view when nobody
    /// does).
    #[pyo3(signature = (seat = None))]
    fn observation(&self, seat: Option<i64>) -> PyResult<Observation> {
        let viewer = self.viewer(seat)?;
        Observation::of_game(&self.game, viewer)
            .ok_or_else(|| errors::illegal("no hand has been dealt yet"))
    }

    /// The public (spectator) view.
    fn public_observation(&self) -> PyResult<Observation> {
        Observation::of_game(&self.game, None)
            .ok_or_else(|| errors::illegal("no hand has been dealt yet"))
    }

    /// The observation tensor of `seat` (default: the seat that decides now). With `out`, a
    /// float32 array of length `OBSERVATION_SIZE`, it is written there and returned.
    #[pyo3(signature = (seat = None, out = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: Option<i64>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let viewer = self.viewer(seat)?;
        let arr = match out {
            Some(a) => out_array::<f32>(&a, "out", "float32", encode::OBS_SIZE)?,
            None => PyArray1::<f32>::zeros(py, encode::OBS_SIZE, false),
        };
        write_into(&arr, "out", encode::OBS_SIZE, |o| {
            Features::of_game(&self.game, viewer).encode(o)
        })?;
        Ok(arr)
    }

    /// One call for a training loop: writes the observation tensor of the seat that decides
    /// now into `obs` (float32, `OBSERVATION_SIZE`) and the legal-action mask into `mask` (bool,
    /// `NUM_ACTIONS`), and returns the legal action ids. Same values as `observation_tensor()`,
    /// `legal_actions_mask()` and `legal_actions()`.
    fn observe_into<'py>(
        &self,
        py: Python<'py>,
        obs: Bound<'py, PyAny>,
        mask: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        let obs = out_array::<f32>(&obs, "obs", "float32", encode::OBS_SIZE)?;
        let mask = out_array::<bool>(&mask, "mask", "bool", encode::MASK_SIZE)?;
        write_into(&obs, "obs", encode::OBS_SIZE, |o| {
            Features::of_game(&self.game, self.game.decider()).encode(o)
        })?;
        let mut ids = [0u16; calabresella_engine::game::MAX_LEGAL];
        let n = self.game.legal_ids(&mut ids);
        write_into(&mask, "mask", encode::MASK_SIZE, |m| {
            m.fill(false);
            for &id in &ids[..n] {
                m[usize::from(id)] = true;
            }
        })?;
        pyo3::types::PyList::new(py, &ids[..n])
    }

    /// The information-state tensor of `seat`: the observation tensor followed by the hand's
    /// public history and what the seat alone knows (float32, `INFORMATION_STATE_SIZE`).
    #[pyo3(signature = (seat = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let viewer = self.viewer(seat)?;
        let obs = self
            .game
            .observation(viewer)
            .ok_or_else(|| errors::illegal("no hand has been dealt yet"))?;
        let arr = PyArray1::<f32>::zeros(py, encode::INFO_SIZE, false);
        write_into(&arr, "information state", encode::INFO_SIZE, |out| {
            encode::encode_info_engine(&Features::of_game(&self.game, viewer), &obs, out)
        })?;
        Ok(arr)
    }

    /// The action id a built-in bot (`"random"` or `"heuristic"`, seeded with `seed`) chooses
    /// for `seat` (default: the seat that decides now), from that seat's observation only.
    #[pyo3(signature = (bot = "heuristic", seat = None, seed = Seed(0)), text_signature = "($self, bot='heuristic', seat=None, seed=0)")]
    fn bot_action(&self, bot: &str, seat: Option<i64>, seed: Seed) -> PyResult<u16> {
        let seed = seed.0;
        use calabresella_engine::bots;
        let viewer = self
            .viewer(seat)?
            .ok_or_else(|| errors::illegal("nobody decides now"))?;
        if self.game.decider() != Some(viewer) {
            return Err(errors::illegal(format!(
                "seat {} does not decide now",
                viewer.index()
            )));
        }
        let obs = self
            .game
            .observation(Some(viewer))
            .ok_or_else(|| errors::illegal("no hand has been dealt yet"))?;
        let action = bots::bot_from_spec(bot, seed)
            .map_err(|e| errors::notation(e.to_string()))?
            .act(&obs);
        self.game.action_id(action).map_err(errors::notation)
    }

    /// `count` worlds that `seat` (default: the seat that decides) cannot tell apart from
    /// this state, drawn uniformly among the consistent ones with the generator seeded by
    /// `seed`. Each is a one-hand `State` at this point of the current hand, with every card
    /// placed: the unseen cards dealt as the seat's knowledge allows (voids shown, the called
    /// card, what it saw of the monte and the discards, accusi, cards drawn). Built from the
    /// seat's observation alone, so a world never uses what the seat cannot see.
    #[pyo3(signature = (seat = None, count = 1, seed = Seed(0)), text_signature = "($self, seat=None, count=1, seed=0)")]
    fn sample_worlds(&self, seat: Option<i64>, count: usize, seed: Seed) -> PyResult<Vec<State>> {
        const MOST: usize = 100_000;
        if count > MOST {
            return Err(PyValueError::new_err(format!(
                "count is at most {MOST}, got {count}"
            )));
        }
        let viewer = self
            .viewer(seat)?
            .ok_or_else(|| errors::illegal("nobody decides now: name the seat"))?;
        let obs = self
            .game
            .observation(Some(viewer))
            .ok_or_else(|| errors::illegal("no hand has been dealt yet"))?;
        let worlds = obs
            .sample_worlds(count, seed.0)
            .map_err(|e| errors::illegal(e.to_string()))?;
        Ok(worlds
            .into_iter()
            .map(|inner| State {
                game: Game {
                    inner,
                    single: true,
                },
                seed: None,
            })
            .collect())
    }

    /// The actions of the current (or last) hand so far, as action strings.
    fn history(&self) -> Vec<String> {
        self.game.hand_history()
    }

    /// A copy of the state.
    fn clone(&self) -> State {
        State {
            game: self.game.clone(),
            seed: self.seed,
        }
    }

    /// Pickling: the record of the game so far and, for a seeded game, its seed, so the
    /// unpickled state is equal and deals the same hands after this one.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let restore = py.get_type::<State>().getattr("_from_pickle")?;
        Ok((restore, (self.game.to_pickle(self.seed),)))
    }

    /// The state a pickle holds (see `__reduce__`).
    #[staticmethod]
    fn _from_pickle(text: &str) -> PyResult<State> {
        Game::from_pickle(text)
            .map(|(game, seed)| State { game, seed })
            .map_err(errors::record)
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<State>().is_ok_and(|o| {
            let o = o.borrow();
            // The same deals, actions and options: the record says it all (a replayed
            // match has no generator for future deals, which is not game state).
            o.game.single == self.game.single
                && o.game.record(None).to_json() == self.game.record(None).to_json()
        })
    }

    fn __str__(&self) -> String {
        self.game.describe()
    }

    fn __repr__(&self) -> String {
        format!(
            "State(game='{}', hand_number={}, current_player={}, terminal={})",
            self.game(),
            self.hand_number(),
            self.current_player(),
            if self.is_terminal() { "True" } else { "False" }
        )
    }
}

/// A seed from the operating system (the clock if that fails: a seed is not a secret).
pub fn fresh_seed() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        return t ^ u64::from(std::process::id()).rotate_left(32);
    }
    u64::from_le_bytes(b)
}

/// What a game declares of itself under the given rule options (the engine's `GameFacts`):
/// `zero_sum`, `min_hand_award` and `max_hand_award` (one seat's award in one hand), and
/// `distinct_actions` (the size of the action id space). Unknown games and options raise
/// `NotationError`.
#[pyfunction]
#[pyo3(signature = (game, **options))]
pub fn game_facts<'py>(
    py: Python<'py>,
    game: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let facts = rules_from(game, options)?.facts();
    let d = PyDict::new(py);
    d.set_item("zero_sum", facts.zero_sum)?;
    d.set_item("min_hand_award", facts.min_hand_award)?;
    d.set_item("max_hand_award", facts.max_hand_award)?;
    d.set_item("distinct_actions", facts.distinct_actions)?;
    Ok(d)
}

/// Every game and rule-option set worth testing (each variant, every flag and rule choice, a
/// short and a long match), as `(game, options)` with `options` the keyword arguments that
/// select it (those that differ from the game's defaults, and `players`).
#[pyfunction]
pub fn option_sets<'py>(py: Python<'py>) -> PyResult<Vec<(&'static str, Bound<'py, PyDict>)>> {
    let mut out = Vec::new();
    for rules in calabresella_engine::game::every_option_set() {
        let options = PyDict::new(py);
        options.set_item("players", rules.seats())?;
        for (k, v) in rules.non_default() {
            match v {
                serde_json::Value::Bool(b) => options.set_item(k, b)?,
                serde_json::Value::Number(n) => match n.as_i64() {
                    Some(i) => options.set_item(k, i)?,
                    None => options.set_item(k, n.to_string())?,
                },
                serde_json::Value::String(t) => options.set_item(k, t)?,
                other => options.set_item(k, other.to_string())?,
            }
        }
        out.push((rules.game_name(), options));
    }
    Ok(out)
}
