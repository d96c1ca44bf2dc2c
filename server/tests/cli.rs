//! The `calabresella` command end to end: replay against hand-worked records, invalid input,
//! and play -> record -> replay.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_calabresella"))
}

fn replay_bytes(input: &[u8]) -> Output {
    let mut child = bin()
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn replay_text(text: &str) -> Output {
    replay_bytes(text.as_bytes())
}

fn replay_ok(record: &Value) -> Value {
    let out = replay_text(&record.to_string());
    assert!(
        out.status.success(),
        "replay failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn replay_err(text: &str) -> String {
    let out = replay_text(text);
    assert_eq!(
        out.status.code(),
        Some(1),
        "expected exit 1, stderr {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line on stderr: {err:?}"
    );
    err.trim_end().to_string()
}

/// The stramazzo deal of the rules tests (seat 1 soloist in solissimo, dealer 0).
fn stramazzo_record(options: Value) -> Value {
    let plays = [
        // Trick 1: the defenders win 4s 5s 6s (no points). Then seat 0 leads, and the soloist
        // wins every other trick (hand-worked: he holds 3-2-A of b, c, d and 3s 2s).
        "play 4s", "play 5s", "play 6s", "play 4c", "play 3c", "play 7c", "play Ab", "play 4b",
        "play 7s", "play 2b", "play 5b", "play 5c", "play 3b", "play 6b", "play 6c", "play Ac",
        "play Fc", "play Kd", "play 2c", "play Cc", "play Cd", "play Ad", "play Kb", "play 4d",
        "play 2d", "play Cb", "play 5d", "play 3d", "play Fb", "play 6d", "play 2s", "play 7b",
        "play 7d", "play 3s", "play Kc", "play Fd",
    ];
    let mut actions = vec![
        json!("bid solissimo"),
        json!({"seat": 2, "action": "pass", "ms": 120}),
        json!("pass"),
    ];
    actions.extend(plays.iter().map(|p| json!(p)));
    json!({
        "format": "calabresella-record/1",
        "game": "calabresella",
        "players": 3,
        "options": options,
        "first_dealer": 0,
        "hands": [{
            "dealer": 0,
            "deal": {
                "hands": [
                    ["6s", "7s", "6c", "5c", "4c", "Kd", "Cd", "Fd", "7d", "6d", "5d", "4d"],
                    ["3b", "2b", "Ab", "3c", "2c", "Ac", "3d", "2d", "Ad", "3s", "2s", "4s"],
                    ["5s", "Kb", "Cb", "Fb", "7b", "6b", "5b", "4b", "Kc", "Cc", "Fc", "7c"]
                ],
                "monte": ["As", "Ks", "Cs", "Fs"]
            },
            "actions": actions
        }]
    })
}

#[test]
fn replay_agrees_with_the_hand_worked_stramazzo_c_d12_c_d13_c_d15() {
    let out = replay_ok(&stramazzo_record(json!({})));
    let h = &out["hands"][0];
    assert_eq!(h["soloist"], 1);
    assert_eq!(h["contract"], "solissimo");
    assert_eq!(h["points"], json!({"soloist": 11, "defenders": 0}));
    assert_eq!(h["tricks"], json!({"soloist": 11, "defenders": 1}));
    assert_eq!(h["last_trick"], "soloist");
    assert_eq!(h["made"], true);
    assert_eq!(h["multiplier"], 3);
    assert_eq!(h["award"], json!([0, 12, 0]));
    assert_eq!(
        out["match"],
        json!({"over": false, "winners": [], "winning_seats": [], "draw": false, "totals": [0, 12, 0]})
    );
}

#[test]
fn replay_no_stramazzo_option_c_d20_and_match_end_c_d16() {
    let out = replay_ok(&stramazzo_record(json!({"stramazzo": false, "target": 4})));
    assert_eq!(out["hands"][0]["multiplier"], 1);
    assert_eq!(out["hands"][0]["award"], json!([0, 4, 0]));
    assert_eq!(
        out["match"]["over"], true,
        "the soloist reached the target of 4"
    );
    assert_eq!(out["match"]["winners"], json!([1]));
}

#[test]
fn replay_void_deal_c_d4_and_unfinished_hand() {
    let mut rec = stramazzo_record(json!({}));
    let deal = rec["hands"][0]["deal"].clone();
    rec["hands"] = json!([
        {"dealer": 0, "deal": deal, "actions": ["pass", "pass", "pass"]},
        {"dealer": 0, "deal": deal, "actions": ["bid solo", "pass"]}
    ]);
    let out = replay_ok(&rec);
    assert_eq!(out["hands"][0]["void"], true);
    assert_eq!(out["hands"][0]["award"], json!([0, 0, 0]));
    assert_eq!(
        out["hands"][1]["complete"], false,
        "the last hand may be unfinished"
    );
    assert_eq!(out["hands"][1]["soloist"], Value::Null);
}

#[test]
fn invalid_records_get_one_line_naming_hand_action_and_seat() {
    let good = stramazzo_record(json!({}));
    let mut bad = good.clone();
    bad["hands"][0]["actions"][4] = json!("play 3b");
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0, action 4 (seat 2): illegal: card 3b is not in hand"
    );
    let mut bad = good.clone();
    bad["hands"][0]["actions"][4] = json!("play 7c");
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0, action 4 (seat 2): illegal: must follow suit s"
    );
    let mut bad = good.clone();
    bad["hands"][0]["actions"][5] = json!("play 6c");
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0, action 5 (seat 0): illegal: must follow suit s"
    );
    let mut bad = good.clone();
    bad["hands"][0]["actions"][1] = json!({"seat": 0, "action": "pass"});
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0, action 1 (seat 2): wrong seat: seat 0 is not to act"
    );
    let mut bad = good.clone();
    bad["hands"][0]["deal"]["monte"][0] = json!("3b");
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0: invalid deal: card 3b dealt twice"
    );
    let mut bad = good.clone();
    bad["hands"][0]["deal"]["hands"][0][0] = json!("Xz");
    assert!(
        replay_err(&bad.to_string())
            .starts_with("hand 0: invalid deal: seat 0: bad notation \"Xz\"")
    );
    let mut bad = good.clone();
    bad["hands"][0]["actions"][1] = json!("bid chiamo");
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0, action 1 (seat 2): illegal: bid too low: must be higher than solissimo"
    );
    let mut bad = good.clone();
    bad["hands"][0]["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!("pass"));
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0, action 39: the hand is already over"
    );
    let mut bad = good.clone();
    bad["options"] = json!({"colour": "red"});
    assert!(replay_err(&bad.to_string()).starts_with("record: options: unknown option \"colour\""));
    let mut bad = good.clone();
    bad["hands"][0]["dealer"] = json!(2);
    assert_eq!(
        replay_err(&bad.to_string()),
        "hand 0: dealer should be seat 0, not 2"
    );
    assert!(replay_err("{").starts_with("record: not a valid record"));
    assert!(replay_err("").starts_with("record: not a valid record"));
    let mut bad = good;
    bad["format"] = json!("calabresella-record/9");
    assert!(replay_err(&bad.to_string()).starts_with("record: unknown format"));
}

#[test]
fn replay_never_panics_on_garbage() {
    let samples: Vec<Vec<u8>> = vec![
        vec![0xff, 0xfe, 0x00],
        b"[]".to_vec(),
        b"null".to_vec(),
        "{\"format\":\"calabresella-record/1\",\"game\":\"calabresella\",\"players\":200,\"first_dealer\":0,\"hands\":[]}".into(),
        "{\"format\":\"calabresella-record/1\",\"game\":\"calabresella\",\"players\":3,\"first_dealer\":9,\"hands\":[]}".into(),
        "[".repeat(100_000).into_bytes(),
    ];
    for s in samples {
        let out = replay_bytes(&s);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{:?}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let missing = bin()
        .args(["replay", "/nonexistent/record.json"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&missing.stderr)
            .starts_with("cannot read /nonexistent/record.json")
    );
}

#[test]
fn play_writes_a_record_that_replays_to_the_same_totals() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    let runs: [&[&str]; 3] = [
        &["--bots", "heuristic,random,random"],
        &[
            "--players",
            "4",
            "--option",
            "aperta=true",
            "--bots",
            "heuristic,random,random,heuristic",
        ],
        &[
            "--option",
            "a_due=true",
            "--bots",
            "heuristic,random,random",
        ],
    ];
    for args in runs {
        let out = bin()
            .args(["play", "--seed", "11"])
            .args(args)
            .args(["--record", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("record written to"));
        let last = text
            .lines()
            .find(|l| l.starts_with("match "))
            .expect("final line");
        let replayed: Value = serde_json::from_slice(
            &bin()
                .args(["replay", path.to_str().unwrap()])
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap();
        let totals: Vec<String> = replayed["match"]["totals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect();
        assert!(
            last.contains(&format!("totals [{}]", totals.join(", "))),
            "{last} vs {totals:?}"
        );
        assert_eq!(replayed["match"]["over"], true);
    }
    let out = bin()
        .args([
            "play",
            "--players",
            "4",
            "--bots",
            "random,random,random",
            "--no-record",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bots names 3 bots for 4 seats"));
}

#[test]
fn play_rejects_bad_arguments_clearly() {
    let out = bin()
        .args(["play", "--bots", "genius", "--no-record"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'genius'") && err.contains("heuristic"),
        "{err}"
    );
    let out = bin()
        .args(["play", "--option", "target", "--no-record"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not key=value"));
    let out = bin()
        .args(["play", "--game", "no-such-game", "--no-record"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for name in calabresella_engine::game::game_names() {
        assert!(err.contains(name), "the allowed games are listed: {err}");
    }
    assert!(err.contains("invalid value 'no-such-game'"), "{err}");
}

#[test]
fn bench_and_duplicate_print_json() {
    let out = bin()
        .args(["bench", "--hands", "2000", "--runs", "1"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["hands_per_sec"].as_f64().unwrap() > 0.0
            && v["api_actions_per_sec"].as_f64().unwrap() > 0.0
    );
    let out = bin().args(["duplicate", "--deals", "20"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The two random bots are interchangeable: the heuristic sits each of the three seats once
    // per deal.
    assert_eq!(v["permutations"], 3);
    assert_eq!(v["hands"], 60);
    assert_eq!(v["bots"].as_array().unwrap().len(), 3);
    assert!(v["bots"][0]["ms_longest_decision"].as_f64().is_some());
}

#[test]
fn analyse_values_every_decision_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("match.json");
    let played = bin()
        .args([
            "play",
            "--game",
            "tressette-in-due",
            "--bots",
            "heuristic,random",
        ])
        .args([
            "--seed",
            "3",
            "--quiet",
            "--record",
            record.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(played.status.success(), "{played:?}");
    let analyse = |extra: &[&str]| {
        bin()
            .arg("analyse")
            .arg(&record)
            .args(["--budget", "worlds=4:work=300"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = analyse(&["--json"]);
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "calabresella-analysis/1");
    assert_eq!(v["budget"], "worlds=4:work=300");
    let decisions = v["decisions"].as_array().unwrap();
    assert!(decisions.len() > 10);
    for d in decisions {
        assert!(d["loss"].as_f64().unwrap() >= 0.0);
        assert!(d["actions"].as_array().unwrap().len() > 1);
    }
    assert_eq!(v["seats"].as_array().unwrap().len(), 2);
    // Deterministic for a seed: the same bytes again.
    assert_eq!(analyse(&["--json"]).stdout, out.stdout);
    // The text report: a line per decision, then the seats' figures.
    let text = String::from_utf8(analyse(&[]).stdout).unwrap();
    assert!(
        text.contains("seat  decisions  mean loss  large errors  accuracy"),
        "{text}"
    );
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("  ") && l.contains(" loss "))
            .count(),
        decisions.len(),
        "{text}"
    );
    // A reader that stops early is no failure, and no panic.
    let mut child = bin()
        .arg("analyse")
        .arg(&record)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert!(child.wait().unwrap().success());
    // Bad input: one clear line, exit 2.
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{\"format\": 7}").unwrap();
    for (args, says) in [
        (vec!["analyse", "/nonexistent.json"], "cannot read it"),
        (vec!["analyse", garbage.to_str().unwrap()], "invalid record"),
        (
            vec!["analyse", record.to_str().unwrap(), "--budget", "depth=3"],
            "unknown pimc parameter",
        ),
        (
            vec!["analyse", record.to_str().unwrap(), "--large", "0"],
            "--large",
        ),
    ] {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn duplicate_on_several_threads_gives_the_same_result() {
    // The deals come from one stream and every bot decides from its seed and what it sees,
    // so the threads change the time taken, not the points.
    let run = |jobs: &str| {
        let out = bin()
            .args(["duplicate", "--game", "tressette", "--deals", "7"])
            .args([
                "--bots",
                "ismcts:iterations=30,pimc:worlds=4",
                "--jobs",
                jobs,
            ])
            .args(["--analyse", "--analyse-budget", "worlds=4:work=500"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
        for bot in v["bots"].as_array_mut().unwrap() {
            let bot = bot.as_object_mut().unwrap();
            bot.remove("ms_per_decision").unwrap();
            bot.remove("ms_longest_decision").unwrap();
        }
        v
    };
    let one = run("1");
    assert_eq!(one["deals"], 7);
    assert_eq!(one, run("3"));
    let refused = |jobs: &str, why: &str| {
        let out = bin()
            .args(["duplicate", "--deals", "2", "--jobs", jobs])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "--jobs {jobs}: {err}");
    };
    refused("0", "--jobs");
    // The default bots include `random`, which draws from one stream over the whole run.
    refused("2", "the default bots include random");
}

#[test]
fn duplicate_analyse_tells_the_heuristic_from_random_in_a_few_deals() {
    let out = bin()
        .args([
            "duplicate",
            "--game",
            "tressette-in-due",
            "--bots",
            "heuristic,random",
        ])
        .args(["--deals", "30", "--analyse"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let loss = |i: usize| v["bots"][i]["mean_loss_per_decision"].clone();
    let (heuristic, random) = (loss(0), loss(1));
    assert_eq!(heuristic["deals"], 30);
    assert!(
        heuristic["ci95"][1].as_f64().unwrap() < random["ci95"][0].as_f64().unwrap(),
        "the heuristic loses less per decision than random, intervals apart: {heuristic} {random}"
    );
    let pair = &v["analysis"]["pairs"][0];
    assert_eq!(pair["bots"], serde_json::json!(["heuristic", "random"]));
    assert_eq!(pair["loss_margin_per_decision"]["separated"], true);
    assert!(
        pair["points_margin_per_hand"]["deals_to_separate"]
            .as_f64()
            .is_some()
    );
}

#[test]
fn tressette_games_play_record_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    for (game, n) in [("tressette", 4), ("tressette-in-due", 2)] {
        let path = dir.path().join(format!("{game}.json"));
        let out = bin()
            .args([
                "play",
                "--game",
                game,
                "--seed",
                "9",
                "--bots",
                "heuristic,random",
                "--record",
                path.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        if n == 4 {
            assert_eq!(
                out.status.code(),
                Some(2),
                "two bot names for four seats is a usage error"
            );
            let out = bin()
                .args([
                    "play",
                    "--game",
                    game,
                    "--seed",
                    "9",
                    "--record",
                    path.to_str().unwrap(),
                ])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        } else {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(record["game"], game);
        assert_eq!(record["players"], n);
        assert_eq!(
            record["hands"][0]["deal"]["stock"].is_array(),
            n == 2,
            "only in due has a stock"
        );
        let replayed = replay_ok(&record);
        assert_eq!(replayed["match"]["over"], true);
        let h = &replayed["hands"][0];
        let points = h["points"].as_array().unwrap();
        assert_eq!(
            points[0].as_u64().unwrap() + points[1].as_u64().unwrap(),
            11,
            "card points sum to 11"
        );

        // A signal on a follow, and a missing stock, are refused with one line.
        let mut bad = record.clone();
        let first = bad["hands"][0]["actions"][1]
            .as_str()
            .unwrap()
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        bad["hands"][0]["actions"][1] = json!(format!("{first} busso"));
        assert!(
            replay_err(&bad.to_string())
                .ends_with("illegal: a signal may only accompany a Tressette lead")
        );
        let mut bad = record.clone();
        bad["players"] = json!(3);
        assert!(replay_err(&bad.to_string()).starts_with("record: options: "));
        if n == 2 {
            let mut bad = record;
            bad["hands"][0]["deal"]["stock"] = Value::Null;
            assert_eq!(
                replay_err(&bad.to_string()),
                "hand 0: invalid deal: the stock is missing"
            );
        }
    }
    let out = bin()
        .args([
            "bench",
            "--game",
            "tressette-in-due",
            "--hands",
            "1000",
            "--runs",
            "1",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "tressette-in-due");
    let out = bin()
        .args(["duplicate", "--game", "tressette", "--deals", "10"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["hands"], 20, "each deal twice, sides swapped");
    let out = bin()
        .args([
            "play",
            "--game",
            "tressette",
            "--players",
            "3",
            "--no-record",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("tressette is played by 4 players, not 3")
    );
}

/// `serve` on a file that is not a sound database stops at once with a message that names
/// the file and the way out, and leaves the file as it was; a new path is created.
#[test]
fn serve_refuses_a_damaged_database_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.db");
    let content = b"SQLite format 3\0"
        .iter()
        .copied()
        .chain(std::iter::repeat_n(7u8, 8192))
        .collect::<Vec<u8>>();
    std::fs::write(&bad, &content).unwrap();
    let out = bin()
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&bad)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.db"), "{err}");
    assert!(err.contains("Nothing was changed"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("listening"));
    assert_eq!(
        std::fs::read(&bad).unwrap(),
        content,
        "the file is untouched"
    );

    // A directory where the file should be: a clear error too.
    let out = bin()
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The client commands against a real server process: `create` makes a table of bots, `tables`
/// lists it (paging through the server's list, filtered by state), and a wrong state is a
/// usage error that names the allowed ones.
#[test]
fn create_and_tables_against_a_running_server() {
    let (mut server, url) = start_server();
    let id = create_table(
        &url,
        &[
            "--seats",
            "heuristic",
            "--name",
            "cli",
            "--game",
            "Tressette",
        ],
    );
    assert!(id.starts_with("t-"), "create prints the table id: {id}");
    let out = bin().args(["tables", "--server", &url]).output().unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        listed.contains(&id) && listed.contains("tressette") && listed.contains("heuristic bot"),
        "{listed}"
    );
    let out = bin()
        .args(["tables", "--server", &url, "--state", "waiting"])
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains(&id),
        "a table of bots is not waiting"
    );
    let out = bin()
        .args(["tables", "--server", &url, "--state", "sleeping"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("waiting, playing, finished or abandoned")
    );
    server.kill().unwrap();
    server.wait().unwrap();
}

/// Starts `serve` on a free loopback port with an in-memory store; returns the process and its
/// URL.
fn start_server() -> (std::process::Child, String) {
    start_server_on(":memory:")
}

/// Starts `serve` on a free loopback port with the database `db`; returns the process and its
/// URL.
fn start_server_on(db: &str) -> (std::process::Child, String) {
    start_server_with(&["--db", db])
}

/// Starts `serve` on a free loopback port with `args`; returns the process and its URL.
fn start_server_with(args: &[&str]) -> (std::process::Child, String) {
    start_server_logging(args, Stdio::null())
}

/// [`start_server_with`], the server's log (standard error) going to `log`.
fn start_server_logging(args: &[&str], log: Stdio) -> (std::process::Child, String) {
    start_server_env(args, log, &[])
}

/// [`start_server_logging`] with environment variables `env` set for the server.
fn start_server_env(
    args: &[&str],
    log: Stdio,
    env: &[(&str, &str)],
) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut server = bin()
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .unwrap();
        if let Some(a) = line.strip_prefix("calabresella: listening on ") {
            break a.trim().to_owned();
        }
    };
    // The server goes on writing (the web front end's address); the rest is not needed.
    std::thread::spawn(move || lines.for_each(drop));
    (server, format!("http://{addr}"))
}

/// Creates a table with `calabresella create` on the server at `url`; returns its id.
fn create_table(url: &str, args: &[&str]) -> String {
    let out = bin()
        .args(["create", "--server", url])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The one retry policy: when the server dies mid-match, play gives up once the outage has
/// lasted the policy's window, counted from the first failure (not twice the window, as when a
/// call's own retries and the loop's were added up).
#[test]
fn a_server_gone_for_longer_than_the_window_ends_play_after_one_window() {
    use calabresella_client::{FnStrategy, PlayError, RemoteSeat, RetryPolicy};
    use std::time::{Duration, Instant};
    let (mut server, url) = start_server();
    let table = create_table(
        &url,
        &[
            "--seats",
            "open,heuristic,heuristic",
            "--bot-delay-ms",
            "300",
        ],
    );
    let window = Duration::from_millis(1500);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let channel = tonic::transport::Channel::from_shared(url.clone())
            .unwrap()
            .connect()
            .await
            .unwrap();
        let client = calabresella_proto::v1::table_service_client::TableServiceClient::new(channel);
        let mut seat = RemoteSeat::join(client, &table, Some(0), "me")
            .await
            .unwrap();
        let (seen_tx, seen_rx) = tokio::sync::oneshot::channel::<()>();
        let mut seen_tx = Some(seen_tx);
        let play = tokio::spawn(async move {
            let mut strategy = FnStrategy {
                choose: |t: &calabresella_proto::v1::Turn, _: Option<&tonic::Status>| {
                    t.legal_actions[0].clone()
                },
                on_update: move |_: &calabresella_proto::v1::Update| {
                    if let Some(tx) = seen_tx.take() {
                        let _ = tx.send(());
                    }
                },
            };
            let policy = RetryPolicy {
                reconnect_for: window,
                ..RetryPolicy::default()
            };
            let r = calabresella_client::play::play(&mut seat, &mut strategy, policy).await;
            (r, Instant::now())
        });
        seen_rx.await.unwrap();
        // The outage starts after this instant (the play loop sees it only once the process is
        // gone), so the time play takes to give up is at least the window from here.
        let killed = Instant::now();
        server.kill().unwrap();
        server.wait().unwrap();
        let (r, ended) = play.await.unwrap();
        assert!(
            matches!(r, Err(PlayError::ConnectionLost(_))),
            "play ends with the connection lost: {r:?}"
        );
        let took = ended - killed;
        assert!(
            took >= window && took < window + Duration::from_millis(900),
            "gave up after {took:?}, with a window of {window:?}"
        );
    });
}

/// `db stats` reads a database beside its running server and writes nothing; `db vacuum`
/// needs the database to itself, deletes the unplayed abandoned tables and compacts; both
/// explain a missing database.
#[test]
fn db_stats_and_vacuum() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cli.db");
    let db = db.to_str().unwrap();
    let (mut server, url) = start_server_with(&["--db", db, "--waiting-timeout-s", "1"]);
    // Nobody comes to one table (abandoned after a second); bots play the other to its end.
    create_table(&url, &["--game", "tressette-in-due"]);
    create_table(
        &url,
        &[
            "--game",
            "tressette-in-due",
            "--seats",
            "random,heuristic",
            "--bot-delay-ms",
            "0",
        ],
    );
    let stats = |db: &str| -> Value {
        let out = bin().args(["db", "stats", "--db", db]).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mut seen = Value::Null;
    for _ in 0..400 {
        seen = stats(db);
        if seen["ended_tables"] == 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(seen["kind"], "sqlite", "{seen}");
    assert_eq!(seen["ended_tables"], 2, "{seen}");
    assert_eq!(seen["open_tables"], 0, "{seen}");
    assert_eq!(seen["matches"]["COMPLETED"], 1, "{seen}");
    assert_eq!(seen["matches"]["ABANDONED"], 1, "{seen}");
    assert_eq!(seen["abandoned_unplayed"], 1, "{seen}");
    assert!(seen["bytes"].as_u64().unwrap() > 0, "{seen}");
    assert!(
        seen["longest_record_chars"].as_u64().unwrap() > 100,
        "{seen}"
    );

    // The server holds the database: vacuum is refused, and says why.
    let out = bin().args(["db", "vacuum", "--db", db]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("in use by another calabresella server"),
        "{err}"
    );
    server.kill().unwrap();
    server.wait().unwrap();

    // Reading the figures changes neither the database nor its log (SQLite's shared-memory
    // index is the readers' own).
    let files = || {
        let mut v: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                !e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with("-shm")
            })
            .map(|e| {
                let e = e.unwrap();
                let m = e.metadata().unwrap();
                (e.file_name(), m.len(), m.modified().unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let before = files();
    assert_eq!(stats(db)["abandoned_unplayed"], 1);
    assert_eq!(
        before,
        files(),
        "db stats wrote to the database's directory"
    );

    // Vacuum deletes the unplayed abandoned table (any age: 0 hours) and keeps the match.
    let out = bin()
        .args(["db", "vacuum", "--db", db, "--abandoned-older-than-h", "0"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["abandoned_tables_deleted"], 1, "{report}");
    let after = stats(db);
    assert_eq!(after["ended_tables"], 1, "{after}");
    assert_eq!(after["abandoned_unplayed"], 0, "{after}");
    assert_eq!(after["matches"]["COMPLETED"], 1, "{after}");
    assert_eq!(after["free_bytes"], 0, "{after}");

    for args in [
        vec!["db", "stats", "--db", "/nonexistent/calabresella.db"],
        vec!["db", "vacuum", "--db", "/nonexistent/calabresella.db"],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("there is no database at"), "{args:?}: {err}");
        assert!(!std::path::Path::new("/nonexistent/calabresella.db").exists());
    }
}

/// A caller that closed the server's standard output (as scripts do once they have the
/// address) does not stop the server: what it prints is dropped, not a panic on the broken
/// pipe. The pipe's reading end is closed before the server starts, so its very first line
/// hits it.
#[test]
fn serve_outlives_a_closed_standard_output() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let addr = format!("127.0.0.1:{port}");
    let mut server = bin()
        .args(["serve", "--listen", &addr, "--db", ":memory:"])
        .stdout(writer)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://{addr}");
    let mut created = None;
    for _ in 0..100 {
        if let Some(status) = server.try_wait().unwrap() {
            panic!("the server exited ({status}) when its standard output was closed");
        }
        let out = bin()
            .args(["create", "--server", &url, "--game", "tressette-in-due"])
            .output()
            .unwrap();
        if out.status.success() {
            created = Some(String::from_utf8_lossy(&out.stdout).trim().to_owned());
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let id = created.expect("the server answers");
    assert!(id.starts_with("t-"), "{id}");
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn version_names_the_release_and_the_commit() {
    let out = bin().arg("--version").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!(
            "calabresella {} (commit ",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
}

#[test]
fn dev_certs_writes_a_ca_and_certificates_and_never_overwrites_them() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("certs");
    let run = |extra: &[&str]| {
        bin()
            .args(["dev-certs", "--out"])
            .arg(&out_dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let first = run(&[]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    for f in [
        "ca.pem",
        "server.pem",
        "server.key",
        "client.pem",
        "client.key",
    ] {
        let text = std::fs::read_to_string(out_dir.join(f)).unwrap();
        assert!(text.starts_with("-----BEGIN "), "{f}");
    }
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(out_dir.join("server.key"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o077, 0, "the key is readable by its owner only");
    let ca = std::fs::read(out_dir.join("ca.pem")).unwrap();
    let second = run(&[]);
    assert!(!second.status.success());
    assert!(String::from_utf8_lossy(&second.stderr).contains("--force"));
    assert_eq!(
        std::fs::read(out_dir.join("ca.pem")).unwrap(),
        ca,
        "nothing was replaced"
    );
    assert!(run(&["--force"]).status.success());
    assert_ne!(std::fs::read(out_dir.join("ca.pem")).unwrap(), ca);
}

#[test]
fn serve_refuses_half_or_unusable_tls_settings_with_clear_messages() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args([
            "serve",
            "--db",
            ":memory:",
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            "x.pem",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tls-key"));
    let missing = dir.path().join("missing.pem");
    let out = bin()
        .args([
            "serve",
            "--db",
            ":memory:",
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
        ])
        .arg(&missing)
        .arg("--tls-key")
        .arg(&missing)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start TLS") && err.contains("missing.pem"),
        "{err}"
    );
}

/// Registered players end to end, through the real binary: `players add` makes the database
/// and prints a key once; a look-alike or a bot's name is refused; `rotate` beside a running
/// server retires the old key at once; `sit --key` plays as the registered name; a guest cannot
/// take it; `disable` refuses the key; and no key reaches the server's log, even at debug level.
#[test]
fn registered_players_sit_with_their_key_and_no_key_reaches_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("players.db");
    let players = |args: &[&str]| {
        bin()
            .arg("players")
            .args(args)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap()
    };
    let out = players(&["add", "Ann"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert!(first.starts_with("cbk_") && first.len() == 68, "{first}");
    for (name, why) in [("ANN", "looks like"), ("heuristic bot", "kept for")] {
        let out = players(&["add", name]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains(why), "{name}");
    }

    let log = dir.path().join("server.log");
    let (mut server, url) = start_server_logging(
        &["--log", "debug", "--db", db.to_str().unwrap()],
        std::fs::File::create(&log).unwrap().into(),
    );

    // A new key beside the running server: the old one stops working at once.
    let out = players(&["rotate", "Ann"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert_ne!(key, first);
    let sit = |id: &str, extra: &[&str]| {
        bin()
            .args(["sit", "--server", &url, id, "--auto", "first"])
            .args(extra)
            .output()
            .unwrap()
    };
    let id = create_table(
        &url,
        &[
            "--game",
            "tressette-in-due",
            "--seats",
            "open,heuristic",
            "--option",
            "target=1",
        ],
    );
    let out = sit(&id, &["--key", &first]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("BAD_KEY"),
        "{out:?}"
    );
    let out = sit(&id, &["--name", "ann"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("registered player"),
        "{out:?}"
    );
    let out = sit(&id, &["--key", &key]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record = bin()
        .args(["table-record", "--server", &url, &id])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&record.stdout).contains("\"Ann\""));

    let out = players(&["disable", "Ann"]);
    assert!(out.status.success());
    let id = create_table(
        &url,
        &[
            "--game",
            "tressette-in-due",
            "--seats",
            "open,heuristic",
            "--option",
            "target=1",
        ],
    );
    let out = sit(&id, &["--key", &key]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("disabled"),
        "{out:?}"
    );
    let list: Value = serde_json::from_slice(&players(&["list"]).stdout).unwrap();
    assert_eq!(list[0]["name"], "Ann");
    assert_eq!(list[0]["disabled"], true);

    server.kill().unwrap();
    server.wait().unwrap();
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains("refused an API key"),
        "the refusals are logged"
    );
    for k in [&first, &key] {
        assert!(!log.contains(k.as_str()), "a key in the log");
        assert!(!log.contains(&k[4..20]), "part of a key in the log");
    }
}

/// The admin key file wins over `CALABRESELLA_ADMIN_KEY`, in `serve` and in `tournament
/// create`: an organiser who exported the variable (as `tournament` commands read it) can still
/// start the server, and create tournaments, with the file.
#[test]
fn the_admin_key_file_wins_over_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("admin.key");
    std::fs::write(&file, "file-admin-key-0123456789\n").unwrap();
    let file = file.to_str().unwrap();
    let env = [("CALABRESELLA_ADMIN_KEY", "env-admin-key-0123456789")];
    let (mut server, url) = start_server_env(
        &["--db", ":memory:", "--admin-key-file", file],
        Stdio::null(),
        &env,
    );
    let create = |extra: &[&str]| {
        bin()
            .args(["tournament", "create", "--server", &url, "--name", "cup"])
            .args(["--entrants", "random,heuristic,pimc"])
            .args(extra)
            .envs(env)
            .output()
            .unwrap()
    };
    let with_file = create(&["--admin-key-file", file]);
    let from_env = create(&[]);
    server.kill().unwrap();
    let _ = server.wait();
    assert!(
        with_file.status.success() && String::from_utf8_lossy(&with_file.stdout).starts_with("tn-"),
        "{}",
        String::from_utf8_lossy(&with_file.stderr)
    );
    // The variable's key is not the server's (the file's is).
    assert!(!from_env.status.success());
    assert!(String::from_utf8_lossy(&from_env.stderr).contains("BAD_ADMIN_KEY"));
}

/// Runs `verify` on `files`; returns its exit code and standard output.
fn verify(args: &[&std::path::Path]) -> (Option<i32>, String) {
    let out = bin().arg("verify").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn verify_passes_honest_records_and_names_the_first_mismatch_of_a_tampered_one() {
    let dir = tempfile::tempdir().unwrap();
    // A committed record from a fresh server.
    let (mut server, url) = start_server();
    let id = create_table(
        &url,
        &[
            "--seats",
            "heuristic,random,heuristic",
            "--option",
            "target=1",
        ],
    );
    let committed = loop {
        let out = bin()
            .args(["table-record", "--server", &url, &id])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let record: Value = serde_json::from_slice(&out.stdout).unwrap();
        if record["meta"]["deals"]["secret"].is_string() {
            break record;
        }
        // In play the secret is withheld, and verify says so.
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    server.kill().unwrap();
    server.wait().unwrap();
    let honest = dir.path().join("committed.json");
    std::fs::write(&honest, committed.to_string()).unwrap();
    let (code, out) = verify(&[&honest]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("deals verified") && out.contains("calabresella-deal/1"),
        "{out}"
    );

    // A seeded record (offline play) is reproducible, not committed.
    let seeded = dir.path().join("seeded.json");
    let played = bin()
        .args(["play", "--seed", "5", "-q", "--record"])
        .arg(&seeded)
        .output()
        .unwrap();
    assert!(played.status.success());
    let (code, out) = verify(&[&seeded]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("seeded by the creator: reproducible, not committed"),
        "{out}"
    );

    // Tampering: a swapped card, another secret, another table id; each fails, named.
    let mut swapped = committed.clone();
    let hand = &mut swapped["hands"][0]["deal"]["hands"];
    let (a, b) = (hand[0][0].clone(), hand[1][0].clone());
    hand[0][0] = b;
    hand[1][0] = a;
    let mut secret = committed.clone();
    secret["meta"]["deals"]["secret"] = json!("00".repeat(32));
    let mut context = committed.clone();
    context["meta"]["deals"]["context"] = json!("t-0000000000000000");
    // Another context changes hand 0's stream, whose first draw is the first dealer: the first
    // mismatch named is the dealer when the new draw differs (two times in three), else the cards.
    for (name, bad, why) in [
        (
            "swapped.json",
            swapped,
            &["hand 0: seat 0's cards differs"][..],
        ),
        (
            "secret.json",
            secret,
            &["does not match the commitment"][..],
        ),
        ("context.json", context, &["hand 0", "first dealer"][..]),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bad.to_string()).unwrap();
        // One bad file among good ones: every file gets its line, and the exit code is 1.
        let (code, out) = verify(&[&honest, &path, &seeded]);
        assert_eq!(code, Some(1), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(
            lines[1].contains(name)
                && lines[1].contains("FAILED")
                && why.iter().any(|w| lines[1].contains(w)),
            "{out}"
        );
        assert!(
            !lines[0].contains("FAILED") && !lines[2].contains("FAILED"),
            "{out}"
        );
    }
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{not json").unwrap();
    let (code, out) = verify(&[&garbage]);
    assert_eq!(code, Some(1));
    assert!(out.contains("FAILED: invalid record"), "{out}");
    // --tournament-secret wants 64 hex digits, and a table record names no tournament.
    let out = bin()
        .args(["verify", "--tournament-secret", "xyz"])
        .arg(&honest)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("64 hex digits"));
    let out = bin()
        .args(["verify", "--tournament-secret", &"11".repeat(32)])
        .arg(&honest)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("names no tournament"));
}

#[test]
fn deal_with_a_secret_prints_its_commitment_and_the_hands_it_derives() {
    use sha2::{Digest, Sha256};
    let secret = "a5".repeat(32);
    let run = |extra: &[&str]| {
        let out = bin()
            .args(["deal", "--secret", &secret, "--context", "t-1"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = run(&[]);
    let mut h = Sha256::new();
    h.update(b"calabresella-deal/1");
    h.update([0xa5; 32]);
    let want: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    assert!(
        first.starts_with(&format!("commitment: {want}\nfirst dealer drawn: ")),
        "{first}"
    );
    assert_eq!(first.lines().filter(|l| l.starts_with("seat ")).count(), 3);
    // Another hand, or a contribution, deals other cards.
    assert_ne!(run(&["--hand", "1"]), first);
    assert_ne!(run(&["--contributions", "01,,"]), first);
    assert_eq!(run(&[]), first);
    let out = bin().args(["deal", "--secret", "abc"]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("64 hex digits"));
    let out = bin()
        .args(["deal", "--secret", &secret, "--contributions", "01,02"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("lists 2 seats"));
}

/// `GET /metrics` on `addr`: the whole answer.
fn metrics_text(addr: &str) -> String {
    use std::io::Read;
    let mut tcp = std::net::TcpStream::connect(addr).unwrap();
    write!(
        tcp,
        "GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    tcp.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn a_tables_secret_is_in_no_log_feed_listing_error_or_metric_before_the_end() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let db = dir.path().join("db.sqlite");
    let mut server = bin()
        .args(["serve", "--listen", "127.0.0.1:0", "--log", "debug", "--db"])
        .arg(&db)
        .args(["--metrics-listen", "127.0.0.1:0", "--no-web"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let (mut url, mut metrics) = (None, None);
    while url.is_none() || metrics.is_none() {
        let line = lines
            .next()
            .expect("the server prints its addresses")
            .unwrap();
        if let Some(a) = line.strip_prefix("calabresella: listening on ") {
            url = Some(format!("http://{}", a.trim()));
        }
        if let Some(a) = line.strip_prefix("calabresella: metrics at http://") {
            metrics = Some(a.trim().trim_end_matches("/metrics").to_owned());
        }
    }
    std::thread::spawn(move || lines.for_each(drop));
    let (url, metrics) = (url.unwrap(), metrics.unwrap());
    let id = create_table(
        &url,
        &[
            "--seats",
            "heuristic,random,heuristic",
            "--option",
            "target=11",
            "--bot-delay-ms",
            "3",
        ],
    );
    let watch = bin()
        .args(["watch", "--server", &url, &id])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Everything anyone can see while the match is played: listings, the table, the record
    // so far, errors, metrics.
    let mut seen = Vec::new();
    let text = |out: Output| {
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
    };
    let mut in_play = 0;
    let record = loop {
        seen.push(text(
            bin().args(["tables", "--server", &url]).output().unwrap(),
        ));
        seen.push(text(
            bin()
                .args(["sit", "--server", &url, &id, "--name", "x"])
                .output()
                .unwrap(),
        ));
        seen.push(metrics_text(&metrics));
        let out = bin()
            .args(["table-record", "--server", &url, &id])
            .output()
            .unwrap();
        let record: Value = serde_json::from_slice(&out.stdout).unwrap();
        if record["meta"]["deals"]["secret"].is_string() {
            break record;
        }
        in_play += 1;
        seen.push(record.to_string());
    };
    assert!(in_play > 0, "the match was seen in play");
    let watched = watch.wait_with_output().unwrap();
    assert!(watched.status.success());
    seen.push(text(watched));
    server.kill().unwrap();
    server.wait().unwrap();
    seen.push(std::fs::read_to_string(&log).unwrap());

    // The secret, and every hand's key derived from it.
    let parsed = calabresella_engine::record::Record::parse(&record.to_string()).unwrap();
    let calabresella_engine::fair::Dealing::Committed { keys, .. } =
        calabresella_engine::fair::dealing(&parsed).unwrap()
    else {
        panic!("a committed record");
    };
    let mut secrets = vec![calabresella_engine::fair::hex(keys.secret())];
    for h in 0..parsed.hands.len() as u64 {
        secrets.push(calabresella_engine::fair::hex(&keys.hand_key(h)));
    }
    assert!(
        seen.last().unwrap().contains("match ended"),
        "the log is read"
    );
    for (i, s) in seen.iter().enumerate() {
        for secret in &secrets {
            assert!(
                !s.to_ascii_lowercase().contains(secret),
                "output {i} holds a secret: {s}"
            );
        }
    }
}

/// What the command line shows of a table's deals: `create` prints the commitment (or that
/// the table is seeded, with its creator key), `tables` marks each, and a seeded table's
/// seats take `sit --creator-key` behind a proxy. `deal --seed S --dealer D` prints the
/// first hand a table seeded with S deals when D deals first.
#[test]
fn the_command_line_shows_commitments_seeded_tables_and_their_creator_keys() {
    let (mut server, url) = start_server_with(&["--db", ":memory:", "--behind-proxy"]);
    let created = |args: &[&str]| {
        let out = bin()
            .args(["create", "--server", &url])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8_lossy(&out.stdout).trim().to_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (committed, said) = created(&["--seats", "random", "--option", "target=1"]);
    let commitment = said
        .split_whitespace()
        .find(|w| w.len() == 64 && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("no commitment in {said:?}"))
        .to_owned();
    assert!(!said.contains("creator key"), "{said}");
    let (seeded, said) = created(&[
        "--seats",
        "open,random,random",
        "--seed",
        "5",
        "--option",
        "target=1",
    ]);
    assert!(said.contains("seeded by the creator"), "{said}");
    let key = said
        .split("creator key ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no creator key in {said:?}"))
        .to_owned();
    let listed = bin().args(["tables", "--server", &url]).output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    let line = |id: &str| {
        listed
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_else(|| panic!("{id} not in {listed}"))
            .to_owned()
    };
    assert!(
        line(&committed).contains(&format!("commit={}", &commitment[..16])),
        "{listed}"
    );
    assert!(line(&seeded).contains("seeded"), "{listed}");
    // Behind a proxy the creator's address proves nothing: the key does.
    let sit = |extra: &[&str]| {
        bin()
            .args(["sit", "--server", &url, &seeded, "--auto", "random"])
            .args(extra)
            .output()
            .unwrap()
    };
    let refused = sit(&[]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("SEEDED_TABLE"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let played = sit(&["--creator-key", &key]);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let record = bin()
        .args(["table-record", "--server", &url, &seeded])
        .output()
        .unwrap();
    let record: Value = serde_json::from_slice(&record.stdout).unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    // `deal` agrees with the seeded table's first hand.
    let dealer = record["first_dealer"].as_u64().unwrap().to_string();
    let deal = bin()
        .args(["deal", "--seed", "5", "--dealer", &dealer])
        .output()
        .unwrap();
    let deal = String::from_utf8_lossy(&deal.stdout);
    for (seat, cards) in record["hands"][0]["deal"]["hands"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let mut want: Vec<&str> = cards
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        want.sort_unstable();
        let mut got: Vec<&str> = deal
            .lines()
            .find_map(|l| l.strip_prefix(&format!("seat {seat}: ")))
            .unwrap_or_else(|| panic!("seat {seat} in {deal}"))
            .split_whitespace()
            .collect();
        got.sort_unstable();
        assert_eq!(got, want, "seat {seat}: {deal}");
    }
}
