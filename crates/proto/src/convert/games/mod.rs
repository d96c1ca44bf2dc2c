//! Each registered game's own wire mapping: its options message, its events, its observation
//! and its hand results. One module per game module of the engine.

mod calabresella;
mod tressette;
