//! Submitted bots, run by a real server process in its bubblewrap sandbox: submissions and
//! their versions, the protocol played to the end, every fault named (TLE, MLE, RE,
//! BAD_OUTPUT) with the table's policy applied, the hostile bots contained while a measured
//! player keeps its `Act` p99 under 50 ms, and a bot's log readable by its owner alone.
//!
//! The sandbox needs bubblewrap and root (each bot runs as a user of its own): the test
//! command installs one and runs as the other. Elsewhere these tests say why and stop.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use calabresella_proto::v1;
use calabresella_proto::v1::bot_service_client::BotServiceClient;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use tonic::transport::Channel;

/// One test at a time: the hostile suite measures latency.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_calabresella"))
}

fn bots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

/// A test bot as one file: the shared protocol loop, then the bot's own code.
fn bot_file(dir: &Path, name: &str) -> PathBuf {
    let shared = std::fs::read_to_string(bots_dir().join("_play.py")).expect("_play.py");
    let own = std::fs::read_to_string(bots_dir().join(format!("{name}.py"))).expect("bot");
    let path = dir.join(format!("{name}.py"));
    std::fs::write(&path, format!("{shared}\n{own}")).expect("write");
    path
}

struct Server {
    child: Child,
    url: String,
    _dir: tempfile::TempDir,
    keys: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether this machine can run the sandbox; why not, if it cannot.
fn sandbox_here() -> Result<(), String> {
    calabresella_server::submitted::sandbox::Sandbox::probe(None, "/usr/bin/python3", false)
        .map(|_| ())
}

impl Server {
    /// A server with players `names` registered (their keys in order).
    fn start(names: &[&str], extra: &[&str]) -> Server {
        Server::start_in(tempfile::tempdir().expect("dir"), names, extra)
    }

    /// [`Server::start`] on the database in `dir` (players added only where new).
    fn start_in(dir: tempfile::TempDir, names: &[&str], extra: &[&str]) -> Server {
        use std::io::{BufRead, BufReader};
        let db = dir.path().join("s.db");
        let mut keys = Vec::new();
        for n in names {
            let out = bin()
                .args(["players", "add", n, "--db"])
                .arg(&db)
                .output()
                .expect("players add");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            keys.push(String::from_utf8_lossy(&out.stdout).trim().to_owned());
        }
        let mut child = bin()
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--no-web",
                "--log",
                "warn",
            ])
            .arg("--db")
            .arg(&db)
            .args(["--bot-python", "/usr/bin/python3", "--bot-memory-mb", "256"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let addr = loop {
            let line = lines.next().expect("listening").expect("line");
            if let Some(a) = line.strip_prefix("calabresella: listening on ") {
                break a.split_whitespace().next().expect("addr").to_owned();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Server {
            child,
            url: format!("http://{addr}"),
            _dir: dir,
            keys,
        }
    }

    async fn channel(&self) -> Channel {
        Channel::from_shared(self.url.clone())
            .expect("url")
            .connect()
            .await
            .expect("connect")
    }

    async fn submit(
        &self,
        key: usize,
        name: &str,
        file: &Path,
    ) -> Result<v1::BotVersion, tonic::Status> {
        let mut c = BotServiceClient::new(self.channel().await);
        let mut r = tonic::Request::new(v1::SubmitBotRequest {
            name: name.into(),
            file_name: file
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned(),
            content: std::fs::read(file).expect("read"),
            entry: String::new(),
        });
        calabresella_client::authorize(&mut r, Some(&self.keys[key])).expect("key");
        c.submit_bot(r)
            .await
            .map(|r| r.into_inner().version.expect("version"))
    }

    /// A bot's log, once its driver has kept it (it does as the bot's process ends, just after
    /// the match).
    async fn log(
        &self,
        key: usize,
        table: &str,
        seat: u32,
    ) -> Result<v1::GetBotLogResponse, tonic::Status> {
        let mut c = BotServiceClient::new(self.channel().await);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let mut r = tonic::Request::new(v1::GetBotLogRequest {
                table_id: table.into(),
                seat,
            });
            calabresella_client::authorize(&mut r, Some(&self.keys[key])).expect("key");
            match c.get_bot_log(r).await {
                Err(e)
                    if common::reason(&e) == "BOT_LOG_NOT_FOUND" && Instant::now() < deadline =>
                {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                other => return other.map(tonic::Response::into_inner),
            }
        }
    }
}

/// A table of `bots` (names: seat kinds, built-in or submitted), its clock `move_ms` with the
/// timeout `policy`.
async fn table(
    c: &mut TableServiceClient<Channel>,
    game: v1::Game,
    bots: &[&str],
    move_ms: u32,
    policy: v1::TimeoutPolicy,
) -> String {
    let choices: Vec<_> = bots
        .iter()
        .map(|b| calabresella_client::requests::seat(b).expect("seat"))
        .collect();
    c.create_table(v1::CreateTableRequest {
        options: Some(common::options(
            game,
            if game == v1::Game::Calabresella {
                1
            } else {
                11
            },
        )),
        seats: choices.iter().map(|s| s.kind as i32).collect(),
        seat_bots: choices.iter().map(|s| s.bot.clone()).collect(),
        clock: Some(v1::Clock {
            move_ms,
            bank_ms: 0,
            on_timeout: policy as i32,
        }),
        ..Default::default()
    })
    .await
    .expect("create")
    .into_inner()
    .table
    .expect("table")
    .table_id
}

/// The table once its match is over (within `wait`).
async fn finished(c: &mut TableServiceClient<Channel>, id: &str, wait: Duration) -> v1::Table {
    let deadline = Instant::now() + wait;
    loop {
        let t = common::table_of(c, id.to_owned()).await;
        if t.state == v1::TableState::Finished as i32 || t.state == v1::TableState::Abandoned as i32
        {
            return t;
        }
        assert!(Instant::now() < deadline, "the match ends: {t:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Skips a test where the sandbox cannot run, saying why; fails instead where the test command
/// requires it (`CALABRESELLA_REQUIRE_SANDBOX=1`: it installs bubblewrap and runs as root).
macro_rules! needs_sandbox {
    () => {
        if let Err(why) = sandbox_here() {
            assert!(
                std::env::var_os("CALABRESELLA_REQUIRE_SANDBOX").is_none(),
                "the sandbox is required here: {why}"
            );
            eprintln!("skipped: no sandbox here ({why})");
            return;
        }
    };
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_are_versioned_owned_and_checked() {
    needs_sandbox!();
    let _turn = TURN.lock().await;
    let server = Server::start(&["ann", "ben"], &[]);
    let dir = tempfile::tempdir().expect("dir");
    let file = bot_file(dir.path(), "parricide");
    let v1 = server.submit(0, "anns-bot", &file).await.expect("submit");
    assert_eq!(
        (v1.version, v1.owner.as_str(), v1.runtime.as_str()),
        (1, "ann", "python")
    );
    assert_eq!(v1.sha256.len(), 64);
    let v2 = server.submit(0, "anns-bot", &file).await.expect("again");
    assert_eq!(v2.version, 2);
    // Another player may not submit under that name; bad names and files are refused.
    let e = server
        .submit(1, "anns-bot", &file)
        .await
        .expect_err("not his");
    assert_eq!(
        (e.code(), common::reason(&e).as_str()),
        (tonic::Code::PermissionDenied, "NOT_YOUR_BOT")
    );
    let e = server.submit(1, "Bad Name", &file).await.expect_err("name");
    assert_eq!(common::reason(&e), "BAD_SUBMISSION");
    let empty = dir.path().join("empty.py");
    std::fs::write(&empty, "").expect("write");
    let e = server.submit(1, "empty", &empty).await.expect_err("empty");
    assert_eq!(common::reason(&e), "BAD_SUBMISSION");
    // Every version is listed; an unknown bot or version cannot be seated.
    let mut b = BotServiceClient::new(server.channel().await);
    let listed = b
        .list_bots(v1::ListBotsRequest::default())
        .await
        .expect("list")
        .into_inner()
        .versions;
    assert_eq!(
        listed.iter().map(|v| v.version).collect::<Vec<_>>(),
        vec![1, 2]
    );
    let mut c = TableServiceClient::new(server.channel().await);
    for bad in ["submitted:nobody", "submitted:anns-bot@3"] {
        let e = c
            .create_table(v1::CreateTableRequest {
                options: Some(common::options(v1::Game::TressetteInDue, 11)),
                seats: vec![
                    v1::SeatKind::BotNamed as i32,
                    v1::SeatKind::BotRandom as i32,
                ],
                seat_bots: vec![bad.into(), String::new()],
                ..Default::default()
            })
            .await
            .expect_err("no such bot");
        assert_eq!(common::reason(&e), "BAD_SEATS", "{bad}");
    }
    // Without a key there is no submitting.
    let mut anon = BotServiceClient::new(server.channel().await);
    let e = anon
        .submit_bot(v1::SubmitBotRequest::default())
        .await
        .expect_err("no key");
    assert_eq!(common::reason(&e), "KEY_REQUIRED");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_submitted_bot_plays_its_match_and_the_record_names_its_version() {
    needs_sandbox!();
    let _turn = TURN.lock().await;
    let server = Server::start(&["ann", "ben"], &[]);
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bots/python/first_legal.py");
    server.submit(0, "first", &example).await.expect("submit");
    server
        .submit(0, "first", &example)
        .await
        .expect("a second version");
    let mut c = TableServiceClient::new(server.channel().await);
    // Pinned by name to the latest version, or to one named; in every game.
    for (game, bots) in [
        (
            v1::Game::Calabresella,
            vec!["submitted:first", "random", "heuristic"],
        ),
        (
            v1::Game::TressetteInDue,
            vec!["submitted:first@1", "submitted:first"],
        ),
    ] {
        let id = table(&mut c, game, &bots, 2000, v1::TimeoutPolicy::Forfeit).await;
        let t = finished(&mut c, &id, Duration::from_secs(60)).await;
        assert_eq!(t.state, v1::TableState::Finished as i32);
        let result = t.result.expect("result");
        assert!(
            result.faults.is_empty() && result.forfeited_by.is_none(),
            "{result:?}"
        );
        let record: serde_json::Value =
            serde_json::from_str(&common::fetch_record(&c, id.clone()).await.record_json)
                .expect("json");
        let players = &record["meta"]["players"];
        assert_eq!(
            players[0]["bot"],
            if bots[0].ends_with("@1") {
                "submitted:first@1"
            } else {
                "submitted:first@2"
            }
        );
        // Its log: the owner reads it, nobody else does.
        let log = server.log(0, &id, 0).await.expect("the owner's log");
        assert!(
            log.fault.is_empty() && log.stderr.contains("the match is over"),
            "{log:?}"
        );
        let e = server.log(1, &id, 0).await.expect_err("another's");
        assert_eq!(common::reason(&e), "NOT_YOUR_BOT");
    }
}

/// The hostile bots, each with the fault it must be stopped for (empty: contained, it plays
/// to the end), and what its log must (not) show.
const HOSTILE: [(&str, &str, &str); 13] = [
    ("loop", "TLE", ""),
    ("memory", "MLE", ""),
    ("forkbomb", "", "forked"),
    ("connect", "", "no connection to 127.0.0.1:50051"),
    ("snoop", "", "nothing readable"),
    ("scribble", "", "WROTE /tmp/scratch"),
    ("flood", "BAD_OUTPUT", ""),
    ("sleeper", "TLE", ""),
    ("parricide", "", "cannot kill"),
    ("garbage", "BAD_OUTPUT", ""),
    ("crash", "RE", "boom"),
    ("deaf", "TLE", ""),
    ("swarm", "MLE", ""),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bots_are_contained_while_a_player_is_served() {
    needs_sandbox!();
    let _turn = TURN.lock().await;
    let server = Server::start(&["eve"], &[]);
    let dir = tempfile::tempdir().expect("dir");
    for (name, _, _) in HOSTILE {
        server
            .submit(0, name, &bot_file(dir.path(), name))
            .await
            .unwrap_or_else(|e| panic!("submit {name}: {e:?}"));
    }
    let mut c = TableServiceClient::new(server.channel().await);
    // Every hostile bot at a table of its own, the clock a second per decision (but one); the first
    // half forfeit for a fault, the others have a built-in bot play on.
    let mut tables = Vec::new();
    for (i, (name, _, _)) in HOSTILE.iter().enumerate() {
        let policy = if i % 2 == 0 {
            v1::TimeoutPolicy::Forfeit
        } else {
            v1::TimeoutPolicy::Bot
        };
        let bot = format!("submitted:{name}");
        // The swarm's six processes fill 480 MiB before its first answer: on two busy cores
        // that can take longer than a second, and its fault is the memory, not the clock.
        let clock = if *name == "swarm" { 10_000 } else { 1000 };
        let id = table(
            &mut c,
            v1::Game::Calabresella,
            &[&bot, "random", "random"],
            clock,
            policy,
        )
        .await;
        tables.push((id, policy));
    }
    // Meanwhile a person plays a whole match and times each answer.
    let measured = table(
        &mut c,
        v1::Game::Calabresella,
        &["open", "random", "random"],
        60_000,
        v1::TimeoutPolicy::Bot,
    )
    .await;
    let mut seat = calabresella_client::RemoteSeat::join(c.clone(), &measured, Some(0), "measured")
        .await
        .expect("join");
    seat.act_times = Some(Vec::new());
    seat.play(common::random_choice(7), |_| {})
        .await
        .expect("the measured match");
    let mut times = seat.act_times.take().unwrap_or_default();
    times.sort_unstable();
    assert!(!times.is_empty());
    let p99 = times[(times.len() - 1) * 99 / 100];
    assert!(
        p99 < Duration::from_millis(50),
        "Act p99 {p99:?} beside the hostile bots ({} answers)",
        times.len()
    );
    // Without control groups the swarm's processes are held each to the limit, not together:
    // it plays on.
    let cgroups = calabresella_server::submitted::cgroup::Cgroups::detect().is_ok();
    // Every hostile table finished, each fault named on the seat, in the result and the log.
    for ((name, want, shows), (id, policy)) in HOSTILE.iter().zip(&tables) {
        let want = if *name == "swarm" && !cgroups {
            &""
        } else {
            want
        };
        let t = finished(&mut c, id, Duration::from_secs(120)).await;
        assert_eq!(t.state, v1::TableState::Finished as i32, "{name}");
        let result = t.result.clone().expect("result");
        let log = server
            .log(0, id, 0)
            .await
            .unwrap_or_else(|e| panic!("{name}'s log: {e:?}"));
        assert_eq!(t.seats[0].fault, *want, "{name}: {log:?}");
        assert_eq!(log.fault, *want, "{name}: {log:?}");
        if want.is_empty() {
            assert!(result.faults.is_empty(), "{name}: {result:?}");
        } else {
            assert_eq!(
                result.faults.first().map(|f| f.reason.as_str()),
                Some(*want),
                "{name}"
            );
            let forfeited = result.forfeited_by == Some(0);
            assert_eq!(
                forfeited,
                *policy == v1::TimeoutPolicy::Forfeit,
                "{name}: {result:?}"
            );
        }
        assert!(log.stderr.contains(shows), "{name}: {:?}", log.stderr);
        if *name == "swarm" && cgroups {
            // Killed for the group's memory (which of its processes, and how many blocks were
            // filled before, depends on the machine's speed), never all six blocks at once.
            assert!(log.detail.contains("out of memory"), "{name}: {log:?}");
            let allocated = log.stderr.matches("ALLOCATED").count();
            assert!(
                allocated < 6,
                "{name}: {allocated} of 6 blocks held together"
            );
        } else if *name == "swarm" {
            // Without control groups each process is held to the limit alone: all six fill.
            assert_eq!(log.stderr.matches("ALLOCATED").count(), 6, "{log:?}");
        }
        for never in [
            "CONNECTED",
            "READABLE",
            "WROTE /bot",
            "WROTE /usr",
            "WROTE /x",
            "WROTE /etc",
            "KILLED",
        ] {
            assert!(!log.stderr.contains(never), "{name}: {:?}", log.stderr);
        }
    }
    // The server is still itself.
    c.list_tables(v1::ListTablesRequest::default())
        .await
        .expect("alive");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_sends_its_own_bot_to_play_a_matchmaking_match() {
    needs_sandbox!();
    let _turn = TURN.lock().await;
    let server = Server::start(&["ann", "ben"], &[]);
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bots/python/first_legal.py");
    server.submit(0, "anns", &example).await.expect("submit");
    let mut c = TableServiceClient::new(server.channel().await);
    let seek = |key: usize, bot: &str| {
        let mut r = tonic::Request::new(v1::SeekRequest {
            options: Some(common::options(v1::Game::TressetteInDue, 11)),
            bots_after_ms: 1,
            bot: bot.into(),
            ..Default::default()
        });
        calabresella_client::authorize(&mut r, Some(&server.keys[key])).expect("key");
        r
    };
    // Another player may not send ann's bot.
    let e = c
        .seek(seek(1, "submitted:anns"))
        .await
        .expect_err("not his");
    assert_eq!(common::reason(&e), "NOT_YOUR_BOT");
    let mut stream = c
        .seek(seek(0, "submitted:anns"))
        .await
        .expect("seek")
        .into_inner();
    let mut seated = None;
    while let Some(m) = stream.message().await.expect("seek stream") {
        if let Some(v1::seek_response::Event::Seated(a)) = m.event {
            seated = Some(a);
        }
    }
    let a = seated.expect("seated");
    assert!(
        a.seat_token.is_empty(),
        "the bot plays: no token for the player"
    );
    let t = finished(&mut c, &a.table_id, Duration::from_secs(60)).await;
    assert_eq!(t.seats[a.seat as usize].player_name, "submitted:anns@1");
    assert!(t.seats[a.seat as usize].fault.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_submitted_bot_starts_again_after_the_server_is_killed_mid_match() {
    needs_sandbox!();
    let _turn = TURN.lock().await;
    let mut server = Server::start(&["ann"], &[]);
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bots/python/first_legal.py");
    server.submit(0, "anns", &example).await.expect("submit");
    let mut c = TableServiceClient::new(server.channel().await);
    // Slow built-in bots keep the match going for a few seconds.
    let choices = ["submitted:anns", "heuristic", "heuristic"]
        .map(|b| calabresella_client::requests::seat(b).expect("seat"));
    let id = c
        .create_table(v1::CreateTableRequest {
            options: Some(common::options(v1::Game::Calabresella, 11)),
            seats: choices.iter().map(|s| s.kind as i32).collect(),
            seat_bots: choices.iter().map(|s| s.bot.clone()).collect(),
            bot_delay_ms: 150,
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table")
        .table_id;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let before = common::table_of(&mut c, id.clone()).await;
    assert_eq!(
        before.state,
        v1::TableState::Playing as i32,
        "still in play"
    );
    let _ = server.child.kill();
    let _ = server.child.wait();
    let dir = std::mem::replace(&mut server._dir, tempfile::tempdir().expect("dir"));
    let server = Server::start_in(dir, &[], &[]);
    let mut c = TableServiceClient::new(server.channel().await);
    let t = finished(&mut c, &id, Duration::from_secs(120)).await;
    assert_eq!(t.state, v1::TableState::Finished as i32);
    assert!(t.decisions > before.decisions);
    assert!(t.seats[0].fault.is_empty(), "{:?}", t.seats[0]);
    assert!(t.result.expect("result").faults.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fault_outlives_a_restart_and_the_stand_in_plays_on() {
    needs_sandbox!();
    let _turn = TURN.lock().await;
    let mut server = Server::start(&["ann"], &[]);
    let dir = tempfile::tempdir().expect("dir");
    server
        .submit(0, "sleeper", &bot_file(dir.path(), "sleeper"))
        .await
        .expect("submit");
    let mut c = TableServiceClient::new(server.channel().await);
    let choices = ["submitted:sleeper", "heuristic", "heuristic"]
        .map(|b| calabresella_client::requests::seat(b).expect("seat"));
    let id = c
        .create_table(v1::CreateTableRequest {
            options: Some(common::options(v1::Game::Calabresella, 11)),
            seats: choices.iter().map(|s| s.kind as i32).collect(),
            seat_bots: choices.iter().map(|s| s.bot.clone()).collect(),
            clock: Some(v1::Clock {
                move_ms: 500,
                bank_ms: 0,
                on_timeout: v1::TimeoutPolicy::Bot as i32,
            }),
            // Slow built-in bots keep the match going well past the fault.
            bot_delay_ms: 200,
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table")
        .table_id;
    // The sleeper's first turn runs out: stopped, and the heuristic plays its seat on.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let before = loop {
        let t = common::table_of(&mut c, id.clone()).await;
        if t.seats[0].fault == "TLE" {
            break t;
        }
        assert!(tokio::time::Instant::now() < deadline, "no fault: {t:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(before.state, v1::TableState::Playing as i32);
    let _ = server.child.kill();
    let _ = server.child.wait();
    let dir = std::mem::replace(&mut server._dir, tempfile::tempdir().expect("dir"));
    let server = Server::start_in(dir, &[], &[]);
    let mut c = TableServiceClient::new(server.channel().await);
    // Restored stopped: the bot does not start again, the stand-in plays to the end.
    let restored = common::table_of(&mut c, id.clone()).await;
    assert_eq!(restored.seats[0].fault, "TLE", "{:?}", restored.seats[0]);
    let t = finished(&mut c, &id, Duration::from_secs(120)).await;
    assert_eq!(t.state, v1::TableState::Finished as i32);
    assert!(t.decisions > before.decisions);
    let faults = t.result.expect("result").faults;
    assert_eq!(
        faults
            .iter()
            .map(|f| (f.seat, f.reason.as_str()))
            .collect::<Vec<_>>(),
        vec![(0, "TLE")]
    );
    assert!(faults[0].decision <= before.decisions);
}
