//! `calabresella players add|list|disable|enable|rotate`: registered players and their API
//! keys, managed in the database directly (beside a running server too).

use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_server::store::{self, players};
use clap::{Args, Subcommand};

use super::db::Target;

/// `calabresella players`.
#[derive(Debug, Args)]
pub struct PlayersArgs {
    #[command(subcommand)]
    command: PlayersCommand,
}

#[derive(Debug, Subcommand)]
enum PlayersCommand {
    /// Register a player and print its API key, once: the database keeps only its hash.
    Add(Named),
    /// List the registered players (name, state, dates) as JSON; no keys.
    List(Target),
    /// Refuse a player's key (its tables and results stay).
    Disable(Named),
    /// Accept a disabled player's key again.
    Enable(Named),
    /// Give a player a new key and print it once; the old key stops working.
    Rotate(Named),
}

#[derive(Debug, Args)]
struct Named {
    /// The player's name.
    name: String,
    #[command(flatten)]
    target: Target,
}

/// Runs `players`.
pub fn run(args: PlayersArgs) -> Result<ExitCode> {
    let target = match &args.command {
        PlayersCommand::List(t) => t,
        PlayersCommand::Add(n)
        | PlayersCommand::Disable(n)
        | PlayersCommand::Enable(n)
        | PlayersCommand::Rotate(n) => &n.target,
    };
    let location = target.location();
    // Only `add` makes a database: a mistyped path elsewhere is an error, not a new file.
    if !matches!(args.command, PlayersCommand::Add(_))
        && let store::Location::Sqlite(path) = &location
        && !path.is_file()
    {
        anyhow::bail!("there is no database at {}", path.display());
    }
    let mut conn = store::open_beside(&location)
        .with_context(|| format!("cannot open the database {}", location.describe()))?;
    let conn = conn.as_mut();
    match args.command {
        PlayersCommand::Add(n) => {
            let key = players::add(conn, &n.name)?;
            print_key(&n.name, &key);
        }
        PlayersCommand::Rotate(n) => {
            let key = players::rotate(conn, &n.name)?;
            print_key(&n.name, &key);
        }
        PlayersCommand::Disable(n) => {
            players::set_disabled(conn, &n.name, true)?;
            eprintln!(
                "{}: disabled in {} (its key is refused from now on)",
                n.name.trim(),
                location.describe()
            );
        }
        PlayersCommand::Enable(n) => {
            players::set_disabled(conn, &n.name, false)?;
            eprintln!("{}: enabled in {}", n.name.trim(), location.describe());
        }
        PlayersCommand::List(_) => {
            let list: Vec<serde_json::Value> = players::list(conn)?
                .into_iter()
                .map(|p| {
                    serde_json::json!({
                        "name": p.name,
                        "disabled": p.disabled,
                        "created_unix_ms": p.created_unix_ms,
                        "key_unix_ms": p.key_unix_ms,
                    })
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&list)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The key on standard output alone (for scripts), what to do with it on standard error.
fn print_key(name: &str, key: &str) {
    println!("{key}");
    eprintln!(
        "{}: the API key above is shown once; the server keeps only its hash. A bot sends it \
         as `authorization: Bearer <key>` (Python: connect(address, key=...)).",
        name.trim()
    );
}
