//! The runner's command line: what the conformance suite relies on when it starts it.

use std::process::Command;

const RUNNER: &str = env!("CARGO_BIN_EXE_calabresella-conformance");

#[test]
fn a_bad_command_line_exits_with_2_and_says_why() {
    for args in [
        vec![],
        vec!["--scenarios"],
        vec!["--server", "127.0.0.1:1"],
        vec!["--frobnicate"],
    ] {
        let out = Command::new(RUNNER).args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("rust runner:"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
}

#[test]
fn an_unreadable_scenarios_file_exits_with_2() {
    let out = Command::new(RUNNER)
        .args([
            "--scenarios",
            "/nonexistent/scenarios.json",
            "--server",
            "127.0.0.1:1",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/scenarios.json"));
}

#[test]
fn an_unknown_kind_fails_its_scenario_and_the_run() {
    let dir = std::env::temp_dir().join(format!("conformance-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("scenarios.json");
    std::fs::write(
        &file,
        r#"{"scenarios": [{"name": "odd", "kind": "no-such-kind"}]}"#,
    )
    .expect("write");
    // No server is needed: the kind is refused before any call.
    let out = Command::new(RUNNER)
        .args([
            "--scenarios",
            file.to_str().expect("utf-8"),
            "--server",
            "127.0.0.1:1",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL odd: unknown kind"), "{text}");
    assert!(text.ends_with("rust: 0 passed, 1 failed\n"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
