//! A player's page (`GetPlayer`) and the sign-in check (`WhoAmI`).

use calabresella_proto::convert;
use calabresella_proto::v1;

use super::GameService;
use super::records::player;
use crate::error::{Reason, ServiceError};
use crate::names;
use crate::store::player_page::{PlayerPage, page};

/// Longest name asked for, in characters (registered names have at most 64; bots' specs are
/// short too).
const MAX_NAME: usize = 200;

impl GameService {
    /// The page of player `name`.
    pub(super) async fn player_page(
        &self,
        name: String,
    ) -> Result<v1::GetPlayerResponse, ServiceError> {
        let name = name.trim().to_owned();
        if name.is_empty() || name.chars().count() > MAX_NAME || !names::printable(&name) {
            return Err(ServiceError::Invalid(
                Reason::BadName,
                format!("a player's name is 1 to {MAX_NAME} printable characters"),
            ));
        }
        // A built-in bot's spec (`heuristic`, `Random`) names the bot as tables show it.
        let name = if calabresella_engine::bots::bot_from_spec(&name, 0).is_ok() {
            crate::table::named_bot_name(&name.to_ascii_lowercase())
        } else {
            name
        };
        let Some(rows) = self.registry.store().player(name).await? else {
            return Err(ServiceError::NotFound(
                Reason::PlayerNotFound,
                "no registered player or bot of that name has a page".into(),
            ));
        };
        // Rating every match of the player's games is CPU work: off the async workers and the
        // store's thread.
        let page = tokio::task::spawn_blocking(move || page(rows))
            .await
            .map_err(|e| ServiceError::Unavailable(format!("the player's page failed: {e}")))?;
        Ok(to_proto(page))
    }
}

fn game(name: &str) -> i32 {
    convert::game_by_name(name).map_or(v1::Game::Unspecified as i32, |g| g as i32)
}

fn to_proto(p: PlayerPage) -> v1::GetPlayerResponse {
    v1::GetPlayerResponse {
        player_name: p.player,
        bot: p.bot,
        registered: p.registered,
        games: p
            .games
            .into_iter()
            .map(|g| v1::PlayerGame {
                game: game(&g.game),
                result: Some(player(g.result)),
                history: g
                    .history
                    .into_iter()
                    .map(|h| v1::RatingPoint {
                        table_id: h.table_id,
                        ended_unix_ms: h.ended_unix_ms,
                        rating: h.rating,
                    })
                    .collect(),
            })
            .collect(),
        recent: p
            .recent
            .into_iter()
            .map(|m| v1::PlayerMatch {
                game: game(&m.game),
                table_id: m.table_id,
                ended_unix_ms: m.ended_unix_ms,
                seat: m.seat,
                points: m.points,
                won: m.won,
                draw: m.draw,
                players: m.players,
            })
            .collect(),
        opponents: p
            .opponents
            .into_iter()
            .map(|o| v1::OpponentResult {
                opponent: o.name,
                bot: o.bot,
                guest: o.guest,
                matches: o.matches,
                wins: o.wins,
                draws: o.draws,
                losses: o.losses,
            })
            .collect(),
    }
}
