//! The results table: per player, matches, wins, draws and points across finished matches,
//! and an OpenSkill (Weng-Lin, Plackett-Luce) rating updated match by match in the order the
//! matches ended. Partners in Tressette are rated as a team.

use std::collections::{BTreeMap, HashMap};

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::StoreError;
use super::conn::Conn;

/// One player's line of the results table.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerResult {
    /// The name.
    pub player: String,
    /// Finished matches played (abandoned ones are not counted).
    pub matches: u32,
    /// Matches won.
    pub wins: u32,
    /// Matches drawn.
    pub draws: u32,
    /// Sum of the player's (or side's) positive match totals.
    pub points: u64,
    /// Sum of the player's (or side's) match totals, signed (the calling games' totals may be
    /// negative).
    pub signed_points: i64,
    /// OpenSkill mean.
    pub mu: f64,
    /// OpenSkill uncertainty.
    pub sigma: f64,
    /// The conservative rating `mu - 3 sigma`, which the table is sorted by.
    pub rating: f64,
    /// Whether the name is a built-in bot's.
    pub bot: bool,
    /// Whether this line is a guest's (no API key): counted, never rated (`mu`, `sigma` and
    /// `rating` are 0). A guest and a registered player of one name are two lines.
    pub guest: bool,
}

/// A line of the results table: the name, and whether it is a guest's.
type Key = (String, bool);

/// One seat of a finished match, as rated.
#[derive(Debug, Clone)]
pub struct Seat {
    /// Who played it.
    pub player: String,
    /// Its side (partners share one).
    pub side: i64,
    /// The side's match total.
    pub points: i64,
    /// Whether it won.
    pub won: bool,
    /// Whether the match was drawn.
    pub draw: bool,
    /// A built-in bot.
    pub bot: bool,
    /// A guest.
    pub guest: bool,
}

impl Seat {
    fn key(&self) -> Key {
        (self.player.clone(), self.guest)
    }
}

/// One finished match as the results table holds it.
#[derive(Debug, Clone)]
pub struct StoredResult {
    /// Its table.
    pub table_id: String,
    /// Its game.
    pub game: String,
    /// When it ended (Unix ms).
    pub ended_unix_ms: i64,
    /// Its seats, in seat order (seats nobody sat in are left out).
    pub seats: Vec<Seat>,
    /// The seat number of each of `seats`.
    pub seat_numbers: Vec<u32>,
}

/// Every finished match of `game` (all games for ""), in the order they ended.
pub fn load(conn: &mut dyn Conn, game: &str) -> Result<Vec<StoredResult>, StoreError> {
    const COLUMNS: &str = "SELECT table_id, player_name, side, points, won, draw, bot, guest, \
                           game, ended_unix_ms, seat FROM results";
    let rows = if game.is_empty() {
        conn.query(
            &format!("{COLUMNS} ORDER BY ended_unix_ms, table_id, seat"),
            &[],
        )?
    } else {
        conn.query(
            &format!("{COLUMNS} WHERE game = $1 ORDER BY ended_unix_ms, table_id, seat"),
            &[game.into()],
        )?
    };
    let mut matches: Vec<StoredResult> = Vec::new();
    for r in &rows {
        let seat = Seat {
            player: r[1].text().to_owned(),
            side: r[2].int(),
            points: r[3].int(),
            won: r[4].int() != 0,
            draw: r[5].int() != 0,
            bot: r[6].int() != 0,
            guest: r[7].int() != 0,
        };
        let number = u32::try_from(r[10].int()).unwrap_or(0);
        match matches.last_mut() {
            Some(m) if m.table_id == r[0].text() => {
                m.seats.push(seat);
                m.seat_numbers.push(number);
            }
            _ => matches.push(StoredResult {
                table_id: r[0].text().to_owned(),
                game: r[8].text().to_owned(),
                ended_unix_ms: r[9].int(),
                seats: vec![seat],
                seat_numbers: vec![number],
            }),
        }
    }
    Ok(matches)
}

/// The results of every player (of `game`, or all games for ""), best rating first.
pub fn results(conn: &mut dyn Conn, game: &str) -> Result<Vec<PlayerResult>, StoreError> {
    let matches: Vec<Vec<Seat>> = load(conn, game)?.into_iter().map(|m| m.seats).collect();
    Ok(rate(&matches))
}

/// Ratings and counts built match by match, in the order the matches ended.
#[derive(Default)]
pub struct Rater {
    table: HashMap<Key, (PlayerResult, WengLinRating)>,
    config: Option<WengLinConfig>,
}

impl Rater {
    /// Counts one match and updates its players' ratings.
    pub fn add(&mut self, seats: &[Seat]) {
        let config = *self.config.get_or_insert_with(WengLinConfig::new);
        rate_match(&mut self.table, seats, &config);
    }

    /// The line of `player` (a guest's when `guest`) so far.
    pub fn result(&self, player: &str, guest: bool) -> Option<PlayerResult> {
        self.table
            .get(&(player.to_owned(), guest))
            .map(|(p, r)| line(p.clone(), r))
    }

    /// Every line, best rating first, guests last.
    pub fn results(self) -> Vec<PlayerResult> {
        let mut out: Vec<PlayerResult> =
            self.table.into_values().map(|(p, r)| line(p, &r)).collect();
        out.sort_by(|a, b| {
            a.guest
                .cmp(&b.guest)
                .then_with(|| b.rating.total_cmp(&a.rating))
                .then_with(|| a.player.cmp(&b.player))
        });
        out
    }
}

/// A player's line with its rating filled in (guests are never rated).
fn line(mut p: PlayerResult, r: &WengLinRating) -> PlayerResult {
    if !p.guest {
        p.mu = r.rating;
        p.sigma = r.uncertainty;
        p.rating = r.rating - 3.0 * r.uncertainty;
    }
    p
}

/// The results table of `matches` (each a match's seats), in the order they ended: best
/// rating first, guests last.
pub fn rate(matches: &[Vec<Seat>]) -> Vec<PlayerResult> {
    let mut rater = Rater::default();
    for seats in matches {
        rater.add(seats);
    }
    rater.results()
}

/// How a side finished, for ranking (lower is better): a win first, then the side's match total.
pub type SideRank = (std::cmp::Reverse<bool>, std::cmp::Reverse<i64>);

/// The rank of the side made of `seats`.
pub fn side_rank<'a>(seats: impl Iterator<Item = &'a Seat> + Clone) -> SideRank {
    let won = seats.clone().any(|s| s.won);
    let points = seats.map(|s| s.points).max().unwrap_or(0);
    (std::cmp::Reverse(won), std::cmp::Reverse(points))
}

/// The rank of side `side` among a match's `seats`.
pub fn rank_of_side(seats: &[Seat], side: i64) -> SideRank {
    side_rank(seats.iter().filter(|s| s.side == side))
}

/// Counts one match and updates its players' ratings. Sides are ranked by winning first,
/// then by points; equal sides share a rank.
fn rate_match(
    table: &mut HashMap<Key, (PlayerResult, WengLinRating)>,
    seats: &[Seat],
    config: &WengLinConfig,
) {
    let mut sides: BTreeMap<i64, Vec<&Seat>> = BTreeMap::new();
    for s in seats {
        sides.entry(s.side).or_default().push(s);
    }
    // A name counts once per match (two built-in bots of one kind share a name): it played
    // one more match, won if any of its seats won, and its seats' points add up.
    let mut counted: Vec<Key> = Vec::new();
    for s in seats {
        if counted.contains(&s.key()) {
            continue;
        }
        counted.push(s.key());
        let same: Vec<&Seat> = seats.iter().filter(|o| o.key() == s.key()).collect();
        let entry = table.entry(s.key()).or_insert_with(|| {
            (
                PlayerResult {
                    player: s.player.clone(),
                    matches: 0,
                    wins: 0,
                    draws: 0,
                    points: 0,
                    signed_points: 0,
                    mu: 0.0,
                    sigma: 0.0,
                    rating: 0.0,
                    bot: s.bot,
                    guest: s.guest,
                },
                WengLinRating::new(),
            )
        });
        entry.0.matches += 1;
        entry.0.wins += u32::from(same.iter().any(|o| o.won));
        entry.0.draws += u32::from(s.draw);
        entry.0.points += same.iter().map(|o| o.points.max(0) as u64).sum::<u64>();
        entry.0.signed_points += same.iter().map(|o| o.points).sum::<i64>();
    }
    // The same name on two seats is counted, but not rated against itself.
    if sides.len() < 2 || counted.len() < seats.len() {
        return;
    }
    let key = |side: &[&Seat]| side_rank(side.iter().copied());
    let mut ordered: Vec<&Vec<&Seat>> = sides.values().collect();
    ordered.sort_by_key(|s| key(s));
    let mut ranks = Vec::with_capacity(ordered.len());
    for (i, side) in ordered.iter().enumerate() {
        let rank = if i > 0 && key(ordered[i - 1]) == key(side) {
            ranks[i - 1]
        } else {
            i + 1
        };
        ranks.push(rank);
    }
    let teams: Vec<Vec<WengLinRating>> = ordered
        .iter()
        .map(|side| side.iter().map(|s| table[&s.key()].1).collect())
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&ranks)
        .map(|(t, &r)| (t.as_slice(), MultiTeamOutcome::new(r)))
        .collect();
    let updated = weng_lin_multi_team(&input, config);
    for (side, ratings) in ordered.iter().zip(updated) {
        for (s, r) in side.iter().zip(ratings) {
            // A guest is rated against as a newcomer every time, and never rated itself.
            if s.guest {
                continue;
            }
            if let Some(e) = table.get_mut(&s.key()) {
                e.1 = r;
            }
        }
    }
}
