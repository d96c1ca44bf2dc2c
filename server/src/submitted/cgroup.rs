//! One control group per running bot, so that its limits hold for the bot as a whole and not
//! per process: memory (a bot of 64 processes still has its one limit), processes, and CPU
//! time over the match, read from the group. The server must run as root (the sandbox needs
//! it anyway); it makes its groups under its own, in cgroup v2 (the unified hierarchy) or in
//! the v1 `memory`, `pids` and `cpuacct` hierarchies.
//!
//! A bot joins its group before it runs anything: a small shell step writes its own PID into
//! each group and then execs the sandbox ([`BotGroup::wrap`]). A library that moves a running
//! process would leave a window in which the bot's first children stay outside.
//!
//! Without usable control groups (no root, a read-only `/sys/fs/cgroup`), the per-process
//! limits of `prlimit` remain; the server says so once at start.

use std::path::{Path, PathBuf};
use std::time::Duration;

const ROOT: &str = "/sys/fs/cgroup";

/// Where this server makes its bots' groups.
#[derive(Debug)]
pub enum Cgroups {
    /// Under one directory of the unified hierarchy.
    V2 {
        /// The server's own parent group for its bots.
        parent: PathBuf,
    },
    /// One parent per v1 hierarchy.
    V1 {
        /// In the `memory` hierarchy.
        memory: PathBuf,
        /// In the `pids` hierarchy.
        pids: PathBuf,
        /// In the `cpuacct` hierarchy.
        cpuacct: PathBuf,
    },
}

/// The prefix of a server's parent group; its PID follows, so that servers on one machine
/// keep apart, and a dead server's groups can be recognised and removed.
const PARENT: &str = "calabresella-bots-";

impl Cgroups {
    /// The control groups this machine gives the server, or why there are none.
    pub fn detect() -> Result<Cgroups, String> {
        let own = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
        let name = format!("{PARENT}{}", std::process::id());
        if Path::new(ROOT).join("cgroup.controllers").is_file() {
            let path = own
                .lines()
                .find_map(|l| l.strip_prefix("0::"))
                .ok_or("no unified control group in /proc/self/cgroup")?;
            let base = Path::new(ROOT).join(path.trim_start_matches('/'));
            return v2_parent(&base, &name).map(|parent| Cgroups::V2 { parent });
        }
        let mut parents = Vec::new();
        for controller in ["memory", "pids", "cpuacct"] {
            let (mount, path) = v1_place(&own, controller)
                .ok_or_else(|| format!("no cgroup v1 {controller} hierarchy"))?;
            let base = mount.join(path.trim_start_matches('/'));
            remove_stale(&base);
            let parent = base.join(&name);
            make_dir(&parent)?;
            parents.push(parent);
        }
        let [memory, pids, cpuacct] = <[PathBuf; 3]>::try_from(parents)
            .map_err(|_| "three v1 hierarchies expected".to_owned())?;
        // Limits set on the children must hold for their descendants too.
        let _ = std::fs::write(memory.join("memory.use_hierarchy"), "1");
        Ok(Cgroups::V1 {
            memory,
            pids,
            cpuacct,
        })
    }

    /// A group for the bot run as `uid` (unique among running bots), with its limits set.
    pub fn create(&self, uid: u32, memory_mb: u64, processes: u32) -> Result<BotGroup, String> {
        let bytes = (memory_mb * 1024 * 1024).to_string();
        let leaf = format!("bot-{uid}");
        let group = match self {
            Cgroups::V2 { parent } => {
                let dir = parent.join(&leaf);
                fresh_dir(&dir)?;
                let group = BotGroup {
                    dirs: vec![dir.clone()],
                    v2: true,
                };
                set(&dir, "memory.max", &bytes)?;
                // Swap would let a bot past its memory limit, slowly.
                let _ = std::fs::write(dir.join("memory.swap.max"), "0");
                set(&dir, "pids.max", &processes.to_string())?;
                group
            }
            Cgroups::V1 {
                memory,
                pids,
                cpuacct,
            } => {
                let dirs: Vec<PathBuf> = [memory, pids, cpuacct]
                    .into_iter()
                    .map(|p| p.join(&leaf))
                    .collect();
                for d in &dirs {
                    fresh_dir(d)?;
                }
                let group = BotGroup { dirs, v2: false };
                set(&group.dirs[0], "memory.limit_in_bytes", &bytes)?;
                // Where swap is accounted, it counts against the same limit.
                let _ = std::fs::write(group.dirs[0].join("memory.memsw.limit_in_bytes"), &bytes);
                set(&group.dirs[1], "pids.max", &processes.to_string())?;
                group
            }
        };
        Ok(group)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        let parents: Vec<&PathBuf> = match self {
            Cgroups::V2 { parent } => vec![parent],
            Cgroups::V1 {
                memory,
                pids,
                cpuacct,
            } => vec![memory, pids, cpuacct],
        };
        for p in parents {
            let _ = std::fs::remove_dir(p);
        }
    }
}

/// In cgroup v2, a parent for the bots under `base` (the server's group). Processes may not
/// sit in a group whose controllers are handed down, so the server first moves into a leaf
/// of its own (`server`) and then hands `memory`, `pids` and `cpu` down.
fn v2_parent(base: &Path, name: &str) -> Result<PathBuf, String> {
    let controllers = std::fs::read_to_string(base.join("cgroup.controllers"))
        .map_err(|e| format!("cannot read {}: {e}", base.display()))?;
    for c in ["memory", "pids"] {
        if !controllers.split_whitespace().any(|x| x == c) {
            return Err(format!(
                "the {c} controller is not available in {}",
                base.display()
            ));
        }
    }
    remove_stale(base);
    let wanted = "+memory +pids +cpu";
    if std::fs::write(base.join("cgroup.subtree_control"), wanted).is_err() {
        let leaf = base.join(format!("calabresella-server-{}", std::process::id()));
        make_dir(&leaf)?;
        set(&leaf, "cgroup.procs", &std::process::id().to_string())?;
        std::fs::write(base.join("cgroup.subtree_control"), "+memory +pids")
            .map_err(|e| format!("cannot hand controllers down in {}: {e}", base.display()))?;
        let _ = std::fs::write(base.join("cgroup.subtree_control"), "+cpu");
    }
    let parent = base.join(name);
    make_dir(&parent)?;
    std::fs::write(parent.join("cgroup.subtree_control"), "+memory +pids")
        .map_err(|e| format!("cannot hand controllers down in {}: {e}", parent.display()))?;
    let _ = std::fs::write(parent.join("cgroup.subtree_control"), "+cpu");
    Ok(parent)
}

/// The mount point of the v1 hierarchy holding `controller`, and the server's path in it.
fn v1_place<'a>(own: &'a str, controller: &str) -> Option<(PathBuf, &'a str)> {
    own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
        if !list.split(',').any(|c| c == controller) {
            return None;
        }
        // Co-mounted controllers share a directory named after them all (`cpu,cpuacct`).
        [list, controller]
            .iter()
            .map(|d| Path::new(ROOT).join(d))
            .find(|m| m.is_dir())
            .map(|m| (m, path))
    })
}

/// Removes the groups left by servers that are gone (killed without a chance to clean up).
fn remove_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name
            .strip_prefix(PARENT)
            .or_else(|| name.strip_prefix("calabresella-server-"));
        let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if Path::new("/proc").join(pid.to_string()).exists() {
            continue;
        }
        if let Ok(children) = std::fs::read_dir(e.path()) {
            for c in children.flatten().filter(|c| c.path().is_dir()) {
                kill_members(&c.path());
                let _ = std::fs::remove_dir(c.path());
            }
        }
        let _ = std::fs::remove_dir(e.path());
    }
}

fn make_dir(dir: &Path) -> Result<(), String> {
    match std::fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!(
            "cannot make the control group {}: {e}",
            dir.display()
        )),
    }
}

/// A new, empty group at `dir` (one left by an earlier bot of the same user goes first).
fn fresh_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        kill_members(dir);
        let _ = std::fs::remove_dir(dir);
    }
    std::fs::create_dir(dir)
        .map_err(|e| format!("cannot make the control group {}: {e}", dir.display()))
}

fn set(dir: &Path, file: &str, value: &str) -> Result<(), String> {
    std::fs::write(dir.join(file), value)
        .map_err(|e| format!("cannot set {} in {}: {e}", file, dir.display()))
}

/// Kills every process in the group at `dir`.
fn kill_members(dir: &Path) {
    // cgroup v2 kills a whole group in one step where the kernel has `cgroup.kill`.
    if std::fs::write(dir.join("cgroup.kill"), "1").is_ok() {
        return;
    }
    let Ok(procs) = std::fs::read_to_string(dir.join("cgroup.procs")) else {
        return;
    };
    for pid in procs
        .lines()
        .filter_map(|p| p.trim().parse::<i32>().ok())
        .filter_map(rustix::process::Pid::from_raw)
    {
        // A process gone meanwhile is no error worth a word.
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// A running bot's control group; killed and removed when dropped.
#[derive(Debug)]
pub struct BotGroup {
    /// One directory (v2) or one per hierarchy (v1: memory, pids, cpuacct).
    dirs: Vec<PathBuf>,
    v2: bool,
}

/// The shell step that puts itself into each group given, then execs the rest of its
/// arguments: `sh -c WRAP sh N GROUP... COMMAND...`.
const WRAP: &str = "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ > \"$1\" || exit 125; \
                    shift; n=$((n - 1)); done; exec \"$@\"";

impl BotGroup {
    /// `command` run inside the group: a shell joins it, then execs the command.
    pub fn wrap(&self, command: std::process::Command) -> std::process::Command {
        let mut c = std::process::Command::new("/bin/sh");
        c.args(["-c", WRAP, "sh"]).arg(self.dirs.len().to_string());
        for d in &self.dirs {
            c.arg(d.join("cgroup.procs"));
        }
        c.arg(command.get_program()).args(command.get_args());
        if let Some(dir) = command.get_current_dir() {
            c.current_dir(dir);
        }
        for (k, v) in command.get_envs() {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
        c
    }

    /// CPU time the group's processes have used, over the bot's life.
    pub fn cpu(&self) -> Option<Duration> {
        if self.v2 {
            let stat = std::fs::read_to_string(self.dirs[0].join("cpu.stat")).ok()?;
            let us = stat
                .lines()
                .find_map(|l| l.strip_prefix("usage_usec "))?
                .trim()
                .parse()
                .ok()?;
            Some(Duration::from_micros(us))
        } else {
            let ns = std::fs::read_to_string(self.dirs[2].join("cpuacct.usage")).ok()?;
            Some(Duration::from_nanos(ns.trim().parse().ok()?))
        }
    }

    /// Whether the kernel killed one of the group's processes for its memory limit.
    pub fn out_of_memory(&self) -> bool {
        let (file, key) = if self.v2 {
            ("memory.events", "oom_kill ")
        } else {
            ("memory.oom_control", "oom_kill ")
        };
        let Ok(text) = std::fs::read_to_string(self.dirs[0].join(file)) else {
            return false;
        };
        let killed = text
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|n| n.trim().parse::<u64>().ok());
        match killed {
            Some(n) => n > 0,
            // Older v1 kernels count only hits of the limit.
            None => std::fs::read_to_string(self.dirs[0].join("memory.failcnt"))
                .ok()
                .and_then(|n| n.trim().parse::<u64>().ok())
                .is_some_and(|n| n > 0),
        }
    }

    /// Kills whatever still runs in the group.
    pub fn kill(&self) {
        for d in &self.dirs {
            kill_members(d);
        }
    }
}

impl Drop for BotGroup {
    fn drop(&mut self) {
        self.kill();
        for d in &self.dirs {
            // A group empties once its killed processes are reaped: a few tries.
            for _ in 0..50 {
                if std::fs::remove_dir(d).is_ok() || !d.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
                kill_members(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_v1_hierarchy_is_found_by_its_controller() {
        let own = "4:memory:/a/b\n2:cpuacct:/\n8:pids:/\n0::/\n";
        // The mounts of this machine decide whether a place is found; the path comes from
        // the right line either way.
        if let Some((_, path)) = v1_place(own, "memory") {
            assert_eq!(path, "/a/b");
        }
        assert!(v1_place(own, "blkio").is_none());
    }
}
