//! The Python `Observation`: one seat's view, the same class in-process and from a server.

use std::sync::OnceLock;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use calabresella_engine::game::AnyObservation;
use calabresella_engine::{Action, Card, Seat};
use calabresella_proto::convert;

use crate::encode::{self, Encode, Features};
use crate::errors;
use crate::game::Game;
use crate::view::{PHASES, View};
use calabresella_proto::v1;
use prost::Message as _;

/// What one seat may know now: its cards, the public history, what the rules let it see of
/// others, and its legal actions when it must decide. Immutable.
///
/// Made in-process, it holds the engine's observation and reads the fields a bot asks for at
/// every decision (the tensor, the legal actions, the hand) straight from the engine; the full
/// view and its wire form are built on first use of any other field (a bot that reads only
/// those pays a few microseconds, not the view's cost). From a server or a pickle it holds the
/// parsed wire observation.
#[pyclass(module = "calabresella._core", frozen)]
pub struct Observation {
    fast: Option<Fast>,
    view: OnceLock<View>,
    wire: OnceLock<v1::Observation>,
}

/// What an in-process observation reads without building the view.
struct Fast {
    /// The engine's observation (the view and the wire form are made from it).
    engine: AnyObservation,
    /// The tensor's features, as the engine gives them for the viewer.
    features: Features,
    /// The viewer's legal actions (empty unless it decides now).
    legal: Vec<(u16, Action)>,
    /// The open monte that `take` ids refer to, when public.
    monte: Option<[Card; 4]>,
}

impl Observation {
    /// The view of `viewer` (`None`: the public view) of the game now; `None` before a deal.
    pub fn of_game(game: &Game, viewer: Option<Seat>) -> Option<Observation> {
        let engine = game.observation(viewer)?;
        let mut legal = Vec::new();
        if viewer.is_some() && game.decider() == viewer {
            game.legal(&mut legal);
        }
        Some(Observation {
            fast: Some(Fast {
                engine,
                features: Features::of_game(game, viewer),
                legal,
                monte: game.monte(),
            }),
            view: OnceLock::new(),
            wire: OnceLock::new(),
        })
    }

    /// An observation read from a server (already parsed).
    pub fn from_parts(view: View, wire: v1::Observation) -> Observation {
        Observation {
            fast: None,
            view: OnceLock::from(view),
            wire: OnceLock::from(wire),
        }
    }

    /// The wire form (built on first use for an in-process observation).
    pub fn wire(&self) -> &v1::Observation {
        self.wire.get_or_init(|| match &self.fast {
            Some(f) => convert::observation(&f.engine),
            // An observation without the engine's is made with both set.
            None => unreachable!("a wire observation keeps its wire form"),
        })
    }

    /// The full view (built on first use for an in-process observation).
    pub fn view(&self) -> &View {
        self.view.get_or_init(|| {
            // The engine's own observations always convert back.
            View::from_wire(self.wire()).unwrap_or_else(|e| unreachable!("engine observation: {e}"))
        })
    }

    /// The viewer's legal actions as `(id, action)`.
    fn legal(&self) -> &[(u16, Action)] {
        match &self.fast {
            Some(f) => &f.legal,
            None => &self.view().legal,
        }
    }

    /// The open monte that `take` action ids refer to, when it is public.
    pub fn monte(&self) -> Option<[Card; 4]> {
        match &self.fast {
            Some(f) => f.monte,
            None => self.view().monte,
        }
    }

    /// The features the observation tensor encodes.
    fn features(&self) -> Features {
        match &self.fast {
            Some(f) => f.features,
            None => Features::of_view(self.view()),
        }
    }
}

/// An action string or id into the engine's action, for the view's legal set.
pub fn parse_action(action: &Bound<'_, PyAny>, monte: Option<&[Card; 4]>) -> PyResult<Action> {
    if let Ok(id) = action.extract::<i64>() {
        let id = u16::try_from(id).map_err(|_| {
            errors::notation(format!(
                "action id {id} is out of range: ids are 0 to {}",
                calabresella_engine::action::NUM_ACTION_IDS - 1
            ))
        })?;
        return Action::from_id(id, monte).map_err(errors::notation);
    }
    if let Ok(text) = action.extract::<String>() {
        return text
            .parse::<Action>()
            .map_err(|e| errors::notation(format!("{text:?}: {e}")));
    }
    Err(errors::notation(format!(
        "an action is an int id or a string like \"play 3b\", not {}",
        action.get_type().name()?
    )))
}

fn seat(s: Option<calabresella_engine::Seat>) -> Option<usize> {
    s.map(|s| s.index())
}

fn cards(set: calabresella_engine::CardSet) -> Vec<String> {
    set.display_order()
        .into_iter()
        .map(|c| c.to_string())
        .collect()
}

#[pymethods]
impl Observation {
    /// Pickling: the wire observation it was read from (protobuf bytes).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, pyo3::types::PyBytes>,))> {
        let restore = py.get_type::<Observation>().getattr("_from_wire")?;
        let bytes = pyo3::types::PyBytes::new(py, &self.wire().encode_to_vec());
        Ok((restore, (bytes,)))
    }

    /// The observation pickled as `bytes` (see `__reduce__`).
    #[staticmethod]
    fn _from_wire(bytes: &[u8]) -> PyResult<Observation> {
        let wire = v1::Observation::decode(bytes)
            .map_err(|e| errors::notation(format!("not an Observation pickle: {e}")))?;
        let view = View::from_wire(&wire)
            .map_err(|e| errors::notation(format!("not an Observation pickle: {e}")))?;
        Ok(Observation::from_parts(view, wire))
    }

    /// The observation a server sends as proto3 JSON (a submitted bot's turn carries one:
    /// docs/SUBMISSIONS.md); `text` is that JSON. Raises `NotationError` for anything else.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Observation> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| errors::notation(format!("not JSON: {e}")))?;
        let wire: v1::Observation =
            calabresella_proto::json::from_json(&value, "calabresella.v1.Observation")
                .map_err(|e| errors::notation(e.to_string()))?;
        let view = View::from_wire(&wire)
            .map_err(|e| errors::notation(format!("not an observation: {e}")))?;
        Ok(Observation::from_parts(view, wire))
    }

    /// The observation as proto3 JSON, as a server sends it (`from_json` reads it back).
    fn to_json(&self) -> PyResult<String> {
        calabresella_proto::json::to_json(self.wire(), "calabresella.v1.Observation")
            .map(|v| v.to_string())
            .map_err(|e| errors::notation(e.to_string()))
    }

    /// The notation of `action` (an id or a string, as a bot returns it), as a server takes
    /// it: `"play 3b"`. Raises `NotationError` for what names no action.
    fn notation(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(parse_action(action, self.monte().as_ref())?.to_string())
    }

    /// The game: `calabresella`, `tressette` or `tressette-in-due`.
    #[getter]
    fn game(&self) -> &'static str {
        self.view().rules.game_name()
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.view().players()
    }

    /// The seat whose view this is; `None` for the public (spectator) view.
    #[getter]
    fn viewer(&self) -> Option<usize> {
        seat(self.view().viewer)
    }

    /// 0-based number of the hand in the match.
    #[getter]
    fn hand_number(&self) -> u32 {
        self.view().hand_number
    }

    /// The dealer of this hand.
    #[getter]
    fn dealer(&self) -> usize {
        self.view().dealer.index()
    }

    /// The idle dealer in four-player Calabresella.
    #[getter]
    fn idle(&self) -> Option<usize> {
        seat(self.view().idle)
    }

    /// Match totals: per seat in Calabresella and the calling games (signed there), per side
    /// in Tressette.
    #[getter]
    fn totals(&self) -> Vec<i32> {
        self.view().totals.clone()
    }

    /// What the hand waits for: auction, call, return, discard, take, play or over.
    #[getter]
    fn phase(&self) -> &'static str {
        PHASES[usize::from(self.view().phase.min(6))]
    }

    /// Whose decision it is (in Calabresella a due possibly the dummy's seat).
    #[getter]
    fn actor(&self) -> Option<usize> {
        seat(self.view().actor)
    }

    /// Who takes the decision: the actor, or the person playing the dummy.
    #[getter]
    fn decider(&self) -> Option<usize> {
        seat(self.view().decider)
    }

    /// The highest bid so far as `(seat, bid)`: a contract (`chiamo`, `solo`...), or in
    /// Briscola Chiamata a rank or points (`A`, `2 80`, `75`).
    #[getter]
    fn highest_bid(&self) -> Option<(usize, String)> {
        self.view()
            .highest_bid
            .map(|(s, c)| (s.index(), c.to_string()))
            .or_else(|| {
                self.view()
                    .highest_promise
                    .map(|(s, p)| (s.index(), p.to_string()))
            })
    }

    /// Calling games: the winning bid (`chiamo`, `solo`, `A`, `2 80`, `75`); `None` before the
    /// auction is won and with four players (the eldest calls without bidding).
    #[getter]
    fn bid(&self) -> Option<String> {
        self.view().promise.map(|p| p.to_string()).or_else(|| {
            self.view()
                .contract
                .filter(|_| self.view().target > 0)
                .map(|c| c.to_string())
        })
    }

    /// Briscola Chiamata: the trump suit's letter (`b`, `c`, `d`, `s`) once called.
    #[getter]
    fn trump(&self) -> Option<String> {
        self.view().trump.map(|s| s.letter().to_string())
    }

    /// Calling games: the partner's seat, once the called card has been played or in the
    /// holder's own view; `None` otherwise (the partner is secret).
    #[getter]
    fn partner(&self) -> Option<usize> {
        seat(self.view().partner)
    }

    /// Calling games: whether the caller plays alone, as far as this viewer knows.
    #[getter]
    fn alone(&self) -> bool {
        self.view().alone
    }

    /// Calling games: what the caller's side needs (6 points; 61 or the bid's card points);
    /// `None` before the auction is won and in the other games.
    #[getter]
    fn target(&self) -> Option<u32> {
        (self.view().target > 0).then_some(self.view().target)
    }

    /// Calling games: the viewer's role: `caller`, `partner`, `defender` or `caller_alone`.
    #[getter]
    fn role(&self) -> Option<&'static str> {
        self.view().role
    }

    /// Calling games: points each seat has captured so far (thirds in Tressette con la
    /// Chiamata, card points in Briscola Chiamata); empty in the other games.
    #[getter]
    fn seat_points(&self) -> Vec<u32> {
        self.view().seat_points.clone()
    }

    /// The soloist once the auction is over.
    #[getter]
    fn soloist(&self) -> Option<usize> {
        seat(self.view().soloist)
    }

    /// The contract once the auction is over.
    #[getter]
    fn contract(&self) -> Option<String> {
        self.view().contract.map(|c| c.to_string())
    }

    /// The called card in Chiamo.
    #[getter]
    fn called(&self) -> Option<String> {
        self.view().called.map(|c| c.to_string())
    }

    /// The viewer's cards, in display order.
    #[getter]
    fn hand(&self) -> Vec<String> {
        cards(self.features().own)
    }

    /// Other seats' hands this viewer may see (the a due dummy, the aperta partner).
    #[getter]
    fn visible_hands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for &(s, c) in &self.view().visible_hands {
            d.set_item(s.index(), cards(c))?;
        }
        Ok(d)
    }

    /// How many cards each seat holds.
    #[getter]
    fn hand_sizes(&self) -> Vec<u8> {
        self.view().hand_sizes.clone()
    }

    /// The trick in progress as `(seat, card)` in play order.
    #[getter]
    fn trick(&self) -> Vec<(usize, String)> {
        self.view()
            .trick
            .iter()
            .map(|(s, c)| (s.index(), c.to_string()))
            .collect()
    }

    /// Completed tricks this hand.
    #[getter]
    fn tricks_done(&self) -> u8 {
        self.view().tricks_done
    }

    /// Calabresella: tricks won so far, `[soloist, defenders]`.
    #[getter]
    fn side_tricks(&self) -> [u32; 2] {
        self.view().side_tricks
    }

    /// Tressette in Due: cards left in the stock.
    #[getter]
    fn stock_left(&self) -> u8 {
        self.view().stock_left
    }

    /// Everything that happened this hand as this viewer may see it, as text, in order.
    #[getter]
    fn events(&self) -> Vec<String> {
        self.view().events.clone()
    }

    /// The viewer's legal actions as numeric ids (empty unless it must decide now).
    #[getter]
    fn legal_actions(&self) -> Vec<u16> {
        self.legal().iter().map(|&(id, _)| id).collect()
    }

    /// The viewer's legal actions as action strings, in the same order as `legal_actions`.
    #[getter]
    fn legal_action_strings(&self) -> Vec<String> {
        self.legal().iter().map(|(_, a)| a.to_string()).collect()
    }

    /// The hand's result as text once it is over.
    #[getter]
    fn outcome(&self) -> Option<String> {
        self.view().outcome.clone()
    }

    /// The hand's award once over: per seat (Calabresella) or per side (Tressette).
    #[getter]
    fn award(&self) -> Option<Vec<i32>> {
        self.view().award.clone()
    }

    /// Results of the match's earlier hands, as text.
    #[getter]
    fn previous(&self) -> Vec<String> {
        self.view().previous.clone()
    }

    /// The action string of a numeric id.
    fn action_to_string(&self, action: u16) -> PyResult<String> {
        Action::from_id(action, self.monte().as_ref())
            .map(|a| a.to_string())
            .map_err(errors::notation)
    }

    /// The numeric id of an action string (or id).
    fn string_to_action(&self, action: &Bound<'_, PyAny>) -> PyResult<u16> {
        let monte = self.monte();
        let a = parse_action(action, monte.as_ref())?;
        a.to_id(monte.as_ref()).map_err(errors::notation)
    }

    /// The observation tensor (float32, length `OBSERVATION_SIZE`; layout in the README).
    fn tensor<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let arr = PyArray1::<f32>::zeros(py, encode::OBS_SIZE, false);
        let mut rw = arr.readwrite();
        if let Ok(out) = rw.as_slice_mut() {
            self.features().encode(out);
        }
        drop(rw);
        arr
    }

    /// The information-state tensor: the observation tensor followed by the public history
    /// (float32, length `INFORMATION_STATE_SIZE`).
    fn information_state_tensor<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let arr = PyArray1::<f32>::zeros(py, encode::INFO_SIZE, false);
        let mut rw = arr.readwrite();
        if let Ok(out) = rw.as_slice_mut() {
            match &self.fast {
                Some(f) => encode::encode_info_engine(&f.features, &f.engine, out),
                None => encode::encode_info(self.view(), out),
            }
        }
        drop(rw);
        arr
    }

    /// The legal-action mask (bool, length `NUM_ACTIONS`).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; encode::MASK_SIZE];
        for &(id, _) in self.legal() {
            mask[usize::from(id)] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    fn __repr__(&self) -> String {
        format!(
            "Observation(game='{}', viewer={}, hand_number={}, phase='{}', hand='{}', legal={})",
            self.view().rules.game_name(),
            self.view()
                .viewer
                .map_or("None".to_owned(), |s| s.index().to_string()),
            self.view().hand_number,
            PHASES[usize::from(self.view().phase.min(6))],
            cards(self.view().hand).join(" "),
            self.view().legal.len()
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Observation>()
            .is_ok_and(|o| o.get().view() == self.view())
    }
}
