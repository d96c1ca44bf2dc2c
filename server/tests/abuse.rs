//! The standing abuse test: `calabresella-load --abuse` starts a server, plays measured
//! matches from 127.0.0.1 and attacks from 127.0.0.2 meanwhile (tables and streams past
//! every budget, garbage, floods, silent and slow connections). The measured client must
//! finish its matches without an error and with its `Act` p99 under 50 ms, every flood must
//! end with GOAWAY `ENHANCE_YOUR_CALM`, no hostile connection may outlive its watch, and the
//! server's memory must stay bounded. Loopback only, under a minute.

use std::process::Command;

#[test]
fn a_measured_match_plays_on_while_hostile_clients_attack() {
    let out = Command::new(env!("CARGO_BIN_EXE_calabresella-load"))
        .args([
            "--abuse",
            "--tables",
            "2",
            "--seconds",
            "40",
            "--warmup",
            "2",
        ])
        .output()
        .expect("run the load generator");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    eprintln!("{report:#}");
    // The measured client: its matches finished, nothing refused it, its answers came fast.
    assert_eq!(report["errors"], 0, "{report:#}");
    assert!(
        report["completed_matches"].as_u64().unwrap_or(0) >= 2,
        "{report:#}"
    );
    let p99 = report["act_latency_ms"]["p99"].as_f64().expect("p99");
    assert!(p99 < 50.0, "Act p99 {p99} ms under attack");
    // The attackers: every kind ran, every flood was ended by the server.
    let abuse = &report["abuse"];
    for kind in [
        "ping_flood",
        "settings_flood",
        "rapid_reset",
        "garbage",
        "oversized_headers",
        "too_many_streams",
        "create_table",
        "spectate_and_drop",
        "wrong_tokens",
        "silent_connections",
        "slow_reader",
        "garbage_requests",
    ] {
        assert!(
            abuse["attacks"][kind].as_u64().unwrap_or(0) > 0,
            "{kind} never ran: {abuse:#}"
        );
    }
    let endings = &abuse["connection_endings"];
    assert!(
        endings["goaway_enhance_your_calm"].as_u64().unwrap_or(0) > 0,
        "{abuse:#}"
    );
    assert!(endings["still_open"].is_null(), "{abuse:#}");
    // Memory: bounded by the budgets, far below what the attacks would hold without them.
    let rss = &report["server_rss_kib"];
    let growth =
        rss["peak_under_load"].as_u64().unwrap_or(u64::MAX) - rss["baseline"].as_u64().unwrap_or(0);
    assert!(growth < 128 * 1024, "the server grew {growth} KiB: {rss}");
}
