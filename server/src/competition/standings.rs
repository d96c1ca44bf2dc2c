//! A tournament's standings, computed from the stored records of its finished matches alone
//! (and each entrant's dropped calls): anyone holding the exported records can recompute
//! every figure but `disconnects`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use calabresella_engine::record::{Record, RecordAction, replay};
use calabresella_proto::v1;

use super::schedule::is_filler;
use crate::store::tournaments::FinishedMatch;
use crate::store::{RatedSeat, rank_of_side, rate};

#[derive(Default)]
struct Line {
    matches: u32,
    hands: u32,
    sum: f64,
    squares: f64,
    points: i64,
    wins: u32,
    timeouts: u32,
    illegal: u32,
    forfeits: u32,
}

/// The points of seat `seat` in a hand's (or match's) `award` list: per seat, or per
/// partnership (seats 0 and 2 are side 0) where the list is shorter than the seats.
fn side_of(seat: usize, players: usize, len: usize) -> usize {
    if len >= players || len == 0 {
        seat
    } else {
        seat % len
    }
}

/// The standings of `entrants` (with whether each is a bot) over `finished`, best points per
/// hand first. `disconnects` are counted by the server, not kept in records.
pub fn standings(
    entrants: &[(String, bool)],
    finished: &[FinishedMatch],
    disconnects: &HashMap<String, u32>,
) -> Vec<v1::Standing> {
    summary(entrants, finished, disconnects).standings
}

/// Most entrants for which a tournament shows its cross-table.
pub const CROSS_TABLE_ENTRANTS: usize = 64;

/// What a tournament's finished matches add up to.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Best points per hand first.
    pub standings: Vec<v1::Standing>,
    /// Every ordered pair of entrants that met on different sides.
    pub cross_table: Vec<v1::CrossResult>,
    /// Per finished match's number: each seat's match total and whether it won.
    pub outcomes: HashMap<u32, (Vec<i64>, Vec<bool>)>,
}

/// The standings, the cross-table and each match's outcome (see [`standings`]).
pub fn summary(
    entrants: &[(String, bool)],
    finished: &[FinishedMatch],
    disconnects: &HashMap<String, u32>,
) -> Summary {
    let mut outcomes = HashMap::new();
    let mut lines: HashMap<&str, Line> = entrants
        .iter()
        .map(|(e, _)| (e.as_str(), Line::default()))
        .collect();
    let mut rated: Vec<Vec<RatedSeat>> = Vec::new();
    for m in finished {
        if m.reason == "ABANDONED" {
            continue;
        }
        let Ok(record) = Record::parse(&m.record) else {
            tracing::warn!("a tournament record does not parse: left out of the standings");
            continue;
        };
        let Ok((_, report)) = replay(&record) else {
            tracing::warn!("a tournament record does not replay: left out of the standings");
            continue;
        };
        let report = report.to_json();
        let players = usize::from(record.players);
        let winners: Vec<usize> = serde_json::from_str(&m.winners).unwrap_or_default();
        let meta = record.meta.clone().unwrap_or_default();
        let forfeited = meta.get("forfeited_by").and_then(serde_json::Value::as_u64);
        let totals: Vec<i64> = report["match"]["totals"]
            .as_array()
            .map(|t| t.iter().filter_map(serde_json::Value::as_i64).collect())
            .unwrap_or_default();
        outcomes.insert(
            m.number,
            (
                (0..players)
                    .map(|i| {
                        totals
                            .get(side_of(i, players, totals.len()))
                            .copied()
                            .unwrap_or(0)
                    })
                    .collect(),
                (0..players).map(|i| winners.contains(&i)).collect(),
            ),
        );
        let mut seats = Vec::new();
        for (i, who) in m.seats.iter().enumerate() {
            if who.is_empty() || is_filler(who) {
                continue;
            }
            let side = side_of(i, players, totals.len());
            seats.push(RatedSeat {
                player: who.clone(),
                side: side as i64,
                points: totals.get(side).copied().unwrap_or(0),
                won: winners.contains(&i),
                draw: m.draw,
                bot: false,
                guest: false,
            });
            let Some(line) = lines.get_mut(who.as_str()) else {
                continue;
            };
            line.matches += 1;
            line.wins += u32::from(winners.contains(&i));
            line.forfeits += u32::from(forfeited == Some(i as u64));
            line.illegal += meta["players"][i]["illegal"].as_u64().unwrap_or(0) as u32;
            for hand in report["hands"].as_array().into_iter().flatten() {
                if hand["complete"] != serde_json::Value::Bool(true) {
                    continue;
                }
                let award: Vec<i64> = hand["award"]
                    .as_array()
                    .map(|a| a.iter().filter_map(serde_json::Value::as_i64).collect())
                    .unwrap_or_default();
                let p = award
                    .get(side_of(i, players, award.len()))
                    .copied()
                    .unwrap_or(0);
                line.hands += 1;
                line.sum += p as f64;
                line.squares += (p * p) as f64;
                line.points += p;
            }
            for hand in &record.hands {
                for a in &hand.actions {
                    if let RecordAction::Detailed { seat, extra, .. } = a
                        && usize::from(*seat) == i
                        && extra.get("timeout") == Some(&serde_json::Value::Bool(true))
                    {
                        line.timeouts += 1;
                    }
                }
            }
        }
        rated.push(seats);
    }
    let ratings: HashMap<String, f64> = rate(&rated)
        .into_iter()
        .map(|p| (p.player, p.rating))
        .collect();
    let mut out: Vec<v1::Standing> = entrants
        .iter()
        .map(|(e, bot)| {
            let l = &lines[e.as_str()];
            let n = f64::from(l.hands);
            let mean = if l.hands > 0 { l.sum / n } else { 0.0 };
            let ci95 = if l.hands > 1 {
                let var = (l.squares - n * mean * mean) / (n - 1.0);
                1.96 * (var.max(0.0) / n).sqrt()
            } else {
                0.0
            };
            v1::Standing {
                entrant: e.clone(),
                bot: *bot,
                matches: l.matches,
                hands: l.hands,
                points_per_hand: mean,
                ci95,
                wins: l.wins,
                rating: ratings.get(e).copied().unwrap_or(0.0),
                timeouts: l.timeouts,
                illegal: l.illegal,
                disconnects: disconnects.get(e).copied().unwrap_or(0),
                forfeits: l.forfeits,
                points: l.points,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.points_per_hand
            .total_cmp(&a.points_per_hand)
            .then_with(|| b.wins.cmp(&a.wins))
            .then_with(|| a.entrant.cmp(&b.entrant))
    });
    Summary {
        standings: out,
        // A bigger grid is unreadable, and its cells would outgrow a response.
        cross_table: if entrants.len() <= CROSS_TABLE_ENTRANTS {
            cross_table(&rated)
        } else {
            Vec::new()
        },
        outcomes,
    }
}

/// The cross-table of rated matches: for each pair of entrants on different sides of a match,
/// who finished ahead (a win first, then the side's match total: the order ratings use).
pub fn cross_table(matches: &[Vec<RatedSeat>]) -> Vec<v1::CrossResult> {
    let mut cells: BTreeMap<(String, String), v1::CrossResult> = BTreeMap::new();
    for seats in matches {
        let rank = |side: i64| rank_of_side(seats, side);
        let mut pairs = BTreeSet::new();
        for a in seats {
            for b in seats
                .iter()
                .filter(|b| b.side != a.side && b.player != a.player)
            {
                if !pairs.insert((a.player.clone(), b.player.clone())) {
                    continue;
                }
                let cell = cells
                    .entry((a.player.clone(), b.player.clone()))
                    .or_insert_with(|| v1::CrossResult {
                        entrant: a.player.clone(),
                        opponent: b.player.clone(),
                        ..Default::default()
                    });
                cell.matches += 1;
                match rank(a.side).cmp(&rank(b.side)) {
                    std::cmp::Ordering::Less => cell.wins += 1,
                    std::cmp::Ordering::Equal => cell.draws += 1,
                    std::cmp::Ordering::Greater => cell.losses += 1,
                }
            }
        }
    }
    cells.into_values().collect()
}
