//! Finished matches and results between the store's rows and the wire.

use calabresella_proto::{convert, v1};

use crate::error::{Reason, ServiceError};
use crate::store::{MatchSummary, PlayerResult, RecordFilter};

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
    let (offset, size) = super::page(r.page_size, &r.page_token)?;
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
    }
}
