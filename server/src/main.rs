//! `calabresella`: the game service (`serve`), and play, replay, deal and benchmark matches
//! from the command line.

mod cli;

/// mimalloc: under many small, short-lived messages it keeps the server's memory compact and
/// its allocations cheap (glibc's allocator fragments and consolidates under this load).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("calabresella: {e:#}");
            ExitCode::from(2)
        }
    }
}
