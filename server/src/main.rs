//! `calabresella`: the game service (`serve`), and play, replay, deal and benchmark matches
//! from the command line.

mod cli;

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
