//! A table's stored form: its spec as JSON, and rebuilding a live table from the stored spec,
//! seats and action log by replaying every action through the engine.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use calabresella_engine::{Action, Seat};
use calabresella_proto::convert;
use calabresella_proto::v1;
use prost::Message;
use serde_json::{Value, json};

use super::{DealSpec, Origin, Secret, Table, TableSpec, Taken, hex, unhex};
use crate::config::ServerConfig;
use crate::store::{Store, StoredTable};

/// The spec as JSON. The options are the wire message (hex of its protobuf encoding), so
/// every game option round-trips through the one converter the service already trusts.
pub fn spec_json(spec: &TableSpec) -> String {
    let mut v = json!({
        "name": spec.name,
        "metadata": spec.metadata,
        "options": hex(&convert::rules(&spec.rules).encode_to_vec()),
        "seats": spec.seats.iter().map(|k| k.as_str_name()).collect::<Vec<_>>(),
        "bots": spec.bots,
        "move_ms": spec.clock.move_ms,
        "bank_ms": spec.clock.bank_ms,
        "on_timeout": spec.clock.on_timeout,
        "bot_seed": spec.bot_seed.to_string(),
        "first_dealer": spec.first_dealer.map(|s| s.index()),
        "bot_delay_ms": spec.bot_delay.as_millis() as u64,
    });
    if let Some(k) = &spec.creator_key {
        v["creator_key_sha256"] = json!(hex(k));
    }
    match &spec.deals {
        DealSpec::Seeded(seed) => v["seed"] = json!(seed.to_string()),
        // The store is the server's own: the secret waits there until the match is over.
        DealSpec::Committed {
            secret,
            context,
            contributions,
            origin,
        } => {
            v["secret"] = json!(hex(&secret.0));
            v["deal_context"] = json!(context);
            v["contributions"] = json!(contributions);
            v["deal_origin"] = origin.as_ref().map_or(Value::Null, Origin::json);
        }
    }
    v.to_string()
}

/// Why a stored table cannot be rebuilt. `Display` names the part that is damaged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DamagedTable {
    /// The spec is not JSON.
    #[error("spec is not JSON: {0}")]
    NotJson(String),
    /// A field of the spec is missing or unreadable.
    #[error("spec {field}: {why}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        why: String,
    },
    /// The table cannot be set up from the spec.
    #[error("the table cannot be set up: {0}")]
    Setup(#[from] crate::error::ServiceError),
    /// A stored seat is not one of the table's, or its token hash is unreadable.
    #[error("seat {seat}: {why}")]
    Seat {
        /// The stored seat number.
        seat: usize,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A logged action does not replay.
    #[error("action {index}: {why}")]
    Action {
        /// Its place in the log.
        index: usize,
        /// Why it does not replay.
        why: String,
    },
}

fn field_error(field: &'static str, why: impl Into<String>) -> DamagedTable {
    DamagedTable::Field {
        field,
        why: why.into(),
    }
}

/// Reads a spec written by [`spec_json`].
pub fn spec_from_json(text: &str) -> Result<TableSpec, DamagedTable> {
    let v: Value = serde_json::from_str(text).map_err(|e| DamagedTable::NotJson(e.to_string()))?;
    let field = |k: &'static str| v.get(k).ok_or_else(|| field_error(k, "missing"));
    let int = |k: &'static str| -> Result<u64, DamagedTable> {
        field(k)?
            .as_u64()
            .ok_or_else(|| field_error(k, "not a number"))
    };
    let small = |k: &'static str| -> Result<u32, DamagedTable> {
        u32::try_from(int(k)?).map_err(|_| field_error(k, "too large"))
    };
    let options = field("options")?
        .as_str()
        .and_then(unhex)
        .and_then(|b| v1::GameOptions::decode(b.as_slice()).ok())
        .ok_or_else(|| field_error("options", "unreadable"))?;
    let rules =
        convert::rules_from_wire(&options).map_err(|e| field_error("options", e.to_string()))?;
    let seats = field("seats")?
        .as_array()
        .ok_or_else(|| field_error("seats", "not a list"))?
        .iter()
        .map(|k| {
            k.as_str()
                .and_then(v1::SeatKind::from_str_name)
                .ok_or_else(|| field_error("seats", format!("seat kind {k}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if seats.len() != usize::from(rules.seats()) {
        return Err(field_error(
            "seats",
            format!("{} seats for {} players", seats.len(), rules.seats()),
        ));
    }
    // Tables stored before named bots have no `bots`: none of their seats is one.
    let bots: Vec<String> = match v.get("bots") {
        None => vec![String::new(); seats.len()],
        Some(b) => {
            serde_json::from_value(b.clone()).map_err(|e| field_error("bots", e.to_string()))?
        }
    };
    if bots.len() != seats.len() {
        return Err(field_error(
            "bots",
            format!("{} bots for {} seats", bots.len(), seats.len()),
        ));
    }
    for (kind, bot) in seats.iter().zip(&bots) {
        if *kind != v1::SeatKind::BotNamed {
            continue;
        }
        // A submitted bot is pinned to a version at creation; its code lives in
        // the store, not in the engine's list of built-in bots.
        if crate::bot_spec::is_submitted(bot) {
            crate::bot_spec::parse_spec(bot)
                .filter(|(_, version)| version.is_some())
                .ok_or_else(|| field_error("bots", format!("bad submitted bot {bot}")))?;
        } else {
            calabresella_engine::bots::bot_from_spec(bot, 0)
                .map_err(|e| field_error("bots", e.to_string()))?;
        }
    }
    let metadata: HashMap<String, String> = serde_json::from_value(field("metadata")?.clone())
        .map_err(|e| field_error("metadata", e.to_string()))?;
    let first_dealer = match field("first_dealer")? {
        Value::Null => None,
        d => Some(
            d.as_u64()
                .and_then(|d| u8::try_from(d).ok())
                .and_then(Seat::new)
                .ok_or_else(|| field_error("first_dealer", "not a seat"))?,
        ),
    };
    Ok(TableSpec {
        name: field("name")?.as_str().unwrap_or_default().to_owned(),
        metadata,
        rules,
        seats,
        bots,
        clock: v1::Clock {
            move_ms: small("move_ms")?,
            bank_ms: small("bank_ms")?,
            on_timeout: i32::try_from(int("on_timeout")?)
                .map_err(|_| field_error("on_timeout", "too large"))?,
        },
        deals: deals_of(&v)?,
        // Tables stored before committed deals seeded their bots from the deal seed.
        bot_seed: match v.get("bot_seed").or_else(|| v.get("seed")) {
            Some(s) => s
                .as_str()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| field_error("bot_seed", "not a number"))?,
            None => return Err(field_error("bot_seed", "missing")),
        },
        first_dealer,
        bot_delay: Duration::from_millis(int("bot_delay_ms")?),
        creator_key: match v.get("creator_key_sha256") {
            None | Some(Value::Null) => None,
            Some(k) => Some(
                k.as_str()
                    .and_then(unhex)
                    .and_then(|b| b.try_into().ok())
                    .ok_or_else(|| field_error("creator_key_sha256", "not 64 hex digits"))?,
            ),
        },
    })
}

/// How a stored spec's deals are made: a `secret` (committed), else its `seed`.
fn deals_of(v: &Value) -> Result<DealSpec, DamagedTable> {
    if let Some(s) = v.get("secret") {
        let secret = s
            .as_str()
            .and_then(unhex)
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .ok_or_else(|| field_error("secret", "not 64 hex digits"))?;
        let context = match v.get("deal_context") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(_) => return Err(field_error("deal_context", "not text")),
        };
        let contributions = v
            .get("contributions")
            .map_or(Some(true), Value::as_bool)
            .ok_or_else(|| field_error("contributions", "not true or false"))?;
        let origin = match v.get("deal_origin") {
            None | Some(Value::Null) => None,
            Some(o) => Some(Origin {
                tournament: o
                    .get("id")
                    .and_then(Value::as_str)
                    .ok_or_else(|| field_error("deal_origin", "no tournament id"))?
                    .to_owned(),
                label: o
                    .get("label")
                    .and_then(Value::as_str)
                    .and_then(|l| l.parse().ok())
                    .ok_or_else(|| field_error("deal_origin", "no deal label"))?,
                commitment: o
                    .get("commitment")
                    .and_then(Value::as_str)
                    .ok_or_else(|| field_error("deal_origin", "no commitment"))?
                    .to_owned(),
            }),
        };
        return Ok(DealSpec::Committed {
            secret: Secret(secret),
            context,
            contributions,
            origin,
        });
    }
    v.get("seed")
        .ok_or_else(|| field_error("seed", "missing"))?
        .as_str()
        .and_then(|s| s.parse().ok())
        .map(DealSpec::Seeded)
        .ok_or_else(|| field_error("seed", "not a number"))
}

/// Rebuilds a table from its stored form: the spec, the seats with their token hashes, then
/// every logged action replayed through the engine (built-in bots are asked again for the
/// actions they took, so their state is as it was). Clocks are charged what the log says;
/// the decision due now starts afresh (time while the server was down is not charged).
pub fn restore(
    stored: StoredTable,
    config: Arc<ServerConfig>,
    store: Store,
    epoch: String,
) -> Result<Table, DamagedTable> {
    let spec = spec_from_json(&stored.spec)?;
    let mut table = Table::new(
        stored.id.clone(),
        spec,
        config,
        store,
        stored.creator,
        stored.created_unix_ms,
    )?;
    table.epoch = epoch;
    // Bots stopped for a fault, by the decision due then: marked again as the log is replayed,
    // so that the built-in bot that took over is asked again from the same point.
    let mut faults: Vec<(u64, Seat, String)> = Vec::new();
    for s in stored.seats {
        if !s.fault.is_empty()
            && let Some(seat) = Seat::new(s.seat)
        {
            faults.push((s.fault_decision, seat, s.fault.clone()));
        }
        let i = usize::from(s.seat);
        let hash: [u8; 32] = unhex(&s.token_sha256)
            .and_then(|b| b.try_into().ok())
            .ok_or(DamagedTable::Seat {
                seat: i,
                why: "its token hash is unreadable",
            })?;
        let seat = table.seats.get_mut(i).ok_or(DamagedTable::Seat {
            seat: i,
            why: "the table has no such seat",
        })?;
        seat.token = Some(hash);
        seat.name = s.name;
        seat.guest = s.guest;
        seat.entropy = unhex(&s.entropy).ok_or(DamagedTable::Seat {
            seat: i,
            why: "its contribution is unreadable",
        })?;
    }
    if !table.seats.iter().all(super::SeatState::filled) {
        return Ok(table);
    }
    table.deal_first();
    table.set_state(v1::TableState::Playing);
    faults.sort_by_key(|f| f.0);
    let mut faults = faults.into_iter().peekable();
    for (n, a) in stored.actions.into_iter().enumerate() {
        while let Some((_, seat, reason)) = faults.next_if(|f| f.0 <= n as u64) {
            table.mark_fault(seat, &reason, n as u64);
        }
        let damaged = |why: String| DamagedTable::Action { index: n, why };
        let seat = Seat::new(a.seat).ok_or_else(|| damaged(format!("seat {}", a.seat)))?;
        let action: Action = a.action.parse().map_err(|e| damaged(format!("{e}")))?;
        if table.session.decider() != Some(seat) {
            return Err(damaged(format!("seat {seat} was not to act")));
        }
        // Built-in bots are asked again so their random streams stay where they were (a
        // thinking bot seeds each decision from the position: nothing to catch up).
        if !a.timeout
            && !table.seats[seat.index()].thinks
            && let Some(mut bot) = table.seats[seat.index()].bot.take()
        {
            let _ = table.session.bot_action(seat, &mut bot);
            table.seats[seat.index()].bot = Some(bot);
        }
        table
            .session
            .apply(seat, action)
            .map_err(|e| damaged(format!("{action} is illegal: {e}")))?;
        let s = &mut table.seats[seat.index()];
        if a.timeout {
            s.clock.timed_out();
        } else if !s.is_bot() {
            s.clock.spend(a.ms, table.spec.clock.move_ms);
        }
        table.taken.push(Taken {
            seat,
            action,
            ms: a.ms,
            timeout: a.timeout,
        });
    }
    for (decision, seat, reason) in faults {
        table.mark_fault(seat, &reason, decision);
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<TableSpec> {
        let mut out = Vec::new();
        // Every option set of every registered game.
        for (i, rules) in calabresella_engine::game::every_option_set()
            .into_iter()
            .enumerate()
        {
            let n = usize::from(rules.seats());
            out.push(TableSpec {
                name: format!("table «{i}» \"quoted\""),
                metadata: [("league".to_owned(), format!("round {i}"))].into(),
                rules,
                seats: (0..n)
                    .map(|s| match (s, s % 3) {
                        (4, _) => v1::SeatKind::BotNamed,
                        (_, 0) => v1::SeatKind::Open,
                        (_, 1) => v1::SeatKind::BotRandom,
                        _ => v1::SeatKind::BotHeuristic,
                    })
                    .collect(),
                bots: (0..n)
                    .map(|s| {
                        if s == 4 {
                            "pimc:worlds=3:ms=50".to_owned()
                        } else {
                            String::new()
                        }
                    })
                    .collect(),
                clock: v1::Clock {
                    move_ms: 1000 * i as u32 + 1,
                    bank_ms: 7,
                    on_timeout: v1::TimeoutPolicy::Forfeit as i32,
                },
                // Half seeded, half committed (with and without a context of their own).
                deals: match i % 3 {
                    0 => DealSpec::Seeded(u64::MAX - i as u64),
                    1 => DealSpec::Committed {
                        secret: Secret([i as u8; 32]),
                        context: None,
                        contributions: true,
                        origin: None,
                    },
                    _ => DealSpec::Committed {
                        secret: Secret([0xa5; 32]),
                        context: Some(format!("tn-x/deal/{i}")),
                        contributions: false,
                        origin: Some(Origin {
                            tournament: "tn-x".into(),
                            label: u64::MAX - i as u64,
                            commitment: "ab".repeat(32),
                        }),
                    },
                },
                bot_seed: i as u64 * 7919,
                first_dealer: Seat::new(i as u8 % 2),
                bot_delay: Duration::from_millis(15),
                creator_key: (i % 3 == 0).then_some([i as u8; 32]),
            });
        }
        out
    }

    #[test]
    fn a_spec_reads_back_as_written() {
        for spec in specs() {
            let text = spec_json(&spec);
            let back = spec_from_json(&text).expect("reads back");
            assert_eq!(spec_json(&back), text);
            assert_eq!(back.rules, spec.rules);
            assert_eq!(back.seats, spec.seats);
            assert_eq!(back.clock, spec.clock);
            assert_eq!(
                (
                    &back.deals,
                    back.bot_seed,
                    back.first_dealer,
                    back.bot_delay
                ),
                (
                    &spec.deals,
                    spec.bot_seed,
                    spec.first_dealer,
                    spec.bot_delay
                )
            );
            assert_eq!((&back.name, &back.metadata), (&spec.name, &spec.metadata));
        }
    }

    #[test]
    fn a_damaged_spec_is_an_error_not_a_panic() {
        let good = spec_json(&specs()[0]);
        let mut cases = vec![
            String::new(),
            "{}".into(),
            "[1,2]".into(),
            good.replace("\"seed\":\"", "\"seed\":\"x"),
            good.replace("\"bot_seed\":\"", "\"bot_seed\":\"x"),
            spec_json(&specs()[1]).replace("\"secret\":\"", "\"secret\":\"0"),
            good.replace("\"options\":\"", "\"options\":\"zz"),
            good.replace("SEAT_KIND_OPEN", "SEAT_KIND_NOPE"),
        ];
        // Every prefix of a good spec.
        cases.extend(
            (0..good.len())
                .filter_map(|i| good.get(..i))
                .map(str::to_owned),
        );
        for c in cases {
            assert!(spec_from_json(&c).is_err(), "{c}");
        }
    }
}
