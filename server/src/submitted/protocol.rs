//! The `calabresella-bot/1` protocol (docs/SUBMISSIONS.md): one JSON object per line on the
//! bot's standard input — `start`, then `observe` for every update of its seat's stream
//! (with `turn` and the seat's whole `observation` when it must answer), then `end` — and one
//! line per answer on its standard output: the action's notation, or `{"action": "..."}`.

use calabresella_proto::{json, v1};
use serde_json::{Value, json};

/// The protocol's name and version, sent in `start`.
pub const PROTOCOL: &str = "calabresella-bot/1";

/// The longest answer line a bot may write.
pub const MAX_LINE: usize = 4096;

/// The `start` line.
pub fn start(table: &v1::Table, seat: u32, bot: &str, match_ms: u64) -> Value {
    let clock = table.clock.unwrap_or_default();
    json!({
        "type": "start",
        "protocol": PROTOCOL,
        "bot": bot,
        "table_id": table.table_id,
        "seat": seat,
        "players": table.seats.len(),
        "options": table
            .options
            .as_ref()
            .and_then(|o| json::to_json(o, "calabresella.v1.GameOptions").ok())
            .unwrap_or(Value::Null),
        "clock": {
            "move_ms": clock.move_ms,
            "bank_ms": clock.bank_ms,
            "on_timeout": v1::TimeoutPolicy::try_from(clock.on_timeout)
                .map(|p| p.as_str_name().trim_start_matches("TIMEOUT_POLICY_").to_ascii_lowercase())
                .unwrap_or_default(),
        },
        "match_ms": match_ms,
    })
}

/// The turn an update gives `seat`, if it must answer: a `turn` update, an update's
/// `next_turn`, or a snapshot's turn, with legal actions.
pub fn turn_of(update: &v1::Update, seat: u32) -> Option<v1::Turn> {
    let turn = match &update.kind {
        Some(v1::update::Kind::Turn(t)) => Some(t.clone()),
        Some(v1::update::Kind::Snapshot(s)) => s.turn.clone(),
        _ => None,
    }
    .or_else(|| update.next_turn.as_deref().cloned())?;
    (turn.decider == seat && !turn.legal_actions.is_empty()).then_some(turn)
}

/// An `observe` line: the update, and, when the bot must answer, the turn (its decision,
/// legal actions by notation, time left) and the seat's whole observation.
pub fn observe(update: &v1::Update, turn: Option<(&v1::Turn, &v1::Observation)>) -> Value {
    let mut line = json!({
        "type": "observe",
        "update": json::to_json(update, "calabresella.v1.Update").unwrap_or(Value::Null),
    });
    if let Some((t, o)) = turn {
        line["turn"] = json!({
            "decision": t.decision,
            "legal_actions": t.legal_actions.iter().map(|a| a.notation.as_str()).collect::<Vec<_>>(),
            "remaining_ms": t.remaining_ms,
        });
        line["observation"] =
            json::to_json(o, "calabresella.v1.Observation").unwrap_or(Value::Null);
    }
    line
}

/// The `end` line.
pub fn end(ended: &v1::MatchEnded) -> Value {
    json!({
        "type": "end",
        "result": json::to_json(ended, "calabresella.v1.MatchEnded").unwrap_or(Value::Null),
    })
}

/// The action a bot's answer line names: its notation, from the line itself or from a JSON
/// object's `action`. `None` for anything else.
pub fn answer(line: &str) -> Option<String> {
    let line = line.trim();
    if line.is_empty() || line.len() > MAX_LINE {
        return None;
    }
    if line.starts_with('{') {
        let v: Value = serde_json::from_str(line).ok()?;
        return v
            .get("action")
            .and_then(Value::as_str)
            .map(|a| a.trim().to_owned())
            .filter(|a| !a.is_empty());
    }
    Some(line.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_notation_or_a_json_action() {
        assert_eq!(answer("play 4c\n").as_deref(), Some("play 4c"));
        assert_eq!(answer(r#"{"action": "bid 6"}"#).as_deref(), Some("bid 6"));
        for bad in [
            "",
            "   ",
            "{not json",
            r#"{"act": "pass"}"#,
            r#"{"action": ""}"#,
        ] {
            assert_eq!(answer(bad), None, "{bad:?}");
        }
        assert_eq!(answer(&"x".repeat(MAX_LINE + 1)), None);
    }

    #[test]
    fn a_turn_is_the_seats_only_when_it_decides_and_has_actions() {
        let legal = vec![v1::Action {
            notation: "pass".into(),
            ..Default::default()
        }];
        let turn = |decider, legal: Vec<v1::Action>| v1::Turn {
            decision: 3,
            actor: decider,
            decider,
            legal_actions: legal,
            ..Default::default()
        };
        let mut u = v1::Update {
            kind: Some(v1::update::Kind::Turn(turn(1, legal.clone()))),
            ..Default::default()
        };
        assert_eq!(turn_of(&u, 1).map(|t| t.decision), Some(3));
        assert!(turn_of(&u, 0).is_none());
        u.kind = Some(v1::update::Kind::Turn(turn(1, Vec::new())));
        assert!(turn_of(&u, 1).is_none(), "no legal actions: another's view");
        u.kind = None;
        u.next_turn = Some(Box::new(turn(2, legal)));
        assert!(turn_of(&u, 2).is_some());
        let line = observe(&u, None);
        assert_eq!(line["type"], "observe");
        assert!(line.get("turn").is_none());
    }
}
