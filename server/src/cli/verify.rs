//! `calabresella verify`: check that a record's deals are the ones its scheme commits to.

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
    /// A finished tournament's revealed secret (64 hex digits, as `tournament show` gives it):
    /// the records are then checked together as that tournament's, each table's secret derived
    /// from it and every seating of a duplicate deal dealt the same cards.
    #[arg(long, value_name = "HEX")]
    tournament_secret: Option<String>,
}

/// Checks each record: it replays, its secret hashes to its commitment, and every hand's deal
/// is the one derived from the secret, the context and the contributions (or, for a seeded
/// record, from its seed). Prints one line per file; exits with 1 if any fails, naming its
/// first mismatch.
pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let secret = match &args.tournament_secret {
        None => None,
        Some(h) => Some(
            fair::unhex(h.trim())
                .and_then(|b| <[u8; 32]>::try_from(b).ok())
                .ok_or_else(|| anyhow::anyhow!("--tournament-secret: not 64 hex digits"))?,
        ),
    };
    let mut failed = false;
    let mut records = Vec::new();
    for file in &args.files {
        let name = file.display();
        let parsed = super::read_input(file)
            .and_then(|text| Record::parse(&text).map_err(|e| format!("invalid record: {e}")))
            .map(|mut r| {
                // A tournament's table withholds its secret until the tournament is over;
                // with the tournament's secret it is derived (and then checked as any other).
                if let Some(s) = &secret {
                    fair::reveal_table_secret(&mut r, s);
                }
                r
            });
        match parsed.and_then(|r| check(&r).map(|line| (line, r))) {
            Ok((line, r)) => {
                println!("{name}: {line}");
                records.push(r);
            }
            Err(why) => {
                failed = true;
                // One line per file, even if a message held a newline.
                println!("{name}: FAILED: {}", why.replace('\n', " "));
            }
        }
    }
    if let (Some(secret), false) = (secret, failed) {
        match fair::verify_tournament(&secret, &records) {
            Ok(v) => println!("{}", v.summary()),
            Err((i, why)) => {
                failed = true;
                let name = args.files.get(i).map(|f| f.display().to_string());
                println!(
                    "{}: FAILED: {}",
                    name.unwrap_or_default(),
                    why.to_string().replace('\n', " ")
                );
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn check(record: &Record) -> Result<String, String> {
    fair::verify(record)
        .map(|v| v.summary())
        .map_err(|e| e.to_string())
}
