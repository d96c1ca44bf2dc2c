//! The sandbox a submitted bot runs in: bubblewrap (Debian's `bubblewrap`) with no network,
//! its own PID, IPC, UTS and cgroup namespaces, a file system of the read-only runtime (`/usr`,
//! the Python with the `calabresella` package and numpy), the bot's own files read-only at
//! `/bot` and a small tmpfs at `/tmp`; nothing of the server's (its files, its database, its
//! `/etc`). Inside, `setpriv` drops to a user of the bot's own (so a process limit counts its
//! processes alone), every capability and new privileges, and `prlimit` caps its address
//! space, CPU seconds, processes, file size and open files before the bot starts. Written with
//! the standard tools (bwrap, setpriv, prlimit) rather than system calls, so the server itself
//! needs no unsafe code.
//!
//! `--unsafe-trusted-bots` runs bots as plain processes instead (the limits still apply),
//! for bots one trusts, where bubblewrap cannot run.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use super::files::Runtime;

/// The limits of each bot process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotLimits {
    /// Address space, in MiB.
    pub memory_mb: u64,
    /// CPU seconds over the whole match.
    pub cpu_s: u64,
    /// Processes (threads included) the bot's user may have.
    pub processes: u32,
    /// Largest file it may write, in MiB (and the size of its `/tmp`).
    pub file_mb: u64,
    /// Open files.
    pub open_files: u32,
    /// Wall-clock seconds the whole match may take it.
    pub match_s: u64,
}

impl Default for BotLimits {
    fn default() -> Self {
        BotLimits {
            memory_mb: 1024,
            cpu_s: 600,
            processes: 64,
            file_mb: 16,
            open_files: 64,
            match_s: 3600,
        }
    }
}

/// `nice`: bots run below the server's priority, so a bot that spins never slows the
/// server's answers to everyone else.
const NICE: &str = "/usr/bin/nice";
/// The niceness bots run at.
const BOT_NICENESS: &str = "10";

/// How bots are run.
#[derive(Debug, Clone)]
enum Mode {
    /// Under bubblewrap, as a user of their own.
    Bwrap {
        bwrap: PathBuf,
        setpriv: PathBuf,
        /// Directories of the Python runtime, mounted read-only at their own paths.
        binds: Vec<PathBuf>,
    },
    /// As plain processes (`--unsafe-trusted-bots`).
    Unsafe,
}

/// A working sandbox (or the trusted mode), and the Python it runs `.py` bots with.
#[derive(Debug, Clone)]
pub struct Sandbox {
    mode: Mode,
    python: PathBuf,
    prlimit: PathBuf,
    /// What the Python lacks of the runtime (`calabresella`, `numpy`), for the log.
    pub missing: Vec<String>,
}

/// The first `name` on `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Path::new(name).is_file().then(|| PathBuf::from(name));
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether this process runs as root (the sandbox needs it to give each bot a user of its own).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|e| e == "0"))
        })
        .unwrap_or(false)
}

/// What a Python knows of itself: its interpreter (a launcher on `PATH`, such as pyenv's,
/// is not what runs), its directories, and which of the runtime's packages it imports.
fn probe_python(python: &Path) -> Result<(PathBuf, Vec<PathBuf>, Vec<String>), String> {
    const SCRIPT: &str = "import json, os, sys\n\
        dirs = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))}\n\
        dirs.update(p for p in sys.path if p and os.path.isdir(p))\n\
        missing = []\n\
        for m in ('calabresella', 'numpy'):\n\
        \x20   try:\n\
        \x20       __import__(m)\n\
        \x20   except Exception:\n\
        \x20       missing.append(m)\n\
        print(json.dumps({'exe': sys.executable, 'dirs': sorted(dirs), 'missing': missing}))\n";
    let out = std::process::Command::new(python)
        .args(["-c", SCRIPT])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            python.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{} said something else: {e}", python.display()))?;
    let strings = |k: &str| -> Vec<String> {
        v[k].as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let dirs = strings("dirs")
        .into_iter()
        .map(PathBuf::from)
        // /usr is mounted whole; a directory under it needs nothing more.
        .filter(|d| !d.starts_with("/usr") && d.is_absolute())
        .collect();
    let exe = v["exe"]
        .as_str()
        .filter(|e| !e.is_empty())
        .map_or_else(|| python.to_path_buf(), PathBuf::from);
    Ok((exe, dirs, strings("missing")))
}

impl Sandbox {
    /// The sandbox of this machine: bubblewrap (`bwrap` on `PATH`, or given), or the trusted
    /// mode when `unsafe_trusted`. The error says why no bot can run, for the operator.
    pub fn probe(
        bwrap: Option<&Path>,
        python: &str,
        unsafe_trusted: bool,
    ) -> Result<Sandbox, String> {
        let python =
            which(python).ok_or_else(|| format!("no Python {python:?} to run .py bots"))?;
        let prlimit = which("prlimit")
            .ok_or("prlimit (util-linux) is not installed: it sets each bot's limits")?;
        let (python, binds, missing) = probe_python(&python)?;
        if unsafe_trusted {
            return Ok(Sandbox {
                mode: Mode::Unsafe,
                python,
                prlimit,
                missing,
            });
        }
        let bwrap = match bwrap {
            Some(p) => p.to_path_buf(),
            None => which("bwrap").ok_or(
                "bubblewrap is not installed (Debian: apt-get install bubblewrap); without it the \
                 server runs no submitted bots, unless started with --unsafe-trusted-bots",
            )?,
        };
        let setpriv = which("setpriv")
            .ok_or("setpriv (util-linux) is not installed: it gives each bot a user of its own")?;
        if !is_root() {
            return Err(
                "the sandbox runs each bot as a user of its own, which takes root: start \
                        the server as root (bots never run as root), or with \
                        --unsafe-trusted-bots"
                    .into(),
            );
        }
        let sandbox = Sandbox {
            mode: Mode::Bwrap {
                bwrap,
                setpriv,
                binds,
            },
            python,
            prlimit,
            missing,
        };
        // One real start, so that a kernel without the namespaces it needs shows now.
        let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
        std::fs::write(dir.path().join("probe.py"), "print('ok')\n")
            .map_err(|e| format!("cannot write the probe: {e}"))?;
        let out = sandbox
            .std_command(
                dir.path(),
                "probe.py",
                Runtime::Python,
                60999,
                &BotLimits::default(),
            )
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot start the sandbox: {e}"))?;
        if !out.status.success() || !String::from_utf8_lossy(&out.stdout).contains("ok") {
            return Err(format!(
                "the sandbox does not start here: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(sandbox)
    }

    /// Whether bots run without the sandbox.
    pub fn is_unsafe(&self) -> bool {
        matches!(self.mode, Mode::Unsafe)
    }

    /// The command that runs the bot in `dir` (its `entry`, as `runtime` says) as user `uid`
    /// within `limits`; its standard input, output and error are the caller's to set.
    pub fn command(
        &self,
        dir: &Path,
        entry: &str,
        runtime: Runtime,
        uid: u32,
        limits: &BotLimits,
    ) -> tokio::process::Command {
        tokio::process::Command::from(self.std_command(dir, entry, runtime, uid, limits))
    }

    /// [`Sandbox::command`] as a blocking `std` command (benchmarks, probes).
    pub fn std_command(
        &self,
        dir: &Path,
        entry: &str,
        runtime: Runtime,
        uid: u32,
        limits: &BotLimits,
    ) -> std::process::Command {
        let mib = 1024 * 1024;
        let limit_args = vec![
            format!("--as={}", limits.memory_mb * mib),
            format!("--cpu={}", limits.cpu_s),
            format!("--nproc={}", limits.processes),
            format!("--fsize={}", limits.file_mb * mib),
            format!("--nofile={}", limits.open_files),
            "--core=0".to_owned(),
        ];
        match &self.mode {
            Mode::Unsafe => {
                let mut c = std::process::Command::new(NICE);
                c.args(["-n", BOT_NICENESS])
                    .arg(&self.prlimit)
                    .args(&limit_args)
                    .arg("--");
                match runtime {
                    Runtime::Python => c.arg(&self.python).args(["-B", "-u"]).arg(dir.join(entry)),
                    Runtime::Executable => c.arg(dir.join(entry)),
                };
                c.current_dir(dir)
                    .env_clear()
                    .env("PATH", "/usr/bin:/bin")
                    .env("HOME", dir)
                    .env("LANG", "C.UTF-8");
                c
            }
            Mode::Bwrap {
                bwrap,
                setpriv,
                binds,
            } => {
                let mut c = std::process::Command::new(bwrap);
                c.args([
                    "--unshare-pid",
                    "--unshare-net",
                    "--unshare-ipc",
                    "--unshare-uts",
                    "--unshare-cgroup-try",
                    "--die-with-parent",
                    "--new-session",
                    "--hostname",
                    "bot",
                    "--ro-bind",
                    "/usr",
                    "/usr",
                    "--symlink",
                    "usr/bin",
                    "/bin",
                    "--symlink",
                    "usr/sbin",
                    "/sbin",
                    "--symlink",
                    "usr/lib",
                    "/lib",
                ]);
                if Path::new("/usr/lib64").is_dir() {
                    c.args(["--symlink", "usr/lib64", "/lib64"]);
                }
                // Scratch space first: a runtime that lives under /tmp is mounted over it.
                // Writable by the bot's user (bubblewrap would make it root's alone).
                c.args(["--perms", "1777", "--size"])
                    .arg((limits.file_mb * mib).to_string())
                    .args(["--tmpfs", "/tmp"]);
                // The directories above each mount, made traversable for the bot's user
                // (bubblewrap would make them root's alone).
                let mut above: Vec<&Path> =
                    binds.iter().flat_map(|b| b.ancestors().skip(1)).collect();
                above.retain(|a| *a != Path::new("/") && !a.starts_with("/usr"));
                above.sort();
                above.dedup();
                for a in above {
                    c.args(["--perms", "0755", "--dir"]).arg(a);
                }
                for b in binds {
                    c.arg("--ro-bind").arg(b).arg(b);
                }
                c.arg("--ro-bind").arg(dir).arg("/bot");
                c.args(["--proc", "/proc", "--dev", "/dev"]);
                c.args(["--chdir", "/bot", "--clearenv"]);
                for (k, v) in [
                    ("PATH", "/usr/bin:/bin"),
                    ("HOME", "/tmp"),
                    ("LANG", "C.UTF-8"),
                    ("PYTHONDONTWRITEBYTECODE", "1"),
                    ("PYTHONUNBUFFERED", "1"),
                ] {
                    c.args(["--setenv", k, v]);
                }
                c.arg("--").arg(setpriv).args([
                    format!("--reuid={uid}"),
                    format!("--regid={uid}"),
                    "--clear-groups".to_owned(),
                    "--inh-caps=-all".to_owned(),
                    "--ambient-caps=-all".to_owned(),
                    "--bounding-set=-all".to_owned(),
                    "--no-new-privs".to_owned(),
                    "--".to_owned(),
                ]);
                c.args([NICE, "-n", BOT_NICENESS])
                    .arg(&self.prlimit)
                    .args(&limit_args)
                    .arg("--");
                let bot = Path::new("/bot").join(entry);
                match runtime {
                    Runtime::Python => c.arg(&self.python).args(["-B", "-u"]).arg(bot),
                    Runtime::Executable => c.arg(bot),
                };
                c
            }
        }
    }
}

/// Users for the running bots, one each, so that each one's process limit is its own.
#[derive(Debug)]
pub struct Uids {
    free: std::sync::Mutex<Vec<u32>>,
}

/// The range bots' users are taken from (not in `/etc/passwd`: they own nothing).
pub const UIDS: std::ops::Range<u32> = 61000..62000;

impl Default for Uids {
    fn default() -> Self {
        Uids {
            free: std::sync::Mutex::new(UIDS.rev().collect()),
        }
    }
}

impl Uids {
    /// A free user, if any is left.
    pub fn take(self: &std::sync::Arc<Self>) -> Option<Uid> {
        let uid = self.free.lock().unwrap_or_else(|p| p.into_inner()).pop()?;
        Some(Uid {
            uid,
            pool: self.clone(),
        })
    }
}

/// A user held by a running bot, given back when dropped.
#[derive(Debug)]
pub struct Uid {
    /// The user id.
    pub uid: u32,
    pool: std::sync::Arc<Uids>,
}

impl Drop for Uid {
    fn drop(&mut self) {
        self.pool
            .free
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(self.uid);
    }
}
