//! Arguments from Python checked with messages that say what was expected: seeds, output
//! arrays and batches of action ids. (pyo3's own conversions say "can't convert negative int
//! to unsigned" or "'ndarray' object is not an instance of 'ndarray'".)

use numpy::{Element, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

use crate::errors;

/// A seed: any integer from 0 to 2**64 - 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let n: i128 = obj.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "seed must be an integer, got {}",
                type_name(&obj)
            ))
        })?;
        u64::try_from(n)
            .map(Seed)
            .map_err(|_| errors::notation(format!("seed must be between 0 and 2**64 - 1, got {n}")))
    }
}

fn type_name(obj: &Borrowed<'_, '_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an object".into(), |n| n.to_string())
}

/// What `obj` is, for a message: `a 2-d int32 array` or `a list`.
fn describe(obj: &Bound<'_, PyAny>) -> String {
    match (obj.getattr("ndim"), obj.getattr("dtype")) {
        (Ok(ndim), Ok(dtype)) => format!("a {ndim}-d {dtype} array"),
        _ => format!(
            "a {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "object".into(), |n| n.to_string())
        ),
    }
}

/// `obj` as a writable 1-d numpy array of `dtype` (the element type's numpy name), for an
/// `out=` argument; the message says what was expected and what came.
pub fn out_array<'py, T: Element>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    dtype: &str,
    len: usize,
) -> PyResult<Bound<'py, PyArray1<T>>> {
    obj.cast::<PyArray1<T>>().cloned().map_err(|_| {
        errors::notation(format!(
            "{name} must be a 1-d {dtype} numpy array of {len} elements, got {}",
            describe(obj)
        ))
    })
}

/// A batch of action ids: an int64 array as it is, any other integer array or a list of ints
/// converted (no float or bool is taken for an id).
pub fn action_ids<'py>(obj: &Bound<'py, PyAny>, n: usize) -> PyResult<PyReadonlyArray1<'py, i64>> {
    if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, i64>>() {
        return Ok(a);
    }
    let py = obj.py();
    let np = py.import("numpy")?;
    let wrong = || {
        errors::notation(format!(
            "actions must be {n} integer action ids (an integer array or a list of ints), got {}",
            describe(obj)
        ))
    };
    let arr = np.call_method1("asarray", (obj,)).map_err(|_| wrong())?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(wrong());
    }
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(wrong());
    }
    let as64 = arr.call_method1("astype", (np.getattr("int64")?,))?;
    as64.extract::<PyReadonlyArray1<'py, i64>>()
        .map_err(|_| wrong())
}
