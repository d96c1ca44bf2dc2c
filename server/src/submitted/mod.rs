//! Submitted bots (docs/SUBMISSIONS.md): programs registered players upload (`SubmitBot`),
//! kept with every version in the store, and run by the server in its sandbox wherever
//! `submitted:NAME` or `submitted:NAME@VERSION` is seated. Each seated bot is one process for
//! the whole match, driven by [`driver`] over the `calabresella-bot/1` protocol
//! ([`protocol`]) under the table's clock; [`sandbox`] starts it, [`files`] checks and unpacks
//! what was submitted.

pub mod cgroup;
pub mod driver;
pub mod files;
pub mod protocol;
pub mod sandbox;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use calabresella_engine::Seat;
use calabresella_proto::v1;

use crate::error::{Reason, ServiceError};
use crate::store::Store;
use crate::store::bots::{self, BotRow};
use crate::table::TableHandle;
use sandbox::{BotLimits, Sandbox, Uids};

use crate::bot_spec::{MAX_NAME, PREFIX, parse_spec, valid_name};

/// Versions and bytes one player may store.
pub const MAX_VERSIONS_PER_PLAYER: u64 = 200;
/// Bytes of files one player may store.
pub const MAX_BYTES_PER_PLAYER: u64 = 100 * 1024 * 1024;

/// How the server runs submitted bots.
#[derive(Debug, Clone)]
pub struct BotOptions {
    /// `bwrap` to use (default: on `PATH`).
    pub bwrap: Option<PathBuf>,
    /// Run bots without the sandbox (`--unsafe-trusted-bots`).
    pub unsafe_trusted: bool,
    /// The Python that runs `.py` bots (with the `calabresella` package and numpy).
    pub python: String,
    /// Where versions are unpacked for the sandbox to mount.
    pub cache_dir: PathBuf,
    /// Each bot's limits.
    pub limits: BotLimits,
    /// Probe the sandbox when the server starts (and log what it found), not when a bot is
    /// first needed.
    pub probe_at_start: bool,
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions {
            bwrap: None,
            unsafe_trusted: false,
            python: "python3".into(),
            cache_dir: std::env::temp_dir().join("calabresella-bots"),
            limits: BotLimits::default(),
            probe_at_start: false,
        }
    }
}

/// A bot seated by name, its version pinned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinned {
    /// The version's row.
    pub row: BotRow,
}

impl Pinned {
    /// `submitted:NAME@VERSION`.
    pub fn spec(&self) -> String {
        format!("{PREFIX}{}@{}", self.row.name, self.row.version)
    }
}

/// The server's submitted bots: the store's versions, the sandbox, and the running bots.
pub struct BotRunner {
    store: Store,
    /// The sandbox and the control groups, probed once, when first needed (or at start
    /// with [`BotOptions::probe_at_start`]).
    ready: tokio::sync::OnceCell<Ready>,
    options: BotOptions,
    uids: Arc<Uids>,
}

/// What the machine gives the bots.
struct Ready {
    sandbox: Result<Sandbox, String>,
    /// The running bots' control groups, where the machine gives them.
    cgroups: Option<cgroup::Cgroups>,
}

impl Ready {
    /// Probes the sandbox and the control groups (blocking: it starts processes), saying in
    /// the log what it found.
    fn probe(options: &BotOptions) -> Ready {
        let sandbox = Sandbox::probe(
            options.bwrap.as_deref(),
            &options.python,
            options.unsafe_trusted,
        )
        .and_then(|s| {
            check_cache(&options.cache_dir)?;
            Ok(s)
        });
        match &sandbox {
            Ok(s) if s.is_unsafe() => tracing::warn!(
                "--unsafe-trusted-bots: submitted bots run without the sandbox, with the \
                 server's user and network; run only bots you trust"
            ),
            Ok(s) if !s.missing.is_empty() => tracing::warn!(
                missing = ?s.missing,
                python = %options.python,
                "the bots' Python lacks some of the runtime: bots that import it will fail"
            ),
            Ok(_) => tracing::info!("submitted bots run in the bubblewrap sandbox"),
            Err(why) => tracing::info!(why = %why, "submitted bots are off"),
        }
        let cgroups = match &sandbox {
            Ok(_) => match cgroup::Cgroups::detect() {
                Ok(c) => Some(c),
                Err(why) => {
                    tracing::warn!(
                        why = %why,
                        "no control groups for the bots: each bot's memory and CPU limits \
                         hold per process, not for the bot as a whole"
                    );
                    None
                }
            },
            Err(_) => None,
        };
        Ready { sandbox, cgroups }
    }
}

/// Makes the cache of unpacked bots and checks that nobody else can write to it: its
/// contents run as bots, and its paths are predictable (a version's hash).
fn check_cache(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot make the bot cache {}: {e}", dir.display()))?;
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| format!("cannot read the bot cache {}: {e}", dir.display()))?;
    let me = rustix::process::geteuid().as_raw();
    if !meta.is_dir() || meta.uid() != me || meta.mode() & 0o022 != 0 {
        return Err(format!(
            "the bot cache {} must be a directory of the server's user that no one else can \
             write to",
            dir.display()
        ));
    }
    // The bots' users read it through the sandbox's mount.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("cannot open the bot cache {}: {e}", dir.display()))?;
    // Copies half made by a server that stopped meanwhile (old enough that no running
    // server sharing the cache is still making them).
    let stale = |e: &std::fs::DirEntry| {
        e.metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > std::time::Duration::from_secs(3600))
    };
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(".tmp") && stale(&e) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    Ok(())
}

impl BotRunner {
    /// The runner over `store`; the sandbox is probed when first needed (a server without one
    /// still lists bots, but refuses to take or seat them, saying why).
    pub fn new(options: BotOptions, store: Store) -> Arc<BotRunner> {
        let runner = Arc::new(BotRunner {
            store,
            ready: tokio::sync::OnceCell::new(),
            options,
            uids: Arc::default(),
        });
        if runner.options.probe_at_start {
            let r = runner.clone();
            tokio::spawn(async move {
                r.ready().await;
            });
        }
        runner
    }

    async fn ready(&self) -> &Ready {
        self.ready
            .get_or_init(|| async {
                let options = self.options.clone();
                tokio::task::spawn_blocking(move || Ready::probe(&options))
                    .await
                    .unwrap_or_else(|e| Ready {
                        sandbox: Err(format!("the probe failed: {e}")),
                        cgroups: None,
                    })
            })
            .await
    }

    /// Whether bots can run here; else `NO_SANDBOX` and why.
    pub async fn available(&self) -> Result<&Sandbox, ServiceError> {
        self.ready().await.sandbox.as_ref().map_err(|why| {
            ServiceError::Precondition(
                Reason::NoSandbox,
                format!("this server runs no submitted bots: {why}"),
            )
        })
    }

    /// The running bots' control groups, if the machine gives them.
    async fn cgroups(&self) -> Option<&cgroup::Cgroups> {
        self.ready().await.cgroups.as_ref()
    }

    /// Stores a new version of the bot `r.name` for `owner`.
    pub async fn submit(
        &self,
        owner: &str,
        r: v1::SubmitBotRequest,
    ) -> Result<v1::BotVersion, ServiceError> {
        use base64::Engine;
        use sha2::Digest;
        self.available().await?;
        let bad = |why: String| ServiceError::Invalid(Reason::BadSubmission, why);
        if !valid_name(&r.name) {
            return Err(bad(format!(
                "a bot's name is 1 to {MAX_NAME} of a-z, 0-9, '-' and '_', starting with a letter"
            )));
        }
        let checked = files::check(&r.file_name, &r.content, &r.entry).map_err(bad)?;
        let row = BotRow {
            name: r.name.clone(),
            version: 0,
            owner: owner.to_owned(),
            sha256: sha2::Sha256::digest(&r.content)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
            size: r.content.len() as u64,
            file_name: checked.file_name.clone(),
            entry: checked.entry.clone(),
            runtime: checked.runtime.as_str().to_owned(),
            submitted_unix_ms: crate::store::now_ms(),
        };
        let content = base64::engine::general_purpose::STANDARD.encode(&r.content);
        let stored = row.clone();
        let version = self
            .store
            .read(move |c| {
                if let Some(o) = bots::owner(c, &stored.name)?
                    && o != stored.owner
                {
                    return Ok(Err(ServiceError::Denied(
                        Reason::NotYourBot,
                        format!("the bot {:?} is another player's", stored.name),
                    )));
                }
                let (versions, bytes) = bots::usage(c, &stored.owner)?;
                if versions >= MAX_VERSIONS_PER_PLAYER || bytes + stored.size > MAX_BYTES_PER_PLAYER
                {
                    return Ok(Err(ServiceError::Exhausted(
                        Reason::BotQuota,
                        format!(
                            "a player keeps at most {MAX_VERSIONS_PER_PLAYER} versions and \
                             {MAX_BYTES_PER_PLAYER} bytes of bots"
                        ),
                    )));
                }
                bots::add(c, &stored, &content).map(Ok)
            })
            .await??;
        tracing::info!(bot = %r.name, version, "bot submitted");
        Ok(wire(BotRow { version, ..row }))
    }

    /// The version a seat name (`submitted:NAME[@VERSION]`) means: the latest if none is
    /// given. `BAD_SEATS` for a name or version that does not exist.
    pub async fn resolve(&self, spec: &str) -> Result<Pinned, ServiceError> {
        self.available().await?;
        let bad = |why: String| ServiceError::Invalid(Reason::BadSeats, why);
        let (name, version) = parse_spec(spec).ok_or_else(|| {
            bad(format!(
                "{spec:?} is not `submitted:NAME` or `submitted:NAME@VERSION`"
            ))
        })?;
        let lookup = name.clone();
        let row = self
            .store
            .read(move |c| bots::get(c, &lookup, version))
            .await?
            .ok_or_else(|| {
                bad(match version {
                    Some(v) => format!("no version {v} of the submitted bot {name:?}"),
                    None => format!("no submitted bot {name:?}"),
                })
            })?;
        Ok(Pinned { row })
    }

    /// Every version, or one owner's.
    pub async fn list(&self, owner: Option<String>) -> Result<Vec<v1::BotVersion>, ServiceError> {
        let rows = self
            .store
            .read(move |c| bots::list(c, owner.as_deref()))
            .await?;
        Ok(rows.into_iter().map(wire).collect())
    }

    /// The log of the bot at `seat` of `table_id`, for its owner `who`.
    pub async fn log(
        &self,
        who: &str,
        table_id: String,
        seat: u32,
    ) -> Result<v1::GetBotLogResponse, ServiceError> {
        let log = self
            .store
            .read(move |c| bots::log(c, &table_id, seat))
            .await?
            .ok_or_else(|| {
                ServiceError::NotFound(
                    Reason::BotLogNotFound,
                    "no submitted bot's log at that table and seat (yet: it is kept when its \
                     run ends)"
                        .into(),
                )
            })?;
        if log.owner != who {
            return Err(ServiceError::Denied(
                Reason::NotYourBot,
                "a bot's log is its owner's alone".into(),
            ));
        }
        Ok(v1::GetBotLogResponse {
            bot: log.bot,
            stderr: log.stderr,
            fault: log.fault,
            detail: log.detail,
        })
    }

    /// Starts the drivers of `table`'s submitted bots' seats, each in a task of its own.
    pub fn drive_table(self: &Arc<Self>, table: TableHandle) {
        let runner = self.clone();
        tokio::spawn(async move {
            let Ok(seats) = crate::table::ask(&table, crate::table::Command::SubmittedSeats).await
            else {
                return;
            };
            for (seat, name, taken) in seats {
                tokio::spawn(driver::run(
                    runner.clone(),
                    table.clone(),
                    seat,
                    name,
                    taken,
                ));
            }
        });
    }

    /// Where version `row` is unpacked for the sandbox (once; concurrent drivers agree).
    async fn unpacked(&self, row: &BotRow) -> Result<PathBuf, String> {
        let dir = self
            .options
            .cache_dir
            .join(&row.sha256)
            .join(row.entry.replace('/', "_"));
        if dir.join(".ready").exists() {
            return Ok(dir);
        }
        let (name, version) = (row.name.clone(), row.version);
        let content = self
            .store
            .read(move |c| bots::content(c, &name, version))
            .await
            .map_err(|e| format!("cannot read the bot: {e}"))?
            .ok_or("the bot's version is gone")?;
        let row = row.clone();
        let cache = self.options.cache_dir.clone();
        let target = dir.clone();
        tokio::task::spawn_blocking(move || {
            use base64::Engine;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(content)
                .map_err(|e| format!("the stored bot is damaged: {e}"))?;
            let checked = files::Checked {
                file_name: row.file_name.clone(),
                entry: row.entry.clone(),
                runtime: files::Runtime::parse(&row.runtime).unwrap_or(files::Runtime::Executable),
                archive: row.file_name.to_ascii_lowercase().ends_with(".zip"),
            };
            std::fs::create_dir_all(&cache).map_err(|e| format!("no bot cache: {e}"))?;
            let staging = tempfile::tempdir_in(&cache).map_err(|e| format!("no bot cache: {e}"))?;
            files::unpack(&staging.path().join("bot"), &checked, &bytes)?;
            std::fs::write(staging.path().join("bot/.ready"), "")
                .map_err(|e| format!("no bot cache: {e}"))?;
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("no bot cache: {e}"))?;
            }
            // A copy without its mark is left over from something else (a cleaner took
            // part of it): it goes. Complete copies appear whole, by rename, mark included.
            if target.exists() && !target.join(".ready").exists() {
                let _ = std::fs::remove_dir_all(&target);
            }
            // Another driver may have won the race: its copy is the same.
            match std::fs::rename(staging.path().join("bot"), &target) {
                Ok(()) => Ok(()),
                Err(_) if target.join(".ready").exists() => Ok(()),
                Err(e) => Err(format!("no bot cache: {e}")),
            }
        })
        .await
        .map_err(|e| format!("unpacking failed: {e}"))??;
        Ok(dir)
    }
}

/// A stored version on the wire.
fn wire(r: BotRow) -> v1::BotVersion {
    v1::BotVersion {
        name: r.name,
        version: r.version,
        owner: r.owner,
        sha256: r.sha256,
        size: r.size,
        entry: r.entry,
        runtime: r.runtime,
        submitted_unix_ms: r.submitted_unix_ms,
    }
}

/// The seat a submitted bot plays, for its log.
pub(crate) fn seat_index(seat: Seat) -> u32 {
    seat.index() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_specs_parse() {
        assert_eq!(parse_spec("submitted:alpha"), Some(("alpha".into(), None)));
        assert_eq!(
            parse_spec("submitted:a-1_b@12"),
            Some(("a-1_b".into(), Some(12)))
        );
        for bad in [
            "alpha",
            "submitted:",
            "submitted:Alpha",
            "submitted:1a",
            "submitted:a@0",
            "submitted:a@x",
            "submitted:a b",
            "submitted:../x",
        ] {
            assert_eq!(parse_spec(bad), None, "{bad}");
        }
        assert!(valid_name(&"a".repeat(MAX_NAME)) && !valid_name(&"a".repeat(MAX_NAME + 1)));
    }
}
