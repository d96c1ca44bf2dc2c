//! `calabresella submit`, `bots` and `bot-log`: a registered player's bot programs on a
//! server (docs/SUBMISSIONS.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_proto::v1;
use calabresella_proto::v1::bot_service_client::BotServiceClient;

use super::client::{ServerArg, channel, runtime, status_line};

/// A registered player's key, as the bot commands take it.
#[derive(Debug, clap::Args)]
pub struct KeyArg {
    /// Your API key as a registered player (`calabresella players add`).
    #[arg(long, env = "CALABRESELLA_KEY", hide_env_values = true)]
    key: String,
}

/// Arguments of `submit`.
#[derive(Debug, clap::Args)]
pub struct SubmitArgs {
    #[command(flatten)]
    server: ServerArg,
    #[command(flatten)]
    key: KeyArg,
    /// The bot's name (a-z, 0-9, '-', '_'; starting with a letter): yours from its first
    /// submission on. Seat it as `submitted:NAME` (its latest version) or
    /// `submitted:NAME@VERSION`.
    #[arg(long)]
    name: String,
    /// For a .zip archive: the file within it to run.
    #[arg(long, default_value = "")]
    entry: String,
    /// The file: a .py program, an executable for the server's machine, or a .zip archive
    /// (at most 5 MiB).
    file: PathBuf,
}

/// Arguments of `bots`.
#[derive(Debug, clap::Args)]
pub struct BotsArgs {
    #[command(flatten)]
    server: ServerArg,
    /// Only this player's bots.
    #[arg(long)]
    owner: Option<String>,
}

/// Arguments of `bot-log`.
#[derive(Debug, clap::Args)]
pub struct BotLogArgs {
    #[command(flatten)]
    server: ServerArg,
    #[command(flatten)]
    key: KeyArg,
    /// The table.
    table: String,
    /// Your bot's seat there.
    seat: u32,
}

fn keyed<T>(message: T, key: &KeyArg) -> Result<tonic::Request<T>> {
    let mut r = tonic::Request::new(message);
    calabresella_client::authorize(&mut r, Some(key.key.trim()))?;
    Ok(r)
}

/// Runs `submit`: prints the version stored.
pub fn submit(a: SubmitArgs) -> Result<ExitCode> {
    let content =
        std::fs::read(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let request = v1::SubmitBotRequest {
        name: a.name.clone(),
        file_name: a
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        content,
        entry: a.entry.clone(),
    };
    runtime()?.block_on(async {
        let mut c = BotServiceClient::new(channel(&a.server).await?)
            .max_encoding_message_size(8 * 1024 * 1024);
        match c.submit_bot(keyed(request, &a.key)?).await {
            Ok(r) => {
                let v = r.into_inner().version.context("no version in the answer")?;
                println!(
                    "submitted:{}@{} ({} bytes, sha256 {}, runs {} as {})",
                    v.name, v.version, v.size, v.sha256, v.entry, v.runtime
                );
                Ok(ExitCode::SUCCESS)
            }
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                Ok(ExitCode::from(1))
            }
        }
    })
}

/// Runs `bots`: one line per version.
pub fn bots(a: BotsArgs) -> Result<ExitCode> {
    runtime()?.block_on(async {
        let mut c = BotServiceClient::new(channel(&a.server).await?);
        match c
            .list_bots(v1::ListBotsRequest {
                owner: a.owner.clone().unwrap_or_default(),
            })
            .await
        {
            Ok(r) => {
                for v in r.into_inner().versions {
                    println!(
                        "submitted:{}@{}\towner={}\t{} bytes\t{}\t{}\tsha256={}",
                        v.name, v.version, v.owner, v.size, v.runtime, v.entry, v.sha256
                    );
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                Ok(ExitCode::from(1))
            }
        }
    })
}

/// Runs `bot-log`: how the run ended, then what the bot wrote to its standard error.
pub fn bot_log(a: BotLogArgs) -> Result<ExitCode> {
    runtime()?.block_on(async {
        let mut c = BotServiceClient::new(channel(&a.server).await?);
        let request = v1::GetBotLogRequest {
            table_id: a.table.clone(),
            seat: a.seat,
        };
        match c.get_bot_log(keyed(request, &a.key)?).await {
            Ok(r) => {
                let log = r.into_inner();
                let end = if log.fault.is_empty() {
                    "played to the end".to_owned()
                } else {
                    format!("stopped: {}", log.fault)
                };
                eprintln!("calabresella: {} {end} ({})", log.bot, log.detail);
                print!("{}", log.stderr);
                Ok(ExitCode::SUCCESS)
            }
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                Ok(ExitCode::from(1))
            }
        }
    })
}
