//! `calabresella bench-store`: the cost of the write-ahead log. Simulated tables each store
//! one action at a time and wait for its commit, exactly as a table does before applying an
//! action; the store groups whatever is queued into one transaction.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use calabresella_server::store::{Location, Store, StoreOptions, StoredAction, Sync, Write};
use serde_json::json;

/// Arguments of `bench-store`.
#[derive(Debug, clap::Args)]
pub struct BenchStoreArgs {
    /// Tables writing at once.
    #[arg(long, default_value_t = 1000)]
    tables: usize,
    /// Seconds each run lasts.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Timed runs; medians are reported.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// SQLite file (default: a fresh one in a temporary directory).
    #[arg(long, conflicts_with = "database_url")]
    db: Option<String>,
    /// PostgreSQL instead: `postgres://...` (a scratch database: tables are added to it).
    #[arg(long)]
    database_url: Option<String>,
    /// SQLite commits: `full` or `normal`.
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    db_sync: String,
}

/// This process's CPU time (user + system).
fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name, which is in parentheses and may hold spaces.
            let rest = s.rsplit_once(')')?.1.split_whitespace().collect::<Vec<_>>();
            let user: u64 = rest.get(11)?.parse().ok()?;
            let system: u64 = rest.get(12)?.parse().ok()?;
            Some(user + system)
        })
        .unwrap_or(0);
    // Linux reports clock ticks of 1/100 s.
    Duration::from_millis(ticks * 10)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Runs the benchmark and prints its JSON.
pub fn run(args: BenchStoreArgs) -> Result<ExitCode> {
    let dir = tempfile::tempdir()?;
    let location = match (&args.database_url, &args.db) {
        (Some(url), _) => Location::Postgres(url.clone()),
        (None, Some(p)) => Location::parse(p),
        (None, None) => Location::Sqlite(dir.path().join("bench.db")),
    };
    let options = StoreOptions {
        location,
        sync: if args.db_sync == "normal" {
            Sync::Normal
        } else {
            Sync::Full
        },
        instance: format!("bench-{}", std::process::id()),
        max_bytes: 0,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let out = rt.block_on(async {
        let store = Store::open(options.clone())
            .await
            .with_context(|| format!("cannot open {}", options.location.describe()))?
            .store;
        let mut per_run = Vec::new();
        let (mut rates, mut latencies, mut cpus) = (Vec::new(), Vec::new(), Vec::new());
        let prefix = format!("b{}", std::process::id());
        for run in 0..args.runs.max(1) {
            let mut tasks = Vec::new();
            let until = Instant::now() + Duration::from_secs_f64(args.seconds);
            let cpu0 = cpu_time();
            let start = Instant::now();
            for t in 0..args.tables {
                let store = store.clone();
                let id = format!("{prefix}-{run}-{t}");
                tasks.push(tokio::spawn(async move {
                    store
                        .write(vec![Write::Table {
                            id: id.clone(),
                            owner: "bench".into(),
                            creator: "bench".into(),
                            game: "calabresella".into(),
                            spec: "{}".into(),
                            created_unix_ms: 0,
                        }])
                        .await?;
                    let mut lat = Vec::new();
                    let mut i = 0u64;
                    while Instant::now() < until {
                        let t0 = Instant::now();
                        store
                            .write(vec![Write::Action {
                                table: id.clone(),
                                index: i,
                                action: StoredAction {
                                    seat: (i % 3) as u8,
                                    action: "Ab".into(),
                                    ms: 1234,
                                    timeout: false,
                                },
                            }])
                            .await?;
                        lat.push(t0.elapsed().as_secs_f64() * 1000.0);
                        i += 1;
                    }
                    anyhow::Ok(lat)
                }));
            }
            let mut all = Vec::new();
            for t in tasks {
                all.extend(t.await??);
            }
            let secs = start.elapsed().as_secs_f64();
            let cpu = (cpu_time() - cpu0).as_secs_f64();
            let n = all.len() as f64;
            all.sort_by(f64::total_cmp);
            let p = |q: f64| all.get(((n - 1.0) * q) as usize).copied().unwrap_or(0.0);
            rates.push(n / secs);
            latencies.push(p(0.5));
            cpus.push(cpu / n.max(1.0) * 1e6);
            per_run.push(json!({
                "actions": n, "seconds": secs, "actions_per_sec": (n / secs).round(),
                "commit_ms_p50": p(0.5), "commit_ms_p99": p(0.99),
                "cpu_us_per_action": cpu / n.max(1.0) * 1e6,
            }));
        }
        anyhow::Ok(json!({
            "store": store.kind(),
            "sync": args.db_sync,
            "tables": args.tables,
            "actions_per_sec": median(rates).round(),
            "commit_ms_p50": median(latencies),
            "cpu_us_per_action": median(cpus),
            "per_run": per_run,
        }))
    })?;
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}
