//! Finished matches and results between the store's rows and the wire.

use calabresella_proto::{convert, v1};

use crate::error::{Reason, ServiceError};
use crate::store::{MatchSummary, PlayerResult, RecordFilter};
use crate::table::TableSpec;

/// The store's name of a game ("" for unset).
pub fn game_name(game: i32) -> Result<&'static str, ServiceError> {
    match convert::game_name(game) {
        Some(name) => Ok(name),
        None if game == v1::Game::Unspecified as i32 => Ok(""),
        None => Err(ServiceError::Invalid(
            Reason::BadFilter,
            format!("game {game}"),
        )),
    }
}

/// The store filter of a request, with the page's offset and size.
pub fn filter(r: &v1::ListRecordsRequest) -> Result<(RecordFilter, usize, usize), ServiceError> {
    let (offset, size) = super::validate::page(r.page_size, &r.page_token)?;
    if v1::EndReason::try_from(r.end_reason).is_err() {
        return Err(ServiceError::Invalid(
            Reason::BadFilter,
            format!("end_reason {}", r.end_reason),
        ));
    }
    let reason = convert::end_reason_name(r.end_reason);
    if r.since_unix_ms < 0 || r.until_unix_ms < 0 {
        return Err(ServiceError::Invalid(
            Reason::BadFilter,
            "times are milliseconds since the Unix epoch".into(),
        ));
    }
    Ok((
        RecordFilter {
            player: r.player_name.trim().to_owned(),
            winner: r.winner_name.trim().to_owned(),
            game: game_name(r.game)?.to_owned(),
            reason: reason.to_owned(),
            since_unix_ms: r.since_unix_ms,
            until_unix_ms: r.until_unix_ms,
            draws_only: r.draws_only,
            offset,
            limit: size,
        },
        offset,
        size,
    ))
}

/// A stored match on the wire.
pub fn summary(m: MatchSummary) -> v1::RecordSummary {
    let reason = convert::end_reason_by_name(&m.reason).unwrap_or(v1::EndReason::Unspecified);
    let result = (reason != v1::EndReason::Abandoned).then(|| v1::MatchResult {
        winners: m.winners.clone(),
        draw: m.draw,
        totals: calabresella_engine::game::Rules::defaults(&m.game)
            .map(|r| convert::unsigned_totals(&r, &m.totals))
            .unwrap_or_default(),
        signed_totals: m.totals.clone(),
        forfeited_by: None,
        hands: m.hands,
        faults: Vec::new(),
    });
    v1::RecordSummary {
        table_id: m.table_id,
        name: m.name,
        game: convert::game_by_name(&m.game).unwrap_or(v1::Game::Unspecified) as i32,
        player_names: m.players,
        end_reason: reason as i32,
        result,
        created_unix_ms: m.created_unix_ms,
        ended_unix_ms: m.ended_unix_ms,
    }
}

/// The public state of a finished table that has left memory (after its time to live, or a
/// restart), from what the store keeps: its match summary, the table's spec when kept, and its
/// record (JSON, format v1) for the number of actions and a forfeit. Streams and seats are
/// gone: no stream, no bank.
pub fn finished_table(m: MatchSummary, spec: Option<TableSpec>, record: Option<&str>) -> v1::Table {
    let (decisions, forfeited_by) = record.map(record_facts).unwrap_or_default();
    // The seats' contributions, as the record reveals them (a finished match shows them all).
    let contributions = record.map(contributions).unwrap_or_default();
    let faults = record.map(faults).unwrap_or_default();
    let rules = spec
        .as_ref()
        .map(|s| s.rules)
        .or_else(|| calabresella_engine::game::Rules::defaults(&m.game));
    let kinds = spec.as_ref().map(|s| s.seats.clone()).unwrap_or_default();
    let seats = m
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let entropy = contributions.get(i).cloned().unwrap_or_default();
            v1::SeatInfo {
                seat: i as u32,
                kind: kinds.get(i).copied().unwrap_or(v1::SeatKind::Open) as i32,
                player_name: name.clone(),
                taken: true,
                contributed: !entropy.is_empty(),
                entropy,
                fault: faults
                    .iter()
                    .find(|f| f.seat == i as u32)
                    .map(|f| f.reason.clone())
                    .unwrap_or_default(),
                ..v1::SeatInfo::default()
            }
        })
        .collect();
    let state = if m.reason == "ABANDONED" {
        v1::TableState::Abandoned
    } else {
        v1::TableState::Finished
    };
    let hands = m.hands;
    let signed_totals = m.totals.clone();
    let created_unix_ms = m.created_unix_ms;
    let mut result = summary(m);
    // The summary does not know the forfeit or the faults; the record does.
    if let Some(r) = result.result.as_mut() {
        r.forfeited_by = forfeited_by;
        r.faults = faults;
    }
    v1::Table {
        table_id: result.table_id,
        name: result.name,
        metadata: spec
            .as_ref()
            .map(|s| s.metadata.clone())
            .unwrap_or_default(),
        options: rules.as_ref().map(convert::rules),
        clock: spec.as_ref().map(|s| s.clock),
        state: state as i32,
        seats,
        hands_completed: hands,
        totals: rules
            .as_ref()
            .map(|r| convert::unsigned_totals(r, &signed_totals))
            .unwrap_or_default(),
        signed_totals,
        result: result.result,
        created_unix_ms,
        bot_delay_ms: spec
            .as_ref()
            .map(|s| s.bot_delay.as_millis() as u32)
            .unwrap_or_default(),
        decisions,
        deal_scheme: spec
            .as_ref()
            .map(|s| s.deals.scheme().to_owned())
            .unwrap_or_default(),
        commitment: spec
            .as_ref()
            .map(|s| s.deals.commitment())
            .unwrap_or_default(),
        seeded: spec
            .as_ref()
            .is_some_and(|s| matches!(s.deals, crate::table::DealSpec::Seeded(_))),
    }
}

/// How many actions a record (JSON, format v1) holds, and the seat that forfeited as its
/// `meta.forfeited_by` names it; from one parse.
pub fn record_facts(json: &str) -> (u64, Option<u32>) {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else {
        return (0, None);
    };
    let actions = v
        .get("hands")
        .and_then(|h| h.as_array())
        .map(|hands| {
            hands
                .iter()
                .filter_map(|h| h.get("actions")?.as_array().map(Vec::len))
                .sum::<usize>() as u64
        })
        .unwrap_or(0);
    let forfeited_by = v
        .get("meta")
        .and_then(|m| m.get("forfeited_by"))
        .and_then(serde_json::Value::as_u64)
        .and_then(|s| u32::try_from(s).ok());
    (actions, forfeited_by)
}

/// The submitted bots stopped for a fault, as a record's `meta.faults` names them.
fn faults(json: &str) -> Vec<v1::BotFault> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else {
        return Vec::new();
    };
    v.pointer("/meta/faults")
        .and_then(serde_json::Value::as_array)
        .map(|fs| {
            fs.iter()
                .filter_map(|f| {
                    Some(v1::BotFault {
                        seat: u32::try_from(f.get("seat")?.as_u64()?).ok()?,
                        reason: f.get("reason")?.as_str()?.to_owned(),
                        decision: f.get("decision")?.as_u64()?,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Each seat's contribution to the deals, as a record's `meta.deals.contributions` reveals
/// them (hex); none for a seeded record or one that does not parse.
fn contributions(json: &str) -> Vec<Vec<u8>> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else {
        return Vec::new();
    };
    v.pointer("/meta/deals/contributions")
        .and_then(serde_json::Value::as_array)
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    c.as_str()
                        .and_then(calabresella_engine::fair::unhex)
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A results line on the wire.
pub fn player(p: PlayerResult) -> v1::PlayerResult {
    v1::PlayerResult {
        player_name: p.player,
        matches: p.matches,
        wins: p.wins,
        draws: p.draws,
        points: p.points,
        signed_points: p.signed_points,
        mu: p.mu,
        sigma: p.sigma,
        rating: p.rating,
        bot: p.bot,
        guest: p.guest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_names_the_forfeit_and_counts_its_actions() {
        let json = r#"{"format":"calabresella-record/1","game":"tressette-in-due","players":2,
            "first_dealer":0,"hands":[{"dealer":0,"deal":{"hands":[[],[]]},
            "actions":["1c",{"seat":1,"action":"2c","ms":5}]},{"dealer":1,"deal":{"hands":[[],[]]},
            "actions":["3c"]}],"meta":{"forfeited_by":1}}"#;
        assert_eq!(record_facts(json), (3, Some(1)));
        let no_forfeit = json.replace(r#""forfeited_by":1"#, r#""seed":"5""#);
        assert_eq!(record_facts(&no_forfeit), (3, None));
        for bad in [
            "",
            "{",
            "[]",
            r#"{"meta":{"forfeited_by":-1}}"#,
            r#"{"meta":7}"#,
        ] {
            assert_eq!(record_facts(bad), (0, None), "{bad}");
        }
    }

    #[test]
    fn a_finished_record_shows_each_seats_contribution() {
        let json = r#"{"meta":{"deals":{"contributions":["0a0b","","zz"]}}}"#;
        assert_eq!(contributions(json), vec![vec![10, 11], vec![], vec![]]);
        for none in ["", "{", r#"{"meta":{"deals":{"scheme":"seeded"}}}"#] {
            assert!(contributions(none).is_empty(), "{none}");
        }
    }

    #[test]
    fn a_finished_table_shows_its_bots_faults_from_the_record() {
        let json = r#"{"meta":{"faults":[{"seat":2,"reason":"TLE","decision":7},
            {"seat":"x","reason":"RE","decision":1}]}}"#;
        let m = MatchSummary {
            table_id: "t".into(),
            name: String::new(),
            game: "calabresella".into(),
            players: vec!["a".into(), "b".into(), "submitted:c@1".into()],
            reason: "TARGET_REACHED".into(),
            winners: vec![0],
            draw: false,
            totals: vec![21, 3, 0],
            hands: 4,
            created_unix_ms: 1,
            ended_unix_ms: 2,
        };
        let table = finished_table(m, None, Some(json));
        let want = v1::BotFault {
            seat: 2,
            reason: "TLE".into(),
            decision: 7,
        };
        // The malformed entry is left out, not guessed at.
        assert_eq!(table.result.map(|r| r.faults), Some(vec![want]));
        let shown: Vec<&str> = table.seats.iter().map(|s| s.fault.as_str()).collect();
        assert_eq!(shown, ["", "", "TLE"]);
        assert!(faults("{").is_empty());
    }
}
