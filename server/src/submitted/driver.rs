//! A submitted bot's seat, driven: the driver takes the seat for the server (a fresh token for
//! a restored table), starts the bot's process in the sandbox, sends it the protocol's lines
//! for every update of the seat's stream, and answers each of the seat's decisions with the
//! bot's line, under the table's clock. A bot that crashes, runs out of memory, writes
//! garbage or an illegal action, or floods its output is stopped and the table told
//! (`Command::Fault`); one out of time is stopped by the table's own clock (`TLE`). Its
//! standard error (the last 64 KiB) is kept for its owner with how its run ended.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use calabresella_engine::Seat;
use calabresella_proto::v1;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Child;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;

use super::cgroup::BotGroup;
use super::protocol::{self, MAX_LINE};
use super::sandbox::BotLimits;
use super::{BotRunner, Pinned};
use crate::error::ServiceError;
use crate::store::bots::BotLog;
use crate::table::ask;
use crate::table::{Command, Joiner, TableHandle};

/// The end of standard error kept.
pub const STDERR_KEPT: usize = 64 * 1024;
/// Lines a bot may write ahead of being asked before its output counts as a flood.
const LINES_AHEAD: usize = 4;
/// Lines that may wait for a bot to read them; a bot further behind has stopped reading.
const INPUT_AHEAD: usize = 256;

/// How a run ended badly.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fault {
    reason: &'static str,
    detail: String,
    /// The table found it itself (its clock, or a fault it recorded): nothing to tell it.
    known: bool,
}

fn fault(reason: &'static str, detail: impl Into<String>) -> Fault {
    Fault {
        reason,
        detail: detail.into(),
        known: false,
    }
}

/// What the bot's standard output gave.
enum Out {
    /// One line.
    Line(String),
    /// A line over the limit, or bytes that are no text.
    Garbage(String),
}

/// The last bytes a stream wrote.
#[derive(Default)]
struct Tail(Vec<u8>);

impl Tail {
    fn push(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
        if self.0.len() > STDERR_KEPT {
            let cut = self.0.len() - STDERR_KEPT;
            self.0.drain(..cut);
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }
}

/// Drives the seat `seat` of `table`, where the submitted bot `name` (pinned) sits; `taken`:
/// a restored table, whose seat needs a fresh token.
pub async fn run(
    runner: Arc<BotRunner>,
    table: TableHandle,
    seat: Seat,
    name: String,
    taken: bool,
) {
    let stderr = Arc::new(Mutex::new(Tail::default()));
    let (pinned, outcome) = match runner.resolve(&name).await {
        Ok(p) => {
            let outcome = drive(&runner, &table, seat, &p, taken, stderr.clone()).await;
            (Some(p), outcome)
        }
        Err(e) => (None, Err(fault("RE", format!("the bot cannot start: {e}")))),
    };
    let failed = outcome.as_ref().err().cloned();
    if let Some(f) = &failed
        && !f.known
    {
        let reason = f.reason.to_owned();
        let _ = ask(&table, |reply| Command::Fault {
            seat,
            reason,
            reply,
        })
        .await;
    }
    let Some(pinned) = pinned else {
        return;
    };
    let log = BotLog {
        table_id: table.id.clone(),
        seat: super::seat_index(seat),
        bot: pinned.spec(),
        owner: pinned.row.owner.clone(),
        stderr: stderr.lock().unwrap_or_else(|p| p.into_inner()).text(),
        fault: failed
            .as_ref()
            .map(|f| f.reason.to_owned())
            .unwrap_or_default(),
        detail: match (&failed, &outcome) {
            (Some(f), _) => f.detail.clone(),
            (None, Ok(detail)) => detail.clone(),
            _ => String::new(),
        },
        ended_unix_ms: crate::store::now_ms(),
    };
    if let Err(e) = runner
        .store
        .read(move |c| crate::store::bots::save_log(c, &log))
        .await
    {
        tracing::warn!(table = %table.id, error = %e, "a bot's log was not kept");
    }
}

/// A running bot's process and its streams.
struct Process {
    child: Child,
    /// Lines for its standard input, written by a task of their own so that a bot that stops
    /// reading holds up nothing but that task.
    input: mpsc::Sender<String>,
    out: mpsc::Receiver<Out>,
    /// Its control group, when the machine has them.
    group: Option<BotGroup>,
    /// The task draining its standard error; it ends when every process that could write
    /// there is gone, and the log is saved only after it.
    errors: tokio::task::JoinHandle<()>,
}

impl Process {
    async fn send(&mut self, line: &serde_json::Value) -> Result<(), Fault> {
        let mut text = line.to_string();
        text.push('\n');
        match self.input.try_send(text) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => Err(fault(
                "RE",
                format!("the bot stopped reading its input ({INPUT_AHEAD} lines waiting)"),
            )),
            // Its input is closed: how it ended says why.
            Err(mpsc::error::TrySendError::Closed(_)) => Err(self.ended().await),
        }
    }

    /// Why the process ended (it has, or is about to).
    async fn ended(&mut self) -> Fault {
        let status = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
        match status {
            Ok(Ok(s)) if out_of_cpu(s) => fault("TLE", format!("over its CPU time: {s}")),
            Ok(Ok(s)) => fault("RE", format!("the bot's process ended: {s}")),
            _ => fault("RE", "the bot's process stopped reading its input"),
        }
    }

    /// The CPU time its whole group has used, when known.
    fn cpu(&self) -> Option<Duration> {
        self.group.as_ref().and_then(BotGroup::cpu)
    }
}

/// Whether a process ended for its CPU-time limit: SIGXCPU, or the sandbox's exit code for it.
fn out_of_cpu(status: std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    const SIGXCPU: i32 = 24;
    status.signal() == Some(SIGXCPU) || status.code() == Some(128 + SIGXCPU)
}

/// Whether a bot's standard error says it ran out of memory (the address-space limit makes
/// allocations fail, and each runtime says so its own way).
fn out_of_memory(stderr: &str) -> bool {
    const SIGNS: [&str; 6] = [
        "MemoryError",
        "Cannot allocate memory",
        "out of memory",
        "memory allocation of",
        "std::bad_alloc",
        "failed to allocate",
    ];
    SIGNS.iter().any(|s| stderr.contains(s))
}

/// How the wait for the match to start ended.
enum Start {
    /// It started: the updates so far, for the bot to see first.
    Started(Vec<v1::Update>),
    /// It ended, or the seat was stopped, before it started.
    Never(Result<String, Fault>),
}

/// Waits on the seat's stream for the match to start (all seats taken), keeping the updates:
/// a bot's process starts only then, so that a table still waiting for players holds no
/// process and no sandbox user.
async fn wait_for_start(
    stream: &mut crate::table::feed::UpdateStream,
    table: &TableHandle,
    seat: u32,
) -> Start {
    let mut seen = Vec::new();
    loop {
        let Some(Ok(update)) = stream.next().await else {
            return Start::Never(stopped(table, seat).await);
        };
        let started = match &update.kind {
            Some(v1::update::Kind::Snapshot(s)) => s.observation.is_some(),
            Some(v1::update::Kind::MatchEnded(_)) => {
                return Start::Never(Ok("the match ended before it started".into()));
            }
            Some(v1::update::Kind::SeatChanged(_)) => false,
            _ => true,
        } || update.next_turn.is_some();
        seen.push(*update);
        if started {
            return Start::Started(seen);
        }
    }
}

async fn drive(
    runner: &Arc<BotRunner>,
    table: &TableHandle,
    seat: Seat,
    pinned: &Pinned,
    taken: bool,
    stderr: Arc<Mutex<Tail>>,
) -> Result<String, Fault> {
    let sandbox = runner
        .available()
        .await
        .map_err(|e| fault("RE", e.to_string()))?;
    let spec = pinned.spec();
    let ended = |e: ServiceError| fault("RE", format!("the seat could not be taken: {e}"));
    let token = if taken {
        ask(table, |reply| Command::Reissue {
            seat,
            name: spec.clone(),
            reply,
        })
        .await
        .map_err(ended)?
        .map_err(ended)?
        .0
    } else {
        ask(table, |reply| Command::Join {
            seat: Some(seat),
            name: spec.clone(),
            guest: false,
            entropy: Vec::new(),
            client: Joiner::Server,
            reply,
        })
        .await
        .map_err(ended)?
        .map_err(ended)?
        .1
    };
    let seat_no = seat.index() as u32;
    let mut stream = ask(table, |reply| Command::Observe {
        token: Some(token.clone()),
        resume: None,
        reply,
    })
    .await
    .map_err(|e| fault("RE", e.to_string()))?
    .map_err(|e| fault("RE", e.to_string()))?;
    let seen = match wait_for_start(&mut stream, table, seat_no).await {
        Start::Started(seen) => seen,
        Start::Never(outcome) => return outcome,
    };
    let dir = runner
        .unpacked(&pinned.row)
        .await
        .map_err(|e| fault("RE", e))?;
    let uid = runner.uids.take().ok_or_else(|| {
        tracing::warn!(
            table = %table.id,
            "every sandbox user is taken by a running bot: a bot could not start"
        );
        fault(
            "RE",
            "the server was running as many bots as it has sandbox users for",
        )
    })?;
    let limits = runner.options.limits;
    let group = match runner.cgroups().await {
        Some(c) => {
            let made = c.create(uid.uid, limits.memory_mb, limits.processes);
            Some(made.map_err(|e| fault("RE", format!("the bot's control group: {e}")))?)
        }
        None => None,
    };
    let runtime = super::files::Runtime::parse(&pinned.row.runtime)
        .unwrap_or(super::files::Runtime::Executable);
    let mut command = sandbox.std_command(&dir, &pinned.row.entry, runtime, uid.uid, &limits);
    if let Some(g) = &group {
        command = g.wrap(command);
    }
    let mut child = tokio::process::Command::from(command)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fault("RE", format!("the bot could not start: {e}")))?;
    let (Some(mut stdin), Some(stdout), Some(mut err)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(fault("RE", "the bot's streams could not be opened"));
    };
    // Standard input: the lines in order; the task ends when the driver drops its sender (the
    // bot then reads end of file) or the bot is gone.
    let (input, mut lines) = mpsc::channel::<String>(INPUT_AHEAD);
    tokio::spawn(async move {
        while let Some(line) = lines.recv().await {
            if stdin.write_all(line.as_bytes()).await.is_err() {
                return;
            }
        }
    });
    // Standard error: always drained (a full pipe would block the bot), the end kept.
    let tail = stderr.clone();
    let errors = tokio::spawn(async move {
        let mut buf = vec![0u8; 8192];
        while let Ok(n) = err.read(&mut buf).await {
            if n == 0 {
                break;
            }
            tail.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(&buf[..n]);
        }
    });
    // Standard output: lines, each at most MAX_LINE bytes; a few may wait, more are a flood.
    let (tx, out) = mpsc::channel(LINES_AHEAD);
    tokio::spawn(async move {
        let mut reader = BufReader::new(stdout);
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = (&mut reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line)
                .await;
            let item = match read {
                Ok(0) | Err(_) => return,
                Ok(_) if line.len() > MAX_LINE => {
                    Out::Garbage(format!("a line of more than {MAX_LINE} bytes"))
                }
                Ok(_) => match std::str::from_utf8(&line) {
                    Ok(text) => Out::Line(text.trim_end_matches(['\n', '\r']).to_owned()),
                    Err(_) => Out::Garbage("bytes that are not UTF-8 text".into()),
                },
            };
            let stop = matches!(item, Out::Garbage(_));
            match tx.try_send(item) {
                Ok(()) if !stop => {}
                Ok(()) => return,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    let _ = tx
                        .send(Out::Garbage(format!(
                            "more than {LINES_AHEAD} lines ahead of its turn"
                        )))
                        .await;
                    return;
                }
                Err(mpsc::error::TrySendError::Closed(_)) => return,
            }
        }
    });
    let mut p = Process {
        child,
        input,
        out,
        group,
        errors,
    };
    let session = Session {
        table,
        seat: seat_no,
        token: &token,
        limits: &limits,
    };
    let result = session.play(&spec, &mut p, stream, seen).await;
    // However it ended, the process goes: a bot that finished has a moment to exit first.
    let Process {
        mut child,
        input,
        group,
        errors,
        ..
    } = p;
    drop(input);
    if tokio::time::timeout(Duration::from_secs(1), child.wait())
        .await
        .is_err()
    {
        let _ = child.kill().await;
    }
    let oom = group.as_ref().is_some_and(BotGroup::out_of_memory);
    // Whatever it left running goes with its group; only then is its user free again.
    if let Some(g) = group {
        let _ = tokio::task::spawn_blocking(move || drop(g)).await;
    }
    drop(uid);
    // Its last words: with every process gone the pipe ends; a grandchild that escaped a
    // machine without control groups could hold it open, so the wait is bounded.
    let _ = tokio::time::timeout(Duration::from_secs(1), errors).await;
    match result {
        Err(f)
            if f.reason == "RE"
                && (oom
                    || out_of_memory(&stderr.lock().unwrap_or_else(|e| e.into_inner()).text())) =>
        {
            Err(Fault {
                reason: "MLE",
                detail: format!(
                    "out of memory (limit {} MiB): {}",
                    limits.memory_mb, f.detail
                ),
                known: f.known,
            })
        }
        other => other,
    }
}

/// One bot's match: its seat, its token, its limits.
struct Session<'a> {
    table: &'a TableHandle,
    seat: u32,
    token: &'a str,
    limits: &'a BotLimits,
}

impl Session<'_> {
    /// The match, from the bot's first line to its last: the detail of a clean end, or the
    /// fault. `seen`: the stream's updates before the process started.
    async fn play(
        &self,
        spec: &str,
        p: &mut Process,
        mut stream: crate::table::feed::UpdateStream,
        seen: Vec<v1::Update>,
    ) -> Result<String, Fault> {
        let match_s = self.limits.match_s;
        let info = ask(self.table, Command::Info)
            .await
            .map_err(|e| fault("RE", e.to_string()))?;
        p.send(&protocol::start(&info, self.seat, spec, match_s * 1000))
            .await?;
        // The decision the bot must answer now, if one is due.
        let mut due: Option<u64> = None;
        for update in seen {
            if let Some(done) = self.update(p, &update, &mut due).await? {
                return Ok(done);
            }
        }
        let deadline = tokio::time::sleep(Duration::from_secs(match_s));
        tokio::pin!(deadline);
        // The group's CPU time, over the whole match, read once a second.
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let cpu_limit = Duration::from_secs(self.limits.cpu_s);
        loop {
            tokio::select! {
                update = stream.next() => {
                    let Some(Ok(update)) = update else {
                        // Cut off: by the table (it stopped the bot) or as a slow reader.
                        return stopped(self.table, self.seat).await;
                    };
                    if let Some(done) = self.update(p, &update, &mut due).await? {
                        return Ok(done);
                    }
                }
                out = p.out.recv() => {
                    let line = match out {
                        Some(Out::Line(l)) => l,
                        Some(Out::Garbage(why)) => return Err(fault("BAD_OUTPUT", why)),
                        None => return Err(p.ended().await),
                    };
                    self.answer(&line, due.take()).await?;
                }
                _ = tick.tick() => {
                    if p.cpu().is_some_and(|used| used > cpu_limit) {
                        return Err(fault("TLE", format!("over its CPU time of {} s", self.limits.cpu_s)));
                    }
                }
                () = &mut deadline => {
                    return Err(fault("TLE", format!("over its match time of {match_s} s")));
                }
            }
        }
    }

    /// Passes one update of the seat's stream on to the bot; the detail of the end once the
    /// match is over.
    async fn update(
        &self,
        p: &mut Process,
        update: &v1::Update,
        due: &mut Option<u64>,
    ) -> Result<Option<String>, Fault> {
        if let Some(v1::update::Kind::MatchEnded(end)) = &update.kind {
            let _ = p.send(&protocol::observe(update, None)).await;
            let _ = p.send(&protocol::end(end)).await;
            return Ok(Some("played to the end".into()));
        }
        let Some(turn) = protocol::turn_of(update, self.seat) else {
            p.send(&protocol::observe(update, None)).await?;
            return Ok(None);
        };
        let observation = ask(self.table, |reply| Command::Observation {
            token: self.token.to_owned(),
            reply,
        })
        .await
        .ok()
        .and_then(Result::ok)
        .and_then(|o| o.observation);
        // No observation: the table has stopped the seat meanwhile; its verdict says why.
        let Some(obs) = observation else {
            return stopped(self.table, self.seat).await.map(Some);
        };
        p.send(&protocol::observe(update, Some((&turn, &obs))))
            .await?;
        *due = Some(turn.decision);
        Ok(None)
    }

    /// Plays the bot's answer `line` for `decision`, the one due.
    async fn answer(&self, line: &str, decision: Option<u64>) -> Result<(), Fault> {
        let Some(decision) = decision else {
            return Err(fault(
                "BAD_OUTPUT",
                format!("wrote {:?} when no answer was due", clip(line)),
            ));
        };
        let Some(notation) = protocol::answer(line) else {
            return Err(fault(
                "BAD_OUTPUT",
                format!("{:?} is not an action", clip(line)),
            ));
        };
        let action = Box::new(v1::Action {
            notation: notation.clone(),
            ..Default::default()
        });
        let answered = ask(self.table, |reply| Command::Act {
            token: self.token.to_owned(),
            decision,
            action,
            reply,
        })
        .await
        .map_err(|e| fault("RE", e.to_string()))?;
        match answered {
            Ok(_) | Err(ServiceError::Stale(..)) => Ok(()),
            Err(e @ (ServiceError::Illegal(_) | ServiceError::Invalid(..))) => {
                Err(fault("BAD_OUTPUT", format!("{notation:?}: {e}")))
            }
            // Over, or the table stopped the bot meanwhile: the stream says which.
            Err(_) => Ok(()),
        }
    }
}

/// The stream ended before the match: the table's verdict on the seat, if it gave one.
async fn stopped(table: &TableHandle, seat: u32) -> Result<String, Fault> {
    let info = ask(table, Command::Info).await.ok();
    let seat_info = info.as_ref().and_then(|t| t.seats.get(seat as usize));
    match seat_info.map(|s| s.fault.as_str()) {
        Some("TLE") => Err(Fault {
            known: true,
            ..fault("TLE", "out of time on its clock")
        }),
        Some("") | None => match info.map(|t| t.state) {
            Some(s)
                if s == v1::TableState::Finished as i32
                    || s == v1::TableState::Abandoned as i32 =>
            {
                Ok("the match ended".into())
            }
            _ => Err(fault(
                "RE",
                "the seat's stream ended early (the server stopping, or a reader too slow)",
            )),
        },
        Some(other) => Err(Fault {
            reason: match other {
                "MLE" => "MLE",
                "BAD_OUTPUT" => "BAD_OUTPUT",
                _ => "RE",
            },
            detail: "stopped by the table".into(),
            known: true,
        }),
    }
}

/// A line as quoted in a detail: at most 80 characters.
fn clip(line: &str) -> String {
    line.chars().take(80).collect()
}
