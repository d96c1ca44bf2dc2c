//! `verify_record`: the committed deal scheme's check of a record (docs/RECORDS.md, "Deals").

use calabresella_engine::fair::{self, Dealing, VerifyError};
use calabresella_engine::record::Record;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;

/// Checks a record's deals (JSON text): it replays, its secret hashes to its commitment and
/// every hand's deal is the one its scheme derives (a seeded record: its seed's). Returns a
/// dict (`scheme`, `hands`, `commitment`, `seed`, `summary`); raises `DealMismatchError`
/// naming the first mismatch, or `InvalidRecordError` for a record that does not parse or
/// replay.
#[pyfunction]
pub fn verify_record<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
    let record = Record::parse(text).map_err(errors::record)?;
    let verified = py.detach(|| fair::verify(&record)).map_err(|e| match e {
        VerifyError::Record(why) => errors::record(why),
        other => errors::deal_mismatch(other),
    })?;
    let d = PyDict::new(py);
    match &verified.dealing {
        Dealing::Committed { commitment, .. } => {
            d.set_item("scheme", fair::SCHEME)?;
            d.set_item("commitment", fair::hex(commitment))?;
            d.set_item("seed", py.None())?;
        }
        Dealing::Seed(seed) => {
            d.set_item("scheme", fair::SEEDED)?;
            d.set_item("commitment", py.None())?;
            d.set_item("seed", *seed)?;
        }
    }
    d.set_item("hands", verified.hands)?;
    d.set_item("summary", verified.summary())?;
    Ok(d)
}
