//! `analyse_record`: where each player lost points in a recorded match (docs/ANALYSIS.md).

use calabresella_engine::record::Record;
use calabresella_engine::search::Budget;
use calabresella_engine::search::analysis::{self, AnalysisOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors;

/// Analyses a record (JSON text) and returns the analysis as JSON text
/// (`calabresella-analysis/1`). `budget`: `pimc` parameters; `budget_ms`: milliseconds per
/// decision instead (machine-dependent); neither: the default budget. Raises
/// `InvalidRecordError` for a record that does not parse or replay, `ValueError` for a bad
/// budget or threshold. The search runs without the GIL.
#[pyfunction]
// `large`: `analysis::DEFAULT_LARGE`, written out so that the signature Python sees shows it.
#[pyo3(signature = (text, *, budget=None, budget_ms=None, seed=0, large=1.0))]
pub fn analyse_record(
    py: Python<'_>,
    text: &str,
    budget: Option<&str>,
    budget_ms: Option<u32>,
    seed: u64,
    large: f64,
) -> PyResult<String> {
    let record = Record::parse(text).map_err(errors::record)?;
    if !(large.is_finite() && large > 0.0) {
        return Err(PyValueError::new_err("large: a number of points above 0"));
    }
    let budget = match (budget, budget_ms) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err("give budget or budget_ms, not both"));
        }
        (Some(spec), None) => Budget::parse(spec),
        (None, Some(ms)) => Budget::parse(&format!("ms={ms}")),
        (None, None) => Ok(analysis::DEFAULT_BUDGET),
    }
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let options = AnalysisOptions {
        budget,
        seed,
        large,
        exact_tricks: None,
    };
    let found = py
        .detach(|| analysis::analyse(&record, &options))
        .map_err(errors::record)?;
    Ok(found.to_json().to_string())
}
