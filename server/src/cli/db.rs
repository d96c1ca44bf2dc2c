//! `calabresella db stats|vacuum`: what the database holds, and keeping it small.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use calabresella_server::store::{self, Location, Store, StoreOptions};
use clap::{Args, Subcommand};

use super::serve;

/// `calabresella db`.
#[derive(Debug, Args)]
pub struct DbArgs {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(Debug, Subcommand)]
enum DbCommand {
    /// Print what the database holds and its size, as JSON (beside a running server too:
    /// nothing is written).
    Stats(Target),
    /// Delete the tables abandoned before their first hand, then give the free space back
    /// to the file system (VACUUM). SQLite: stop the server first (it holds the database).
    Vacuum(VacuumArgs),
}

/// Which database.
#[derive(Debug, Args)]
pub(super) struct Target {
    /// The SQLite database file. Default: the server's
    /// (`$XDG_DATA_HOME/calabresella/calabresella.db` or `~/.local/share/...`).
    #[arg(long, env = "CALABRESELLA_DB", conflicts_with = "database_url")]
    db: Option<String>,
    /// A PostgreSQL database instead: `postgres://user:password@host:port/name`.
    #[arg(long, env = "CALABRESELLA_DATABASE_URL", hide_env_values = true, value_parser = serve::postgres_url)]
    database_url: Option<String>,
}

impl Target {
    pub(super) fn location(&self) -> Location {
        serve::location(self.database_url.as_deref(), self.db.as_deref())
    }
}

#[derive(Debug, Args)]
struct VacuumArgs {
    #[command(flatten)]
    target: Target,
    /// Delete tables abandoned before their first hand that ended at least this many hours
    /// ago (as the server's retention does; 0: every one).
    #[arg(long, default_value_t = 24)]
    abandoned_older_than_h: u64,
}

/// Runs `db`.
pub fn run(args: DbArgs) -> Result<ExitCode> {
    match args.command {
        DbCommand::Stats(target) => {
            let location = target.location();
            let stats = store::read_stats(&location)
                .with_context(|| format!("cannot read the database {}", location.describe()))?;
            println!("{}", serde_json::to_string_pretty(&stats)?);
            Ok(ExitCode::SUCCESS)
        }
        DbCommand::Vacuum(a) => vacuum(a),
    }
}

fn vacuum(args: VacuumArgs) -> Result<ExitCode> {
    let location = args.target.location();
    let place = location.describe();
    if matches!(location, Location::Memory) {
        anyhow::bail!("an in-memory database has nothing to vacuum");
    }
    if let Location::Sqlite(path) = &location
        && !path.is_file()
    {
        anyhow::bail!("there is no database at {}", path.display());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        // The maintenance instance: on PostgreSQL it must not take a running server's lock.
        let opened = Store::open(StoreOptions {
            location,
            instance: "calabresella-db-vacuum".into(),
            ..StoreOptions::default()
        })
        .await
        .with_context(|| format!("cannot open the database {place}"))?;
        let store = opened.store;
        let before = store.stats().await?;
        let keep = Duration::from_secs(args.abandoned_older_than_h.saturating_mul(3600));
        let keep_ms = i64::try_from(keep.as_millis()).unwrap_or(i64::MAX);
        let cutoff = store::now_ms().saturating_sub(keep_ms);
        let deleted = store.prune_abandoned(cutoff).await?;
        store.vacuum().await?;
        let after = store.stats().await?;
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "database": place,
                "abandoned_tables_deleted": deleted,
                "bytes_before": before.bytes,
                "bytes_after": after.bytes,
            }))?
        );
        anyhow::Ok(ExitCode::SUCCESS)
    })
}
