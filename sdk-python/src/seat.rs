//! `RemoteSeat`, a joined seat on a remote table: fetch observations, act, follow its updates,
//! or run a bot until the match ends (through the client crate's one play loop).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use tokio::runtime::Runtime;
use tonic::Status;

use calabresella_proto::{convert, v1};

use calabresella_client::{Answer, PlayError, PlayReport, RemoteError, RetryPolicy, Strategy};

use crate::blocking::wait;
use crate::errors::{self, BotError, ConnectionLostError};
use crate::observation::{Observation, parse_action};
use crate::stream::{SeatFeed, UpdateStream};
use crate::view::View;

/// A joined seat on a remote table.
#[pyclass(module = "calabresella._core")]
pub struct RemoteSeat {
    pub(crate) rt: Arc<Runtime>,
    pub(crate) inner: calabresella_client::RemoteSeat,
}

/// A Python bot as the play loop's strategy: it reads the seat's full observation as the same
/// `Observation` objects as everywhere else.
struct PyBot {
    bot: Py<PyAny>,
}

impl Strategy for PyBot {
    type Error = PyErr;

    fn wants_observation(&self) -> bool {
        true
    }

    fn choose(
        &mut self,
        _: &v1::Turn,
        observation: Option<&v1::Observation>,
        _: Option<&Status>,
    ) -> Result<Answer, PyErr> {
        let wire = observation.cloned().unwrap_or_default();
        let view =
            View::from_wire(&wire).map_err(|e| errors::notation(format!("server sent {e}")))?;
        let monte = view.monte;
        Python::attach(|py| {
            let o = Observation::from_parts(view, wire);
            let b = self.bot.bind(py);
            let answer = if b.hasattr("act")? {
                b.call_method1("act", (o,))
            } else {
                b.call1((o,))
            };
            let answer = answer.map_err(|e| {
                let err = BotError::new_err(format!("the bot raised: {e}"));
                err.set_cause(py, Some(e));
                err
            })?;
            Ok(match parse_action(&answer, monte.as_ref()) {
                Ok(a) => Answer::Act(convert::action(a, monte.as_ref())),
                Err(_) => Answer::Invalid,
            })
        })
    }

    fn idle(&mut self) -> Result<(), PyErr> {
        Python::attach(|py| py.check_signals())
    }
}

#[pymethods]
impl RemoteSeat {
    /// The table's id.
    #[getter]
    fn table_id(&self) -> String {
        self.inner.table_id.clone()
    }

    /// The seat number.
    #[getter]
    fn seat(&self) -> u32 {
        self.inner.seat
    }

    /// The secret seat token: keep it to carry on with `Client.seat` after a restart.
    #[getter]
    fn token(&self) -> String {
        self.inner.token.clone()
    }

    /// The seat's updates in order, as dicts: the stream opens with a snapshot (or, after
    /// updates were received, resumes right after the last one) and is opened again by itself
    /// after a drop or a server restart.
    fn updates(slf: Py<Self>, py: Python<'_>) -> UpdateStream {
        UpdateStream::of_seat(py, Box::new(slf))
    }

    /// Answers `decision` like `act`, and returns the server's whole reply: `action` (the
    /// notation applied), `duplicate` (this decision had already been answered so: nothing
    /// changed) and `thinking_ms`.
    fn answer<'py>(
        &mut self,
        py: Python<'py>,
        decision: u64,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (obs, _) = self.observation(py)?;
        let monte = obs.monte();
        let a = parse_action(action, monte.as_ref())?;
        let wire = convert::action(a, monte.as_ref());
        let inner = &mut self.inner;
        let r = wait(py, &self.rt, inner.act(decision, wire))?;
        let d = PyDict::new(py);
        d.set_item("action", r.action.map(|a| a.notation).unwrap_or_default())?;
        d.set_item("duplicate", r.duplicate)?;
        d.set_item("thinking_ms", r.thinking_ms)?;
        Ok(d)
    }

    /// The seat's observation now and the number of the decision due:
    /// `(observation, decision)`.
    fn observation(&mut self, py: Python<'_>) -> PyResult<(Observation, u64)> {
        let inner = &mut self.inner;
        let r = wait(py, &self.rt, inner.fetch())?;
        let wire = r.observation.unwrap_or_default();
        let view =
            View::from_wire(&wire).map_err(|e| errors::notation(format!("server sent {e}")))?;
        Ok((Observation::from_parts(view, wire), r.decision))
    }

    /// Answers `decision` with an action (id or string). Safe to retry: the server applies a
    /// decision once.
    fn act(
        &mut self,
        py: Python<'_>,
        decision: u64,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let (obs, _) = self.observation(py)?;
        let monte = obs.monte();
        let a = parse_action(action, monte.as_ref())?;
        let wire = convert::action(a, monte.as_ref());
        let inner = &mut self.inner;
        let r = wait(py, &self.rt, inner.act(decision, wire))?;
        Ok(r.action.map(|a| a.notation).unwrap_or_default())
    }

    /// Plays the seat with `bot` (an object with `act(observation)` or a callable returning an
    /// action id or string) until the match ends; returns a summary dict. The one play loop of
    /// `calabresella_client` does it: the stream is followed in order and resumed after a drop
    /// (an outage may last 30 s in all, from its first failure). After 3 refused answers to one
    /// decision the first legal action is played and counted in `faults`. An exception from
    /// the bot stops play and is raised as `BotError` (the seat stays taken; the table's clock
    /// decides for it).
    fn play<'py>(&mut self, py: Python<'py>, bot: Py<PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let rt = self.rt.clone();
        let inner = &mut self.inner;
        let mut strategy = PyBot { bot };
        let result: Result<PlayReport, PlayError<PyErr>> = py.detach(|| {
            rt.block_on(calabresella_client::play::play(
                inner,
                &mut strategy,
                RetryPolicy::default(),
            ))
        });
        let e = result.map_err(|e| match e {
            PlayError::Strategy(e) => e,
            PlayError::ConnectionLost(why) => ConnectionLostError::new_err(why),
            PlayError::Remote(RemoteError::Status(s)) => errors::status(py, &s),
            PlayError::Remote(e) => ConnectionLostError::new_err(e.to_string()),
        })?;
        let d = PyDict::new(py);
        let r = e.ended.result.unwrap_or_default();
        d.set_item("table_id", &self.inner.table_id)?;
        d.set_item("seat", self.inner.seat)?;
        d.set_item(
            "reason",
            v1::EndReason::try_from(e.ended.reason)
                .map(|x| {
                    x.as_str_name()
                        .trim_start_matches("END_REASON_")
                        .to_ascii_lowercase()
                })
                .unwrap_or_default(),
        )?;
        d.set_item("won", r.winners.contains(&self.inner.seat))?;
        d.set_item("winners", r.winners)?;
        d.set_item("draw", r.draw)?;
        d.set_item("totals", signed(&r.signed_totals, &r.totals))?;
        d.set_item("hands", r.hands)?;
        d.set_item("forfeited_by", r.forfeited_by)?;
        d.set_item("decisions", e.decisions)?;
        d.set_item("faults", e.faults)?;
        d.set_item("reconnects", e.reconnects)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "RemoteSeat(table_id={:?}, seat={})",
            self.inner.table_id, self.inner.seat
        )
    }
}

/// The seat's side of its update stream: where to resume, and the position kept on the seat.
impl SeatFeed for Py<RemoteSeat> {
    fn resume_from(&self, py: Python<'_>) -> (Arc<Runtime>, calabresella_client::RemoteSeat) {
        let s = self.borrow(py);
        (s.rt.clone(), s.inner.clone())
    }

    fn record(&self, py: Python<'_>, seq: u64, epoch: &str) {
        let mut s = self.borrow_mut(py);
        s.inner.last_seq = seq;
        epoch.clone_into(&mut s.inner.epoch);
    }
}

/// Match totals from a server: the signed ones every game fills, or the unsigned ones a server
/// from before the calling games sent.
pub(crate) fn signed(signed: &[i32], unsigned: &[u32]) -> Vec<i32> {
    if signed.is_empty() {
        unsigned.iter().map(|&t| t as i32).collect()
    } else {
        signed.to_vec()
    }
}
