//! Competitions from Python: `Client.compete` (the tables a tournament schedules for the
//! registered player, as an iterator) and `Client.seek` (matchmaking). The Python
//! `calabresella.compete` plays them with a bot, reconnecting as needed.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use tokio::runtime::Runtime;
use tokio_stream::{Stream, StreamExt};
use tonic::Status;

use calabresella_proto::v1;

use crate::blocking::wait;

type Assigned = Pin<Box<dyn Stream<Item = Result<v1::CompeteResponse, Status>> + Send>>;

/// An assignment as a dict: `table_id`, `seat`, `seat_token`, `tournament_id`.
pub fn assignment_dict<'py>(py: Python<'py>, a: &v1::Assignment) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("table_id", &a.table_id)?;
    d.set_item("seat", a.seat)?;
    d.set_item("seat_token", &a.seat_token)?;
    d.set_item("tournament_id", &a.tournament_id)?;
    Ok(d)
}

/// The tables the server schedules for a registered player (`Client.compete`): iterate, or
/// call `next(timeout)`. Ends (StopIteration) when the server closes the call; raises
/// `ConnectionLostError` or `ServerError` when it fails.
#[pyclass(module = "calabresella._core")]
pub struct Assignments {
    rt: Arc<Runtime>,
    /// The call while open (behind a mutex only because a Python object must be `Sync`).
    open: Mutex<Option<Assigned>>,
}

impl Assignments {
    /// A call already opened.
    pub fn new(rt: Arc<Runtime>, stream: Assigned) -> Assignments {
        Assignments {
            rt,
            open: Mutex::new(Some(stream)),
        }
    }
}

#[pymethods]
impl Assignments {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.next(py, None)
    }

    /// The next table, or `None` when `timeout` seconds pass first (or the call has ended).
    #[pyo3(signature = (timeout = None))]
    fn next<'py>(
        &mut self,
        py: Python<'py>,
        timeout: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let open = self.open.get_mut().unwrap_or_else(|e| e.into_inner());
        let Some(stream) = open.as_mut() else {
            return Ok(None);
        };
        let limit = timeout.map(|t| Duration::from_secs_f64(t.clamp(0.0, 86_400.0)));
        let next = wait(py, &self.rt, async move {
            match limit {
                Some(l) => Ok(tokio::time::timeout(l, stream.next()).await.ok()),
                None => Ok(Some(stream.next().await)),
            }
        })?;
        match next {
            // The timeout passed.
            None => Ok(None),
            Some(None) => {
                *open = None;
                Ok(None)
            }
            Some(Some(Ok(r))) => match r.assignment {
                Some(a) => assignment_dict(py, &a).map(Some),
                None => Ok(None),
            },
            Some(Some(Err(s))) => {
                *open = None;
                Err(crate::errors::status(py, &s))
            }
        }
    }

    /// Whether the call has ended (the server closed it, it failed, or `close` was called).
    #[getter]
    fn closed(&mut self) -> bool {
        self.open
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }

    /// Closes the call (the server counts it as a disconnect if tables are in play).
    fn close(&mut self) {
        *self.open.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// Seeks a match and waits for the seat (`Client.seek`).
pub fn seek<'py>(
    py: Python<'py>,
    rt: &Runtime,
    client: calabresella_proto::v1::table_service_client::TableServiceClient<
        tonic::transport::Channel,
    >,
    key: Option<String>,
    request: v1::SeekRequest,
) -> PyResult<Bound<'py, PyDict>> {
    let mut c = client;
    let seated = wait(py, rt, async move {
        let mut r = tonic::Request::new(request);
        calabresella_client::authorize(&mut r, key.as_deref())?;
        let mut stream = c.seek(r).await?.into_inner();
        while let Some(m) = stream.next().await {
            if let Some(v1::seek_response::Event::Seated(a)) = m?.event {
                return Ok(a);
            }
        }
        Err(Status::unavailable("the seek ended without a seat"))
    })?;
    assignment_dict(py, &seated)
}
