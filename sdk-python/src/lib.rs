//! `calabresella._core`: the Rust side of the Python package `calabresella`.
//!
//! The Python package (`sdk-python/python/calabresella`) is a thin typed shell over this
//! module: the engine in-process ([`state`], [`observation`]), the tensor encodings
//! ([`encode`]), the batched environment ([`vector`]), the tournament runner ([`tournament`])
//! and the gRPC client ([`client`], [`seat`], [`stream`]). Nothing here holds the GIL while it waits or plays
//! built-in bots.

pub mod analysis;
pub mod args;
pub mod blocking;
pub mod client;
pub mod compete;
pub mod encode;
pub mod errors;
pub mod fair;
pub mod game;
pub mod history;
pub mod observation;
pub mod seat;
pub mod state;
pub mod stream;
pub mod tournament;
pub mod vector;
pub mod view;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<state::State>()?;
    m.add_class::<observation::Observation>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<client::Client>()?;
    m.add_class::<seat::RemoteSeat>()?;
    m.add_class::<stream::UpdateStream>()?;
    m.add_class::<compete::Assignments>()?;
    m.add_function(wrap_pyfunction!(tournament::play_matches, m)?)?;
    m.add_function(wrap_pyfunction!(state::option_sets, m)?)?;
    m.add_function(wrap_pyfunction!(state::game_facts, m)?)?;
    m.add_function(wrap_pyfunction!(fair::verify_record, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::analyse_record, m)?)?;
    m.add("TERMINAL", state::TERMINAL)?;
    m.add("CHANCE", state::CHANCE)?;
    m.add("OBSERVATION_SIZE", encode::OBS_SIZE)?;
    m.add("INFORMATION_STATE_SIZE", encode::INFO_SIZE)?;
    m.add("NUM_ACTIONS", encode::MASK_SIZE)?;
    m.add("ENCODING_VERSION", encode::ENCODING_VERSION)?;
    m.add("OBSERVATION_LAYOUT", encode::OBS_LAYOUT.to_vec())?;
    m.add("INFORMATION_STATE_LAYOUT", encode::INFO_LAYOUT.to_vec())?;
    m.add("BOT_NAMES", calabresella_engine::bots::BOT_NAMES.to_vec())?;
    m.add("GAME_NAMES", calabresella_engine::game::game_names())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
