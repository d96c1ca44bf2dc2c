//! A player's page, from the results table: per game its line and the rating after each of
//! its matches, its newest matches, and how it did against each opponent.

use std::collections::{BTreeSet, HashMap};

use super::StoreError;
use super::conn::Conn;
use super::players;
use super::ratings::{self, PlayerResult, Rater, Seat, rank_of_side};

/// Newest matches a page lists.
pub const RECENT: usize = 50;
/// Most points of a rating history (the newest).
pub const HISTORY: usize = 500;
/// Most opponents a page lists (those met most often).
pub const OPPONENTS: usize = 100;

/// What a page is computed from: the player's name, whether registered, and every finished
/// match of each game it played (read on the store's thread; the page is computed off it).
#[derive(Debug, Clone)]
pub struct PlayerRows {
    player: String,
    registered: bool,
    games: Vec<(String, Vec<ratings::StoredResult>)>,
}

/// A player's page.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerPage {
    /// The name as stored.
    pub player: String,
    /// A built-in bot.
    pub bot: bool,
    /// A registered player.
    pub registered: bool,
    /// Per game played, by game name.
    pub games: Vec<GamePage>,
    /// Newest first.
    pub recent: Vec<PlayedMatch>,
    /// Most matches first.
    pub opponents: Vec<Opponent>,
}

/// A player's figures in one game.
#[derive(Debug, Clone, PartialEq)]
pub struct GamePage {
    /// The game's name.
    pub game: String,
    /// Its line of the game's results table.
    pub result: PlayerResult,
    /// The rating after each match, oldest first.
    pub history: Vec<RatingPoint>,
}

/// The rating after one match.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingPoint {
    /// The match's table.
    pub table_id: String,
    /// When it ended.
    pub ended_unix_ms: i64,
    /// `mu - 3 sigma` after it.
    pub rating: f64,
}

/// One finished match of the player.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayedMatch {
    /// Its table.
    pub table_id: String,
    /// Its game.
    pub game: String,
    /// When it ended.
    pub ended_unix_ms: i64,
    /// The player's (first) seat.
    pub seat: u32,
    /// The player's match total.
    pub points: i64,
    /// Whether it won.
    pub won: bool,
    /// Whether drawn.
    pub draw: bool,
    /// Every seat's player.
    pub players: Vec<String>,
}

/// The player's results against one opponent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Opponent {
    /// The opponent.
    pub name: String,
    /// A built-in bot.
    pub bot: bool,
    /// A guest.
    pub guest: bool,
    /// Matches on different sides.
    pub matches: u32,
    /// The player finished ahead.
    pub wins: u32,
    /// Level.
    pub draws: u32,
    /// The opponent finished ahead.
    pub losses: u32,
}

/// The rows of `name`'s page: a registered player's (matched as registration matches names:
/// any case, look-alikes) or a bot's. `None` when the name is neither registered nor in any
/// finished match; guests have no page.
pub fn rows(conn: &mut dyn Conn, name: &str) -> Result<Option<PlayerRows>, StoreError> {
    let name = name.trim();
    let registered = players::registered_like(conn, name)?;
    let player = registered.clone().unwrap_or_else(|| name.to_owned());
    let games: BTreeSet<String> = conn
        .query(
            "SELECT DISTINCT game FROM results WHERE player_name = $1 AND guest = 0",
            &[player.as_str().into()],
        )?
        .into_iter()
        .map(|mut r| r[0].take_text())
        .collect();
    if games.is_empty() && registered.is_none() {
        return Ok(None);
    }
    let mut loaded = Vec::with_capacity(games.len());
    for game in games {
        let matches = ratings::load(conn, &game)?;
        loaded.push((game, matches));
    }
    Ok(Some(PlayerRows {
        player,
        registered: registered.is_some(),
        games: loaded,
    }))
}

/// The page the rows give: every match of each game rated in the order they ended, the
/// player's rating kept after each of its own.
pub fn page(rows: PlayerRows) -> PlayerPage {
    let player = rows.player;
    let mut out = PlayerPage {
        player: player.clone(),
        bot: false,
        registered: rows.registered,
        games: Vec::new(),
        recent: Vec::new(),
        opponents: Vec::new(),
    };
    let mut opponents: HashMap<(String, bool), Opponent> = HashMap::new();
    for (game, matches) in rows.games {
        let mut rater = Rater::default();
        let mut history = Vec::new();
        for m in matches {
            rater.add(&m.seats);
            let Some(at) = m.seats.iter().position(|s| s.player == player && !s.guest) else {
                continue;
            };
            let me = &m.seats[at];
            out.bot |= me.bot;
            if let Some(r) = rater.result(&player, false) {
                history.push(RatingPoint {
                    table_id: m.table_id.clone(),
                    ended_unix_ms: m.ended_unix_ms,
                    rating: r.rating,
                });
            }
            count_opponents(&mut opponents, &m.seats, me);
            // Every seat's player at its seat number (a seat nobody sat in stays empty).
            let count = m.seat_numbers.iter().max().map_or(0, |&n| n as usize + 1);
            let mut players = vec![String::new(); count.min(16)];
            for (s, &n) in m.seats.iter().zip(&m.seat_numbers) {
                if let Some(slot) = players.get_mut(n as usize) {
                    slot.clone_from(&s.player);
                }
            }
            out.recent.push(PlayedMatch {
                table_id: m.table_id.clone(),
                game: m.game.clone(),
                ended_unix_ms: m.ended_unix_ms,
                seat: m.seat_numbers[at],
                points: me.points,
                won: me.won,
                draw: me.draw,
                players,
            });
        }
        if let Some(result) = rater.result(&player, false) {
            let skip = history.len().saturating_sub(HISTORY);
            out.games.push(GamePage {
                game,
                result,
                history: history.split_off(skip),
            });
        }
    }
    out.recent.sort_by(|a, b| {
        b.ended_unix_ms
            .cmp(&a.ended_unix_ms)
            .then_with(|| b.table_id.cmp(&a.table_id))
    });
    out.recent.truncate(RECENT);
    out.opponents = opponents.into_values().collect();
    out.opponents.sort_by(|a, b| {
        b.matches
            .cmp(&a.matches)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.guest.cmp(&b.guest))
    });
    out.opponents.truncate(OPPONENTS);
    out
}

/// Counts one match against every player on another side than `me`'s (each name once).
fn count_opponents(opponents: &mut HashMap<(String, bool), Opponent>, seats: &[Seat], me: &Seat) {
    let rank_of = |side: i64| rank_of_side(seats, side);
    let mine = rank_of(me.side);
    let mut seen: Vec<(String, bool)> = Vec::new();
    for s in seats.iter().filter(|s| s.side != me.side) {
        let key = (s.player.clone(), s.guest);
        if s.player == me.player && !s.guest || seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        let o = opponents.entry(key).or_insert_with(|| Opponent {
            name: s.player.clone(),
            bot: s.bot,
            guest: s.guest,
            ..Opponent::default()
        });
        o.matches += 1;
        match mine.cmp(&rank_of(s.side)) {
            std::cmp::Ordering::Less => o.wins += 1,
            std::cmp::Ordering::Equal => o.draws += 1,
            std::cmp::Ordering::Greater => o.losses += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(player: &str, side: i64, points: i64, won: bool) -> Seat {
        Seat {
            player: player.into(),
            side,
            points,
            won,
            draw: false,
            bot: player.ends_with(" bot"),
            guest: false,
        }
    }

    #[test]
    fn opponents_are_ranked_by_win_then_points_and_partners_are_not_opponents() {
        let mut o = HashMap::new();
        // Tressette: seats 0 and 2 are side 0. Side 1 won.
        let seats = vec![
            seat("ann", 0, 11, false),
            seat("bob", 1, 21, true),
            seat("cat", 0, 11, false),
            seat("heuristic bot", 1, 21, true),
        ];
        count_opponents(&mut o, &seats, &seats[0]);
        assert_eq!(o.len(), 2, "cat is ann's partner: {o:?}");
        let bob = &o[&("bob".to_owned(), false)];
        assert_eq!((bob.matches, bob.wins, bob.draws, bob.losses), (1, 0, 0, 1));
        // Three sides, nobody won: points decide, equal points are level.
        let seats = vec![
            seat("ann", 0, 5, false),
            seat("bob", 1, 5, false),
            seat("cat", 2, 2, false),
        ];
        count_opponents(&mut o, &seats, &seats[0]);
        let bob = &o[&("bob".to_owned(), false)];
        assert_eq!((bob.matches, bob.wins, bob.draws, bob.losses), (2, 0, 1, 1));
        let cat = &o[&("cat".to_owned(), false)];
        assert_eq!((cat.matches, cat.wins, cat.draws, cat.losses), (1, 1, 0, 0));
        assert!(o[&("heuristic bot".to_owned(), false)].bot);
    }
}
