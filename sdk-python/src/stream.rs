//! Update streams for Python: a seat's (`RemoteSeat.updates()`) and the public one
//! (`Client.spectate()`), as iterators of plain dicts. Each checks that sequence numbers grow
//! by one (a snapshot starts the count again) and, after a dropped stream or a server restart,
//! opens it again with `resume_after` and the stream epoch, for as long as the play loop would
//! (30 s of outage).

use std::pin::Pin;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use tokio::runtime::Runtime;
use tokio_stream::{Stream, StreamExt};
use tonic::Status;
use tonic::transport::Channel;

use calabresella_client::play::transient;
use calabresella_client::{RECONNECT_FOR, RemoteError, Spectator};
use calabresella_proto::convert;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;

use crate::blocking::wait;
use crate::errors::ConnectionLostError;

/// What a seat's stream needs of the seat (`RemoteSeat` is the one implementation, declared
/// here so that this module does not import the seat's back).
pub trait SeatFeed: Send + Sync {
    /// The runtime, and the seat as it stands (its token, and where its stream stopped).
    fn resume_from(&self, py: Python<'_>) -> (Arc<Runtime>, calabresella_client::RemoteSeat);
    /// Keeps the stream's position on the seat, so that its next stream resumes there.
    fn record(&self, py: Python<'_>, seq: u64, epoch: &str);
}

/// An open stream of updates.
type Updates = Pin<Box<dyn Stream<Item = Result<v1::Update, Status>> + Send>>;

/// Whose updates a stream carries.
enum Feed {
    /// A joined seat's: its numbering is kept on the seat too, so that the next
    /// `RemoteSeat.updates()` resumes where this one stopped.
    Seat(Box<dyn SeatFeed>),
    /// A table's public stream, followed by the client crate's `Spectator` (behind a mutex
    /// only because a Python object must be `Sync`).
    Public(Box<Mutex<Spectator>>),
}

/// The updates of a seat or of a table's public view, in order, as dicts (see `_core.pyi`).
/// Iterating ends after the `match_ended` update. `close()` (or leaving a `with` block) drops
/// the stream; the seat's next `updates()` resumes right after the last update received.
#[pyclass(module = "calabresella._core")]
pub struct UpdateStream {
    rt: Arc<Runtime>,
    feed: Feed,
    /// The stream while open (behind a mutex only because a Python object must be `Sync`).
    open: Mutex<Option<Updates>>,
    /// The last sequence number received (0: none yet).
    #[pyo3(get)]
    last_seq: u64,
    /// The epoch of `last_seq`.
    #[pyo3(get)]
    stream_epoch: String,
    /// How many times the stream was opened again after a drop.
    #[pyo3(get)]
    reconnects: u32,
    ended: bool,
}

impl UpdateStream {
    /// A seat's stream, resuming after the seat's last update.
    pub fn of_seat(py: Python<'_>, seat: Box<dyn SeatFeed>) -> UpdateStream {
        let (rt, s) = seat.resume_from(py);
        let (last_seq, epoch) = (s.last_seq, s.epoch);
        UpdateStream {
            rt,
            feed: Feed::Seat(seat),
            open: Mutex::new(None),
            last_seq,
            stream_epoch: epoch,
            reconnects: 0,
            ended: false,
        }
    }

    /// A table's public stream from its start.
    pub fn public(
        rt: Arc<Runtime>,
        client: TableServiceClient<Channel>,
        table_id: String,
    ) -> UpdateStream {
        UpdateStream {
            rt,
            feed: Feed::Public(Box::new(Mutex::new(Spectator::new(client, &table_id)))),
            open: Mutex::new(None),
            last_seq: 0,
            stream_epoch: String::new(),
            reconnects: 0,
            ended: false,
        }
    }

    /// Opens the seat `s`'s stream after `last_seq`, retrying while the server is unreachable.
    fn connect(&self, py: Python<'_>, mut s: calabresella_client::RemoteSeat) -> PyResult<Updates> {
        s.last_seq = self.last_seq;
        s.epoch.clone_from(&self.stream_epoch);
        wait(py, &self.rt, async move {
            let stream = s.observe().await?;
            Ok(Box::pin(stream.map(|r| r.map(|o| o.update.unwrap_or_default()))) as Updates)
        })
    }

    /// The public stream's next update, through the client crate's `Spectator` (order, resume
    /// and retries are its own).
    fn next_public<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Feed::Public(spectator) = &mut self.feed else {
            return Ok(None);
        };
        let spectator = spectator.get_mut().unwrap_or_else(|e| e.into_inner());
        let next = wait(py, &self.rt, async { Ok(spectator.next().await) })?;
        self.last_seq = spectator.last_seq;
        self.stream_epoch.clone_from(&spectator.epoch);
        self.reconnects = u32::try_from(spectator.reconnects).unwrap_or(u32::MAX);
        match next {
            Ok(Some(u)) => update_dict(py, &u).map(Some),
            Ok(None) => {
                self.ended = true;
                Ok(None)
            }
            Err(RemoteError::Status(s)) => Err(crate::errors::status(py, &s)),
            Err(e) => Err(ConnectionLostError::new_err(e.to_string())),
        }
    }

    /// Checks `u`'s number against the last one and records it (on the seat too).
    fn accept(&mut self, py: Python<'_>, u: &v1::Update) -> PyResult<()> {
        let snapshot = matches!(u.kind, Some(v1::update::Kind::Snapshot(_)));
        if !snapshot && self.last_seq > 0 && u.seq != self.last_seq + 1 {
            return Err(ConnectionLostError::new_err(format!(
                "stream order broken: got update {} after {}",
                u.seq, self.last_seq
            )));
        }
        self.last_seq = u.seq;
        self.stream_epoch.clone_from(&u.stream_epoch);
        if let Feed::Seat(seat) = &self.feed {
            seat.record(py, u.seq, &u.stream_epoch);
        }
        if matches!(u.kind, Some(v1::update::Kind::MatchEnded(_))) {
            self.ended = true;
        }
        Ok(())
    }
}

#[pymethods]
impl UpdateStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let seat = match &self.feed {
            Feed::Seat(seat) => seat.resume_from(py).1,
            Feed::Public(_) if self.ended => return Ok(None),
            Feed::Public(_) => return self.next_public(py),
        };
        let until = tokio::time::Instant::now() + RECONNECT_FOR;
        loop {
            if self.ended {
                self.close();
                return Ok(None);
            }
            let open = self
                .open
                .get_mut()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            let mut stream = match open {
                Some(s) => s,
                None => self.connect(py, seat.clone())?,
            };
            let next = wait(py, &self.rt, async { Ok(stream.next().await) })?;
            match next {
                Some(Ok(u)) => {
                    *self.open.get_mut().unwrap_or_else(|e| e.into_inner()) = Some(stream);
                    self.accept(py, &u)?;
                    return update_dict(py, &u).map(Some);
                }
                // The server ended the stream without `MatchEnded` (it is stopping), or the
                // connection broke: open it again after the last update received, within the
                // same outage window as any other drop.
                None if tokio::time::Instant::now() < until => self.reconnects += 1,
                None => {
                    return Err(ConnectionLostError::new_err(format!(
                        "the stream kept ending before the match for {RECONNECT_FOR:?}"
                    )));
                }
                Some(Err(s)) if transient(&s) && tokio::time::Instant::now() < until => {
                    self.reconnects += 1;
                }
                Some(Err(s)) => return Err(crate::errors::status(py, &s)),
            }
        }
    }

    /// Drops the stream (the server sees the client leave). A seat's next `updates()` resumes
    /// after the last update received here.
    fn close(&mut self) {
        *self.open.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
        self.ended = true;
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        _ty: Option<&Bound<'_, PyAny>>,
        _value: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) -> bool {
        self.close();
        false
    }
}

/// A card's notation ("4c"), or "?" for one the server sent malformed.
fn card_text(c: &v1::Card) -> String {
    convert::card_from_wire(c)
        .map(|c| c.to_string())
        .unwrap_or_else(|_| "?".into())
}

fn cards<'py>(py: Python<'py>, cs: &[v1::Card]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, cs.iter().map(card_text))
}

/// An enum value's name without its prefix, lower-case (`SNAPSHOT_REASON_GAP` -> `gap`).
fn short(name: &str, prefix: &str) -> String {
    name.trim_start_matches(prefix).to_ascii_lowercase()
}

fn turn_dict<'py>(py: Python<'py>, t: &v1::Turn) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("decision", t.decision)?;
    d.set_item("actor", t.actor)?;
    d.set_item("decider", t.decider)?;
    let legal: Vec<&str> = t
        .legal_actions
        .iter()
        .map(|a| a.notation.as_str())
        .collect();
    d.set_item("legal_actions", legal)?;
    d.set_item("remaining_ms", t.remaining_ms)?;
    d.set_item("deadline_unix_ms", t.deadline_unix_ms)?;
    Ok(d)
}

fn result_dict<'py>(py: Python<'py>, r: &v1::MatchResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("winners", r.winners.clone())?;
    d.set_item("draw", r.draw)?;
    d.set_item("totals", convert::totals_of(&r.signed_totals, &r.totals))?;
    d.set_item("hands", r.hands)?;
    d.set_item("forfeited_by", r.forfeited_by)?;
    Ok(d)
}

/// An update as a dict: `seq`, `stream_epoch`, `kind` and the kind's own fields, and
/// `next_turn` (a turn dict or `None`).
fn update_dict<'py>(py: Python<'py>, u: &v1::Update) -> PyResult<Bound<'py, PyDict>> {
    use v1::update::Kind;
    let d = PyDict::new(py);
    d.set_item("seq", u.seq)?;
    d.set_item("stream_epoch", &u.stream_epoch)?;
    let kind = match &u.kind {
        Some(Kind::Snapshot(s)) => {
            let reason = v1::SnapshotReason::try_from(s.reason).unwrap_or_default();
            d.set_item("reason", short(reason.as_str_name(), "SNAPSHOT_REASON_"))?;
            let o = s.observation.clone().unwrap_or_default();
            d.set_item("hand_number", o.hand_number)?;
            d.set_item("hand", cards(py, &o.hand)?)?;
            let visible = PyDict::new(py);
            for v in &o.visible_hands {
                visible.set_item(v.seat, cards(py, &v.cards)?)?;
            }
            d.set_item("visible_hands", visible)?;
            let legal: Vec<&str> = o
                .legal_actions
                .iter()
                .map(|a| a.notation.as_str())
                .collect();
            d.set_item("legal_actions", legal)?;
            d.set_item("totals", convert::totals_of(&o.signed_totals, &o.totals))?;
            let state = s.table.as_ref().map(|t| t.state).unwrap_or_default();
            let state = v1::TableState::try_from(state).unwrap_or_default();
            d.set_item("table_state", short(state.as_str_name(), "TABLE_STATE_"))?;
            d.set_item(
                "turn",
                s.turn.as_ref().map(|t| turn_dict(py, t)).transpose()?,
            )?;
            "snapshot"
        }
        Some(Kind::HandStarted(h)) => {
            d.set_item("hand_number", h.hand_number)?;
            d.set_item("dealer", h.dealer)?;
            "hand_started"
        }
        Some(Kind::Event(e)) => {
            let k = v1::EventKind::try_from(e.kind).unwrap_or_default();
            d.set_item("event", short(k.as_str_name(), "EVENT_KIND_"))?;
            d.set_item("seat", e.seat)?;
            d.set_item("card", e.card.as_ref().map(card_text))?;
            d.set_item("cards", cards(py, &e.cards)?)?;
            d.set_item("action", e.action.as_ref().map(|a| a.notation.clone()))?;
            "event"
        }
        Some(Kind::Turn(t)) => {
            d.set_item("turn", turn_dict(py, t)?)?;
            "turn"
        }
        Some(Kind::TimedOut(t)) => {
            d.set_item("decision", t.decision)?;
            d.set_item("seat", t.seat)?;
            "timed_out"
        }
        Some(Kind::HandRevealed(h)) => {
            d.set_item("hand_number", h.hand_number)?;
            let hands = PyList::empty(py);
            for s in &h.hands {
                hands.append(cards(py, &s.cards)?)?;
            }
            d.set_item("hands", hands)?;
            d.set_item("monte", cards(py, &h.monte)?)?;
            d.set_item("stock", cards(py, &h.stock)?)?;
            "hand_revealed"
        }
        Some(Kind::SeatChanged(s)) => {
            let seat = s.seat.clone().unwrap_or_default();
            d.set_item("seat", seat.seat)?;
            d.set_item("player_name", seat.player_name)?;
            d.set_item("taken", seat.taken)?;
            "seat_changed"
        }
        Some(Kind::MatchEnded(m)) => {
            let reason = v1::EndReason::try_from(m.reason).unwrap_or_default();
            d.set_item("reason", short(reason.as_str_name(), "END_REASON_"))?;
            d.set_item(
                "result",
                m.result.as_ref().map(|r| result_dict(py, r)).transpose()?,
            )?;
            "match_ended"
        }
        None => "unknown",
    };
    d.set_item("kind", kind)?;
    d.set_item(
        "next_turn",
        u.next_turn.as_ref().map(|t| turn_dict(py, t)).transpose()?,
    )?;
    Ok(d)
}
