//! `calabresella replay`: check a record and print the replay JSON.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use calabresella_engine::record::{Record, replay_json};

/// Arguments of `replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The record file, or `-` for standard input.
    file: PathBuf,
}

/// Replays the record; an invalid one prints one line on standard error and exits with 1.
pub fn run(args: ReplayArgs) -> Result<ExitCode> {
    let mut bytes = Vec::new();
    let read = if args.file.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(&args.file)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map(|_| ())
    };
    if let Err(e) = read {
        eprintln!("cannot read {}: {e}", args.file.display());
        return Ok(ExitCode::from(1));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("record: not valid UTF-8 text");
        return Ok(ExitCode::from(1));
    };
    match Record::parse(&text).and_then(|r| replay_json(&r)) {
        Ok(report) => {
            println!("{}", serde_json::to_string_pretty(&report)?);
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            // One line, as the record format promises, even if a message held a newline.
            eprintln!("{}", e.to_string().replace('\n', " "));
            Ok(ExitCode::from(1))
        }
    }
}
