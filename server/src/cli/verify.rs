//! `calabresella verify`: check that a record's deals are the ones its scheme commits to.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use calabresella_engine::fair;
use calabresella_engine::record::Record;

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The record files (`-` for standard input), as `table-record` or `GetRecord` give them.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Checks each record: it replays, its secret hashes to its commitment, and every hand's deal
/// is the one derived from the secret, the context and the contributions (or, for a seeded
/// record, from its seed). Prints one line per file; exits with 1 if any fails, naming its
/// first mismatch.
pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let mut failed = false;
    for file in &args.files {
        let name = file.display();
        match read(file).and_then(|text| check(&text)) {
            Ok(line) => println!("{name}: {line}"),
            Err(why) => {
                failed = true;
                // One line per file, even if a message held a newline.
                println!("{name}: FAILED: {}", why.replace('\n', " "));
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn read(file: &PathBuf) -> Result<String, String> {
    let mut bytes = Vec::new();
    let read = if file.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(file)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map(|_| ())
    };
    read.map_err(|e| format!("cannot read it: {e}"))?;
    String::from_utf8(bytes).map_err(|_| "not valid UTF-8 text".to_owned())
}

fn check(text: &str) -> Result<String, String> {
    let record = Record::parse(text).map_err(|e| format!("invalid record: {e}"))?;
    fair::verify(&record)
        .map(|v| v.summary())
        .map_err(|e| e.to_string())
}
