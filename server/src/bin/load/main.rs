//! `calabresella-load`: a load generator. It keeps N tables busy with remote bot clients (each
//! seat a gRPC client with its own stream, as real bots would be) over loopback, and reports
//! completed matches/s, actions/s, the p50/p99 latency of `Act`, the server's memory per
//! active table and its CPU time per action (from the kernel's accounting of the server
//! process). Without `--server` it starts `calabresella serve` itself (pinned to the cores of
//! `--server-cpus` when given) so it can read the server process's memory and CPU time.
//!
//! With `--abuse`, hostile clients from 127.0.0.2 attack the server meanwhile (`abuse.rs`),
//! and the report adds what they did, how the server answered, and its peak memory: the
//! measured tables' `Act` latency is then the figure a player sees under attack.

mod abuse;
mod attack;

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use calabresella_client::RemoteSeat;
use calabresella_engine::rng::GameRng;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use clap::Parser;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tonic::transport::Channel;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Load generator for the Calabresella game service.
#[derive(Debug, Parser)]
#[command(name = "calabresella-load", version, about)]
struct Args {
    /// Server address (http://HOST:PORT, or https:// for TLS). Unset: start `calabresella
    /// serve` on a free port.
    #[arg(long)]
    server: Option<String>,
    /// With `--server https://...`: the CA certificate (PEM) to verify it against.
    #[arg(long, requires = "server")]
    ca_cert: Option<std::path::PathBuf>,
    /// The server this starts speaks TLS (a throwaway certificate), to measure what TLS costs.
    #[arg(long, conflicts_with = "server")]
    tls: bool,
    /// Tables kept in play at once; a finished match is replaced by a new table.
    #[arg(long, default_value_t = 1000)]
    tables: usize,
    /// Seconds measured, after the warm-up.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Seconds of warm-up (not measured): every table is created and playing.
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// HTTP/2 connections the clients share.
    #[arg(long, default_value_t = 8)]
    connections: usize,
    /// The game: calabresella, tressette or tressette-in-due.
    #[arg(long, default_value = "calabresella")]
    game: String,
    /// Client worker threads (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Extra flags for the `calabresella serve` this starts (e.g. `--seat-buffer=32`).
    #[arg(long = "serve-arg", allow_hyphen_values = true)]
    serve_args: Vec<String>,
    /// Pin the server this starts to these cores (`taskset -c LIST`, e.g. `0`), so its CPU
    /// time per action is measured apart from the load generator's (run it pinned elsewhere).
    #[arg(long)]
    server_cpus: Option<String>,
    /// With `--server`: the server's process id, to read its CPU time and memory.
    #[arg(long, requires = "server")]
    server_pid: Option<u32>,
    /// Attack the server from 127.0.0.2 while the tables are measured: floods, garbage,
    /// tables and streams past every budget, silent and slow connections.
    #[arg(long)]
    abuse: bool,
    /// With `--abuse`: hostile tasks running at once.
    #[arg(long, default_value_t = 4, requires = "abuse")]
    abuse_tasks: usize,
}

#[derive(Default)]
struct Stats {
    measuring: AtomicBool,
    stop: AtomicBool,
    actions: AtomicU64,
    matches: AtomicU64,
    errors: AtomicU64,
    latencies: std::sync::Mutex<Vec<u32>>,
}

fn game(name: &str) -> Result<v1::Game> {
    Ok(calabresella_proto::convert::game_by_name(name)
        .ok_or_else(|| calabresella_engine::game::RulesError::UnknownGame(name.into()))?)
}

/// Resident memory of process `pid` in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time (user and system) process `pid` has used, in seconds. `/proc/PID/stat` counts it
/// in clock ticks of `USER_HZ`, which Linux fixes at 100 for every architecture's /proc.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11); // utime is field 14, state field 3
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// Plays one match at a new table with every seat a remote client.
async fn one_match(
    client: &TableServiceClient<Channel>,
    g: v1::Game,
    seed: u64,
    stats: &Arc<Stats>,
) -> Result<()> {
    let mut c = client.clone();
    let table = c
        .create_table(v1::CreateTableRequest {
            name: "load".into(),
            options: Some(v1::GameOptions {
                settings: Default::default(),
                game: g as i32,
                rules: None,
            }),
            ..Default::default()
        })
        .await?
        .into_inner()
        .table
        .context("no table")?;
    let mut seats = Vec::new();
    for s in &table.seats {
        let mut seat = RemoteSeat::join(c.clone(), &table.table_id, Some(s.seat), "load").await?;
        seat.act_times = Some(Vec::with_capacity(256));
        seats.push(seat);
    }
    let mut tasks = Vec::new();
    for (i, mut seat) in seats.into_iter().enumerate() {
        let mut rng = GameRng::from_seed(seed ^ (i as u64) << 32);
        let stats = stats.clone();
        tasks.push(tokio::spawn(async move {
            let r = seat
                .play(
                    |t, rejected| {
                        // Counted as it is sent, so a window shorter than a match still
                        // counts the actions taken in it (a refused answer's retry is not
                        // another action).
                        if rejected.is_none() && stats.measuring.load(Ordering::Relaxed) {
                            stats.actions.fetch_add(1, Ordering::Relaxed);
                        }
                        let a = &t.legal_actions[rng.below(t.legal_actions.len() as u32) as usize];
                        v1::Action {
                            id: a.id,
                            notation: a.notation.clone(),
                            ..Default::default()
                        }
                    },
                    |_| {},
                )
                .await;
            (r, seat.act_times.take().unwrap_or_default())
        }));
    }
    for t in tasks {
        let (r, times) = t.await?;
        r?;
        if stats.measuring.load(Ordering::Relaxed) {
            let mut l = stats.latencies.lock().unwrap_or_else(|e| e.into_inner());
            l.extend(times.iter().map(|d| d.as_micros() as u32));
        }
    }
    if stats.measuring.load(Ordering::Relaxed) {
        stats.matches.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

fn main() -> Result<()> {
    let args = Args::parse();
    let g = game(&args.game)?;
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if let Some(t) = args.threads {
        rt.worker_threads(t);
    }
    rt.enable_all().build()?.block_on(run(args, g))
}

async fn run(args: Args, g: v1::Game) -> Result<()> {
    // The server: given, or started here so its memory can be read.
    let mut child = None;
    let db_dir = tempfile::tempdir()?;
    let mut ca_cert = args.ca_cert.clone();
    let url = match &args.server {
        Some(u) => u.clone(),
        None => {
            let exe = std::env::current_exe()?.with_file_name("calabresella");
            // taskset execs the server: the child's pid is the server's.
            let mut c = match &args.server_cpus {
                Some(cpus) => {
                    let mut c = tokio::process::Command::new("taskset");
                    c.args(["-c", cpus]).arg(&exe);
                    c
                }
                None => tokio::process::Command::new(&exe),
            };
            c.args(["serve", "--listen", "127.0.0.1:0", "--log", "warn"]);
            // A fresh database of its own, so the measurement includes the store.
            if !args
                .serve_args
                .iter()
                .any(|a| a == "--db" || a.starts_with("--db=") || a.starts_with("--database-url"))
            {
                c.arg("--db").arg(db_dir.path().join("load.db"));
            }
            if args.tls {
                let certs = db_dir.path().join("certs");
                calabresella_server::tls::dev_certs::DevCerts::generate(&["127.0.0.1".to_owned()])?
                    .write(&certs)?;
                c.arg("--tls-cert").arg(certs.join("server.pem"));
                c.arg("--tls-key").arg(certs.join("server.key"));
                ca_cert = Some(certs.join("ca.pem"));
            }
            c.args(["--max-tables", &(args.tables * 4 + 100).to_string()]);
            if args.abuse {
                // Every per-client budget stays as served, for the attackers to meet; the
                // connection guard's timeouts are short, so that its evictions are seen.
                c.args(["--handshake-timeout-ms", "2000", "--idle-timeout-s", "5"]);
            } else {
                // One address plays every table: the per-client limits would cap the load.
                c.args(["--max-open-tables-per-client", "0"])
                    .args(["--max-creates-per-client-per-minute", "0"])
                    .args(["--max-calls-per-client", "0"]);
            }
            let mut c = c
                // Finished tables leave at once, so memory counts only tables in play.
                .args(["--finished-ttl-s", "0"])
                .args(&args.serve_args)
                .stdout(Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .with_context(|| format!("cannot start {}", exe.display()))?;
            let out = c.stdout.take().context("no stdout")?;
            let mut lines = BufReader::new(out).lines();
            let line = lines
                .next_line()
                .await?
                .context("the server printed nothing")?;
            // "calabresella: listening on ADDR", with " (TLS)" after it for TLS.
            let addr = line
                .split(' ')
                .nth(3)
                .context("no address in the server's first line")?
                .to_owned();
            child = Some(c);
            let scheme = if args.tls { "https" } else { "http" };
            format!("{scheme}://{addr}")
        }
    };
    let pid = child.as_ref().and_then(|c| c.id()).or(args.server_pid);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let baseline = pid.and_then(rss_kib);
    let mut clients = Vec::new();
    for _ in 0..args.connections.max(1) {
        let tls = calabresella_client::TlsFiles::ca(ca_cert.as_deref());
        let ch = calabresella_client::endpoint(&url, &tls, Duration::from_secs(10))?
            .connect()
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot connect to {url}: {}",
                    calabresella_client::error_chain(&e)
                )
            })?;
        clients.push(TableServiceClient::new(ch));
    }
    let stats = Arc::new(Stats::default());
    let tally = Arc::new(std::sync::Mutex::new(abuse::Tally::default()));
    let attackers = if args.abuse {
        let addr = url
            .rsplit("://")
            .next()
            .and_then(|a| a.parse::<std::net::SocketAddr>().ok())
            .context("--abuse needs the server's address as IP:PORT")?;
        let stop = Arc::new(AtomicBool::new(false));
        let tasks = abuse::spawn(
            url.clone(),
            addr,
            ca_cert.clone(),
            args.abuse_tasks,
            stop.clone(),
            tally.clone(),
        );
        Some((stop, tasks))
    } else {
        None
    };
    let mut workers = Vec::new();
    let abusing = args.abuse;
    for i in 0..args.tables {
        let client = clients[i % clients.len()].clone();
        let stats = stats.clone();
        workers.push(tokio::spawn(async move {
            let mut n = 0u64;
            while !stats.stop.load(Ordering::Relaxed) {
                let began = Instant::now();
                let seed = (i as u64) << 20 | n;
                if let Err(e) = one_match(&client, g, seed, &stats).await {
                    if stats.errors.fetch_add(1, Ordering::Relaxed) < 5 {
                        eprintln!("calabresella-load: table worker {i}: {e:#}");
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                n += 1;
                if abusing {
                    // A person's pace: one new table every two seconds at most per worker, so
                    // the measured address stays within the per-client budget of new tables
                    // (120 a minute) that the attackers meet.
                    tokio::time::sleep_until((began + Duration::from_secs(2)).into()).await;
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(args.warmup)).await;
    stats.measuring.store(true, Ordering::Relaxed);
    let started = Instant::now();
    let server_cpu_before = pid.and_then(cpu_seconds);
    let own_cpu_before = cpu_seconds(std::process::id());
    let mut rss_samples = Vec::new();
    while started.elapsed() < Duration::from_secs(args.seconds) {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if let Some(r) = pid.and_then(rss_kib) {
            rss_samples.push(r);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let server_cpu = pid
        .and_then(cpu_seconds)
        .zip(server_cpu_before)
        .map(|(after, before)| after - before);
    let own_cpu = cpu_seconds(std::process::id())
        .zip(own_cpu_before)
        .map(|(after, before)| after - before);
    stats.measuring.store(false, Ordering::Relaxed);
    stats.stop.store(true, Ordering::Relaxed);
    if let Some((stop, tasks)) = attackers {
        stop.store(true, Ordering::Relaxed);
        for t in tasks {
            t.abort();
        }
    }
    let actions = stats.actions.load(Ordering::Relaxed);
    let matches = stats.matches.load(Ordering::Relaxed);
    let mut lat = std::mem::take(&mut *stats.latencies.lock().unwrap_or_else(|e| e.into_inner()));
    lat.sort_unstable();
    rss_samples.sort_unstable();
    let rss_median = rss_samples.get(rss_samples.len() / 2).copied();
    let rss_peak = rss_samples.last().copied();
    let per_table = match (baseline, rss_median) {
        (Some(b), Some(m)) => Some((m.saturating_sub(b) as f64) / args.tables as f64),
        _ => None,
    };
    let report = json!({
        "game": args.game,
        "tables": args.tables,
        "connections": args.connections,
        "seconds": elapsed,
        "completed_matches": matches,
        "matches_per_sec": matches as f64 / elapsed,
        "actions": actions,
        "actions_per_sec": actions as f64 / elapsed,
        "act_latency_ms": {"p50": percentile(&lat, 0.5), "p90": percentile(&lat, 0.9), "p99": percentile(&lat, 0.99), "max": percentile(&lat, 1.0)},
        "server_rss_kib": {"baseline": baseline, "median_under_load": rss_median, "peak_under_load": rss_peak},
        "server_kib_per_active_table": per_table,
        // Actions sent in the window, against the CPU time used in it.
        "server_cpu_seconds": server_cpu,
        "server_cpu_us_per_action": server_cpu.filter(|_| actions > 0).map(|c| c * 1e6 / actions as f64),
        "server_cpu_cores_busy": server_cpu.map(|c| c / elapsed),
        "load_generator_cpu_seconds": own_cpu,
        "errors": stats.errors.load(Ordering::Relaxed),
    });
    let mut report = report;
    if args.abuse {
        report["abuse"] = tally.lock().unwrap_or_else(|e| e.into_inner()).json();
    }
    println!("{}", serde_json::to_string_pretty(&report)?);
    for w in workers {
        w.abort();
    }
    if let Some(mut c) = child {
        let _ = c.start_kill();
        let _ = c.wait().await;
    }
    Ok(())
}
