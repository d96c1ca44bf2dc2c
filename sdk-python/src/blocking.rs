//! Waiting on the client's tokio runtime from Python: with the GIL released, honouring Ctrl-C.

use std::future::Future;
use std::time::Duration;

use pyo3::prelude::*;
use tokio::runtime::Runtime;
use tonic::Status;

use crate::errors;

/// Runs `fut` on the runtime with the GIL released, checking for Ctrl-C every 100 ms.
pub(crate) fn wait<T: Send>(
    py: Python<'_>,
    rt: &Runtime,
    fut: impl Future<Output = Result<T, Status>> + Send,
) -> PyResult<T> {
    let out: Result<Result<T, Status>, PyErr> = py.detach(|| {
        rt.block_on(async {
            tokio::pin!(fut);
            loop {
                tokio::select! {
                    r = &mut fut => return Ok(r),
                    () = tokio::time::sleep(Duration::from_millis(100)) => {
                        Python::attach(|py| py.check_signals())?;
                    }
                }
            }
        })
    });
    out?.map_err(|s| Python::attach(|py| errors::status(py, &s)))
}
