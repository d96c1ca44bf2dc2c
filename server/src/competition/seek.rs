//! Matchmaking: registered players waiting for a match of given settings. Seekers with the
//! same settings are paired first come first served (within each other's rating window, when
//! asked); a seeker who has waited its `bots_after` gets built-in bots in the missing seats.

use std::sync::Arc;
use std::time::{Duration, Instant};

use calabresella_proto::v1;
use tokio::sync::oneshot;

use super::{CREATOR, Hub, assignment, seat_players};
use crate::error::{Reason, ServiceError};

/// Unfinished matchmaking tables a player may have: a seeker who never plays cannot fill the
/// server with tables.
pub const MAX_SEEK_TABLES: usize = 4;

/// What a seeker gets: its seat, or why none could be made.
pub type Seated = Result<v1::Assignment, ServiceError>;

/// One waiting seeker.
pub struct Seeker {
    /// Its id in the queue.
    pub id: u64,
    /// The registered player.
    pub name: String,
    /// The table it asks for (options, clock), encoded: seekers pair only on equal bytes.
    pub settings: Vec<u8>,
    /// The table request to make.
    pub request: v1::CreateTableRequest,
    /// Players the game needs.
    pub needed: usize,
    /// When it started waiting.
    pub since: Instant,
    /// When built-in bots may fill its missing seats.
    pub bots_after: Option<Duration>,
    /// Its rating in the game, and the window it accepts (0: any).
    pub rating: f64,
    /// The window.
    pub window: f64,
    /// Its contribution to the deals of the table made.
    pub entropy: Vec<u8>,
    /// Its own submitted bot (pinned, `submitted:NAME@VERSION`) to play its seat, if any.
    pub bot: Option<String>,
    /// Where its seat goes.
    pub reply: oneshot::Sender<Seated>,
}

/// The seekers waiting, oldest first.
#[derive(Default)]
pub struct Queue {
    waiting: Vec<Seeker>,
}

impl Queue {
    /// Every seek leaves the queue (the server is stopping).
    pub fn clear(&mut self) {
        self.waiting.clear();
    }

    /// Whether `name` is already waiting.
    pub fn has(&self, name: &str) -> bool {
        self.waiting.iter().any(|s| s.name == name)
    }

    /// How many wait with `settings`.
    pub fn count(&self, settings: &[u8]) -> usize {
        self.waiting
            .iter()
            .filter(|s| s.settings == settings)
            .count()
    }
}

fn fits(a: &Seeker, b: &Seeker) -> bool {
    let d = (a.rating - b.rating).abs();
    (a.window <= 0.0 || d <= a.window) && (b.window <= 0.0 || d <= b.window)
}

/// Takes the groups ready to play out of `q`: full groups, and groups whose oldest seeker's
/// wait for bots is over.
fn ready(q: &mut Queue, now: Instant) -> Vec<Vec<Seeker>> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < q.waiting.len() {
        let first = &q.waiting[i];
        let mut chosen = vec![i];
        for j in i + 1..q.waiting.len() {
            if chosen.len() == first.needed {
                break;
            }
            let s = &q.waiting[j];
            if s.settings == first.settings && chosen.iter().all(|&c| fits(&q.waiting[c], s)) {
                chosen.push(j);
            }
        }
        let full = chosen.len() == first.needed;
        let bots = first
            .bots_after
            .is_some_and(|w| now.duration_since(first.since) >= w);
        if full || bots {
            let mut group = Vec::new();
            for &c in chosen.iter().rev() {
                group.push(q.waiting.remove(c));
            }
            group.reverse();
            groups.push(group);
        } else {
            i += 1;
        }
    }
    groups
}

impl Hub {
    /// Queues `seeker`; fails if its player already waits.
    pub fn add_seek(&self, seeker: Seeker) -> Result<(usize, usize), ServiceError> {
        {
            let mut tables = self.seek_tables.lock().unwrap_or_else(|e| e.into_inner());
            let open = tables.entry(seeker.name.clone()).or_default();
            open.retain(|t| {
                let state = t.borrow().state;
                state == v1::TableState::Waiting as i32 || state == v1::TableState::Playing as i32
            });
            if open.len() >= MAX_SEEK_TABLES {
                return Err(ServiceError::Exhausted(
                    Reason::TooManyTablesForClient,
                    format!(
                        "{:?} has {} unfinished matchmaking tables, the limit per player",
                        seeker.name,
                        open.len()
                    ),
                ));
            }
            if open.is_empty() {
                tables.remove(&seeker.name);
            }
        }
        let (count, needed) = {
            let mut q = self.lock_seeks();
            if q.has(&seeker.name) {
                return Err(ServiceError::Precondition(
                    Reason::AlreadySeeking,
                    format!("{:?} already has a seek open", seeker.name),
                ));
            }
            let needed = seeker.needed;
            let settings = seeker.settings.clone();
            q.waiting.push(seeker);
            (q.count(&settings), needed)
        };
        self.wake();
        Ok((count, needed))
    }

    /// Takes seeker `id` out of the queue (its stream closed).
    pub fn cancel_seek(&self, id: u64) {
        self.lock_seeks().waiting.retain(|s| s.id != id);
    }

    /// A fresh seeker id.
    pub fn seek_id(&self) -> u64 {
        self.next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// Makes the tables of every group ready to play.
    pub(super) async fn match_seeks(self: &Arc<Self>) {
        let groups = ready(&mut self.lock_seeks(), Instant::now());
        for group in groups {
            let hub = self.clone();
            tokio::spawn(async move { hub.seat_group(group).await });
        }
    }

    async fn seat_group(&self, group: Vec<Seeker>) {
        let first = &group[0];
        let mut request = first.request.clone();
        let mut names = Vec::new();
        let mut bots = Vec::new();
        // Seats a seeker's submitted bot plays: the seeker's name, for its answer.
        let mut by_bot: Vec<(u32, String)> = Vec::new();
        let mut people = group.iter();
        for (i, k) in request.seats.iter_mut().enumerate() {
            if *k != v1::SeatKind::Open as i32 {
                names.push(String::new());
                bots.push(String::new());
                continue;
            }
            match people.next() {
                Some(s) => match &s.bot {
                    Some(bot) => {
                        *k = v1::SeatKind::BotNamed as i32;
                        names.push(String::new());
                        bots.push(bot.clone());
                        by_bot.push((i as u32, s.name.clone()));
                    }
                    None => {
                        names.push(s.name.clone());
                        bots.push(String::new());
                    }
                },
                None => {
                    *k = v1::SeatKind::BotHeuristic as i32;
                    names.push(String::new());
                    bots.push(String::new());
                }
            }
        }
        if !by_bot.is_empty() {
            request.seat_bots = bots;
        }
        let made = async {
            let spec = crate::service::validate::table_spec(&request, self.registry.config())?;
            let handle = self
                .registry
                .create_scheduled(spec, CREATOR.to_owned())
                .await?;
            {
                let mut tables = self.seek_tables.lock().unwrap_or_else(|e| e.into_inner());
                for s in &group {
                    tables
                        .entry(s.name.clone())
                        .or_default()
                        .push(handle.summary.clone());
                }
            }
            let seated = seat_players(&handle, &names, |name| {
                group
                    .iter()
                    .find(|s| s.name == name)
                    .map(|s| s.entropy.clone())
                    .unwrap_or_default()
            })
            .await?;
            let table = crate::table::ask(&handle, crate::table::Command::Info).await?;
            Ok::<_, ServiceError>((seated, table))
        }
        .await;
        match made {
            Ok((seated, table)) => {
                tracing::info!(players = group.len(), "seek matched");
                for s in group {
                    let found = seated.iter().find(|(_, n, _, _)| *n == s.name);
                    let by_bot = by_bot.iter().find(|(_, n)| *n == s.name);
                    let answer = match (found, by_bot) {
                        (Some((seat, _, token, table)), _) => {
                            Ok(assignment(table, *seat, token.clone(), ""))
                        }
                        // The seeker's bot plays: no token (the table's streams show it).
                        (None, Some((seat, _))) => {
                            Ok(assignment(&table, *seat as u8, String::new(), ""))
                        }
                        (None, None) => Err(ServiceError::Unavailable("no seat was made".into())),
                    };
                    let _ = s.reply.send(answer);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "a matched seek's table could not be made");
                for s in group {
                    let _ = s.reply.send(Err(e.clone()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeker(id: u64, settings: u8, needed: usize, rating: f64, window: f64) -> Seeker {
        Seeker {
            id,
            name: format!("p{id}"),
            settings: vec![settings],
            request: v1::CreateTableRequest::default(),
            needed,
            since: Instant::now(),
            bots_after: None,
            rating,
            window,
            entropy: Vec::new(),
            bot: None,
            reply: oneshot::channel().0,
        }
    }

    #[test]
    fn seekers_pair_first_come_first_served_on_equal_settings() {
        let mut q = Queue::default();
        for (id, settings) in [(1, 0), (2, 1), (3, 0), (4, 0), (5, 0)] {
            q.waiting.push(seeker(id, settings, 3, 25.0, 0.0));
        }
        let groups = ready(&mut q, Instant::now());
        assert_eq!(groups.len(), 1);
        let ids: Vec<u64> = groups[0].iter().map(|s| s.id).collect();
        assert_eq!(ids, [1, 3, 4]);
        let left: Vec<u64> = q.waiting.iter().map(|s| s.id).collect();
        assert_eq!(left, [2, 5]);
    }

    #[test]
    fn a_rating_window_keeps_distant_players_apart_both_ways() {
        let mut q = Queue::default();
        q.waiting.push(seeker(1, 0, 2, 10.0, 5.0));
        q.waiting.push(seeker(2, 0, 2, 30.0, 0.0));
        q.waiting.push(seeker(3, 0, 2, 12.0, 1.0));
        q.waiting.push(seeker(4, 0, 2, 14.0, 0.0));
        let groups = ready(&mut q, Instant::now());
        // 1 and 2 are too far for 1's window; 3 fits 1's window but 1 is outside 3's; 4 fits.
        assert_eq!(groups.len(), 1);
        let ids: Vec<u64> = groups[0].iter().map(|s| s.id).collect();
        assert_eq!(ids, [1, 4]);
    }

    #[test]
    fn bots_fill_a_group_once_its_oldest_seeker_waited_long_enough() {
        let mut q = Queue::default();
        let mut s = seeker(1, 0, 3, 25.0, 0.0);
        s.bots_after = Some(Duration::from_millis(50));
        q.waiting.push(s);
        assert!(ready(&mut q, Instant::now()).is_empty());
        let groups = ready(&mut q, Instant::now() + Duration::from_millis(60));
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].len(), 1);
        assert!(q.waiting.is_empty());
    }
}
