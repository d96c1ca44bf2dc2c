//! A submitted bot in a compiled language: it speaks the `calabresella-bot/1` protocol
//! (docs/SUBMISSIONS.md) on standard input and output, and at every turn plays the last of its
//! legal actions (bids low, passes late: enough to finish every match). Build it, then submit
//! the program itself:
//!
//! ```sh
//! cargo build --release -p calabresella-server --example stdio_bot
//! calabresella submit --name last-legal target/release/examples/stdio_bot
//! ```

use std::io::{BufRead, Write};

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        let Ok(message) = serde_json::from_str::<serde_json::Value>(&line) else {
            eprintln!("not JSON: {line}");
            continue;
        };
        match message["type"].as_str() {
            Some("start") => eprintln!("seat {} of {}", message["seat"], message["table_id"]),
            Some("observe") => {
                let legal = message["turn"]["legal_actions"].as_array();
                if let Some(action) = legal.and_then(|l| l.last()).and_then(|a| a.as_str()) {
                    writeln!(out, "{action}")?;
                    out.flush()?;
                }
            }
            Some("end") => return Ok(()),
            _ => eprintln!("unknown line: {line}"),
        }
    }
    Ok(())
}
