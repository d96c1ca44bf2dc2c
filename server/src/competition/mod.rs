//! Competitions: tournaments the server schedules, matchmaking, and the entrants' long-lived
//! calls that receive their tables. [`Hub`] holds who is connected and the seeks waiting;
//! everything about a tournament lives in the store, so its scheduler picks up after a
//! restart where the rows say it is.

pub mod schedule;
pub mod seek;
pub mod standings;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use calabresella_proto::v1;
use prost::Message;
use tokio::sync::{Notify, mpsc};
use tonic::Status;

use self::schedule::{FILLER, Layout, Planned, is_filler};
use crate::error::{Reason, ServiceError};
use crate::registry::Registry;
use crate::store::tournaments::{self, MatchRow, TournamentRow};
use crate::table::ask;
use crate::table::{Command, TableHandle};

/// How often the scheduler looks for work when nothing wakes it.
const TICK: Duration = Duration::from_millis(200);
/// Tables one tournament has in play at most (its built-in bots have no other limit).
const MAX_TABLES_PER_TOURNAMENT: usize = 64;
/// Matches one tournament may draw up in all.
pub const MAX_MATCHES: u128 = 20_000;
/// `Compete` calls one player may have open at once (a reconnection may overlap the call it
/// replaces).
pub const MAX_COMPETE_CALLS: usize = 2;

/// The longest tournament name: its tables are named after it and their match number, within
/// a table name's 100 characters.
pub const MAX_NAME: usize = 80;

/// The creator name of the tables the server schedules.
const CREATOR: &str = "competition";

/// One open `Compete` call.
pub struct Online {
    id: u64,
    /// Tables at once.
    max_tables: usize,
    /// The entrant's contribution to the deals of the tables this call is given.
    entropy: Vec<u8>,
    tx: mpsc::Sender<Result<v1::CompeteResponse, Status>>,
    /// The seats already sent on this call: a seat is sent once per call, whoever (the
    /// scheduler or the catch-up at connection) gets there first.
    sent: tokio::sync::Mutex<HashSet<(String, u8)>>,
}

/// Who is connected, the seeks waiting, and the scheduler's wake-up.
pub struct Hub {
    registry: Arc<Registry>,
    online: Mutex<HashMap<String, Vec<Arc<Online>>>>,
    seeks: Mutex<seek::Queue>,
    /// Each player's matchmaking tables (their published state), to count the unfinished.
    seek_tables: Mutex<HashMap<String, Vec<tokio::sync::watch::Receiver<v1::Table>>>>,
    /// Shared with the scheduler task, which holds the hub itself only while it works.
    wake: Arc<Notify>,
    next_id: AtomicU64,
    /// Set when the server stops.
    stopping: std::sync::atomic::AtomicBool,
}

/// Removes an entrant's call from the hub when its stream is dropped, and counts the drop
/// against the tournaments where it had a table in play.
pub struct CompeteGuard {
    hub: Arc<Hub>,
    name: String,
    id: u64,
}

impl Drop for CompeteGuard {
    fn drop(&mut self) {
        {
            let mut online = self.hub.lock_online();
            if let Some(calls) = online.get_mut(&self.name) {
                calls.retain(|c| c.id != self.id);
                if calls.is_empty() {
                    online.remove(&self.name);
                }
            }
        }
        let hub = self.hub.clone();
        let name = std::mem::take(&mut self.name);
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let n = hub
                    .registry
                    .store()
                    .read(move |c| tournaments::disconnected(c, &name))
                    .await;
                if let Err(e) = n {
                    tracing::warn!(error = %e, "a dropped Compete call was not counted");
                }
            });
        }
    }
}

/// The game's seats for `options`: how many, and which take a player.
pub fn layout(registry: &Registry, options: &v1::GameOptions) -> Result<Layout, ServiceError> {
    let spec = crate::service::validate::table_spec(
        &v1::CreateTableRequest {
            options: Some(options.clone()),
            ..Default::default()
        },
        registry.config(),
    )?;
    Ok(Layout {
        seats: spec.seats.len(),
        open: spec
            .seats
            .iter()
            .enumerate()
            .filter(|(_, k)| **k == v1::SeatKind::Open)
            .map(|(i, _)| i)
            .collect(),
    })
}

/// Whether `entrant` names a built-in bot (with its parameters) the server can seat.
pub fn is_bot_entrant(entrant: &str) -> bool {
    is_filler(entrant)
        || crate::bot_spec::is_submitted(entrant)
        || crate::service::validate::server_bot(entrant)
}

/// A stored tournament's creating request.
pub fn request_of(t: &TournamentRow) -> Result<v1::CreateTournamentRequest, ServiceError> {
    crate::table::tokens::unhex(&t.request)
        .and_then(|b| v1::CreateTournamentRequest::decode(b.as_slice()).ok())
        .ok_or_else(|| {
            ServiceError::Store(crate::store::StoreError::Invalid(format!(
                "tournament {} has an unreadable request",
                t.id
            )))
        })
}

/// A request as stored.
pub fn request_hex(r: &v1::CreateTournamentRequest) -> String {
    r.encode_to_vec()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn format_of(r: &v1::CreateTournamentRequest) -> v1::TournamentFormat {
    match v1::TournamentFormat::try_from(r.format).unwrap_or_default() {
        v1::TournamentFormat::Unspecified => v1::TournamentFormat::RoundRobin,
        f => f,
    }
}

/// A tournament on the wire, with its matches' progress.
pub fn describe(t: &TournamentRow, matches: &[MatchRow]) -> Result<v1::Tournament, ServiceError> {
    let r = request_of(t)?;
    let state = match t.state.as_str() {
        "REGISTERING" => v1::TournamentState::Registering,
        "RUNNING" => v1::TournamentState::Running,
        _ => v1::TournamentState::Finished,
    };
    Ok(v1::Tournament {
        tournament_id: t.id.clone(),
        name: t.name.clone(),
        options: r.options.clone(),
        clock: r.clock,
        format: format_of(&r) as i32,
        deals: r.deals,
        start_unix_ms: t.start_unix_ms,
        entrants: t.entrants.iter().map(|(e, _)| e.clone()).collect(),
        open_registration: r.open_registration && state == v1::TournamentState::Registering,
        state: state as i32,
        matches: matches.len() as u32,
        playing: matches
            .iter()
            .filter(|m| !m.table_id.is_empty() && !m.over)
            .count() as u32,
        finished: matches.iter().filter(|m| m.over).count() as u32,
        // The seed, or the secret, would reveal every deal still to be played.
        seed: (state == v1::TournamentState::Finished)
            .then_some(r.seed)
            .flatten(),
        created_unix_ms: t.created_unix_ms,
        deal_scheme: if t.secret.is_empty() {
            calabresella_engine::fair::SEEDED
        } else {
            calabresella_engine::fair::SCHEME
        }
        .to_owned(),
        commitment: secret_of(t)
            .map(|s| calabresella_engine::fair::hex(&calabresella_engine::fair::commitment(&s)))
            .unwrap_or_default(),
        secret: if state == v1::TournamentState::Finished {
            t.secret.clone()
        } else {
            String::new()
        },
        seeded: t.secret.is_empty(),
    })
}

/// A committed tournament's secret (`None` when seeded).
fn secret_of(t: &TournamentRow) -> Option<[u8; 32]> {
    calabresella_engine::fair::unhex(&t.secret).and_then(|b| b.try_into().ok())
}

impl Hub {
    /// A hub over `registry`.
    pub fn new(registry: Arc<Registry>) -> Arc<Hub> {
        Arc::new(Hub {
            registry,
            online: Mutex::new(HashMap::new()),
            seeks: Mutex::new(seek::Queue::default()),
            seek_tables: Mutex::new(HashMap::new()),
            wake: Arc::new(Notify::new()),
            next_id: AtomicU64::new(1),
            stopping: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The registry.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    fn lock_online(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Arc<Online>>>> {
        self.online.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock_seeks(&self) -> std::sync::MutexGuard<'_, seek::Queue> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The server is stopping: the scheduler makes no more tables, every `Compete` call ends
    /// with UNAVAILABLE (its entrant reconnects to the next server), and every seek waiting
    /// is dropped (its stream ends with UNAVAILABLE).
    pub fn shut_down(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        let calls: Vec<Arc<Online>> = self.lock_online().drain().flat_map(|(_, c)| c).collect();
        for call in calls {
            let _ = call.tx.try_send(Err(ServiceError::Unavailable(
                "the server is stopping: connect again".into(),
            )
            .into()));
        }
        self.lock_seeks().clear();
    }

    /// Asks the scheduler to look for work now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Starts the scheduler. It runs while the hub lives: it keeps only a weak reference
    /// between passes, so a server that stops lets go of its registry and store.
    pub fn spawn(self: &Arc<Self>) {
        let hub = Arc::downgrade(self);
        let wake = self.wake.clone();
        tokio::spawn(async move {
            loop {
                {
                    let Some(hub) = hub.upgrade() else { return };
                    if let Err(e) = hub.tick().await {
                        tracing::warn!(error = %e, "tournament scheduling failed; trying again");
                    }
                }
                tokio::select! {
                    _ = tokio::time::sleep(TICK) => {}
                    _ = wake.notified() => {}
                }
            }
        });
    }

    /// Opens a `Compete` call for registered player `name`: the stream of its tables, and the
    /// guard that closes the call when dropped.
    pub async fn compete(
        self: &Arc<Self>,
        name: String,
        max_tables: usize,
        entropy: Vec<u8>,
    ) -> Result<
        (
            mpsc::Receiver<Result<v1::CompeteResponse, Status>>,
            CompeteGuard,
        ),
        ServiceError,
    > {
        let (tx, rx) = mpsc::channel(256);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let call = Arc::new(Online {
            id,
            max_tables,
            entropy,
            tx,
            sent: tokio::sync::Mutex::new(HashSet::new()),
        });
        {
            let mut online = self.lock_online();
            let calls = online.entry(name.clone()).or_default();
            if calls.len() >= MAX_COMPETE_CALLS {
                return Err(ServiceError::Exhausted(
                    Reason::TooManyStreams,
                    format!(
                        "{name:?} has {} Compete calls open, the limit per player",
                        calls.len()
                    ),
                ));
            }
            calls.push(call.clone());
        }
        let guard = CompeteGuard {
            hub: self.clone(),
            name: name.clone(),
            id,
        };
        // Catch up: every unfinished table of the player, with a fresh token.
        let who = name.clone();
        let tables = self
            .registry
            .store()
            .read(move |c| tournaments::tables_of(c, &who))
            .await?;
        for (tournament, table, seat) in tables {
            let mut sent = call.sent.lock().await;
            if !sent.insert((table.clone(), seat)) {
                continue;
            }
            let Ok(handle) = self.registry.get(&table) else {
                continue;
            };
            let Some(s) = calabresella_engine::Seat::new(seat) else {
                continue;
            };
            let who = name.clone();
            // A match that ended meanwhile has nothing to play.
            if let Ok(Ok((token, t))) = ask(&handle, |reply| Command::Reissue {
                seat: s,
                name: who,
                reply,
            })
            .await
            {
                let a = assignment(&t, seat, token, &tournament);
                let _ = call
                    .tx
                    .send(Ok(v1::CompeteResponse {
                        assignment: Some(a),
                    }))
                    .await;
            }
        }
        self.wake();
        Ok((rx, guard))
    }

    /// The contribution of `name`'s newest `Compete` call (none while it is away).
    fn entropy_of(&self, name: &str) -> Vec<u8> {
        self.lock_online()
            .get(name)
            .and_then(|calls| calls.last())
            .map(|c| c.entropy.clone())
            .unwrap_or_default()
    }

    /// Tables at once for registered entrant `name`: its calls' largest allowance, or one
    /// while it is away.
    fn allowance(&self, name: &str) -> usize {
        self.lock_online()
            .get(name)
            .and_then(|calls| calls.iter().map(|c| c.max_tables).max())
            .unwrap_or(1)
    }

    /// Sends seat `seat` of table `t` to every call of `name`. A player disabled since its
    /// calls opened gets nothing more: its calls are closed (the clock plays its seats).
    async fn send(&self, name: &str, t: &v1::Table, seat: u8, token: &str, tournament: &str) {
        if !self.lock_online().contains_key(name) {
            return;
        }
        let who = name.to_owned();
        let disabled = self
            .registry
            .store()
            .read(move |c| crate::store::players::is_disabled(c, &who))
            .await
            .unwrap_or(true);
        if disabled {
            self.lock_online().remove(name);
            return;
        }
        let calls: Vec<Arc<Online>> = self.lock_online().get(name).cloned().unwrap_or_default();
        for call in calls {
            let mut sent = call.sent.lock().await;
            if sent.insert((t.table_id.clone(), seat)) {
                let a = assignment(t, seat, token.to_owned(), tournament);
                // A call whose buffer is full is too slow to play anyway: its next
                // connection catches up.
                let _ = call.tx.try_send(Ok(v1::CompeteResponse {
                    assignment: Some(a),
                }));
            }
        }
    }

    /// One pass of the scheduler: seeks, then every unfinished tournament of this instance.
    async fn tick(self: &Arc<Self>) -> Result<(), ServiceError> {
        if self.stopping.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.match_seeks().await;
        let store = self.registry.store();
        let owner = store.instance().to_owned();
        let list = store
            .read(move |c| tournaments::list(c, Some(&owner)))
            .await?;
        if list.is_empty() {
            return Ok(());
        }
        let mut all = Vec::new();
        for t in list {
            let id = t.id.clone();
            let ms = store.read(move |c| tournaments::matches(c, &id)).await?;
            all.push((t, ms));
        }
        let mut busy: HashMap<String, usize> = HashMap::new();
        for (_, ms) in &all {
            for m in ms.iter().filter(|m| !m.table_id.is_empty() && !m.over) {
                for s in &m.seats {
                    *busy.entry(s.clone()).or_default() += 1;
                }
            }
        }
        for (t, ms) in all {
            if let Err(e) = self.advance(&t, ms, &mut busy).await {
                tracing::warn!(tournament = %t.id, error = %e, "tournament not advanced");
            }
        }
        Ok(())
    }

    /// Moves tournament `t` on: draws it up at its start, makes the tables its entrants have
    /// room for, draws the next Swiss round, or ends it.
    async fn advance(
        &self,
        t: &TournamentRow,
        matches: Vec<MatchRow>,
        busy: &mut HashMap<String, usize>,
    ) -> Result<(), ServiceError> {
        let store = self.registry.store();
        let r = request_of(t)?;
        let format = format_of(&r);
        let options = r.options.clone().unwrap_or_default();
        let layout = layout(&self.registry, &options)?;
        let seed = r.seed.unwrap_or(0);
        let entrants: Vec<String> = t.entrants.iter().map(|(e, _)| e.clone()).collect();
        if t.state == "REGISTERING" {
            if crate::store::now_ms() < t.start_unix_ms {
                return Ok(());
            }
            let planned = if format == v1::TournamentFormat::Swiss {
                if entrants.len() < 2 {
                    Vec::new()
                } else {
                    schedule::swiss_round(&entrants, &layout, 0, seed)
                }
            } else {
                schedule::draw(format, &entrants, &layout, r.deals, seed)
            };
            let rows = rows_of(planned, 0);
            let id = t.id.clone();
            let state = if rows.is_empty() {
                "FINISHED"
            } else {
                "RUNNING"
            };
            store
                .read(move |c| {
                    tournaments::add_matches(c, &id, &rows)?;
                    tournaments::set_state(c, &id, state)
                })
                .await?;
            tracing::info!(tournament = %t.id, state, "tournament started");
            self.wake();
            return Ok(());
        }
        let mut playing = 0;
        // An entrant never holds two seatings of one deal at once (in duplicate, that would
        // show it every hand of the deal).
        let mut dealt: HashSet<(String, u64)> = HashSet::new();
        for m in matches.iter().filter(|m| !m.table_id.is_empty() && !m.over) {
            playing += 1;
            for s in m.seats.iter().filter(|s| !s.is_empty()) {
                dealt.insert((s.clone(), m.seed));
            }
            // A table made just before the server stopped may miss some of its players
            // (they are seated one by one after it is stored): seat them now.
            if let Ok(handle) = self.registry.get(&m.table_id)
                && handle.summary.borrow().state == v1::TableState::Waiting as i32
            {
                let seated = seat_players(&handle, &m.seats, |n| self.entropy_of(n)).await?;
                for (seat, name, token, table) in seated {
                    self.send(&name, &table, seat, &token, &t.id).await;
                }
            }
        }
        for m in matches.iter().filter(|m| m.table_id.is_empty()) {
            if playing >= MAX_TABLES_PER_TOURNAMENT {
                break;
            }
            let room = m.seats.iter().filter(|s| !s.is_empty()).all(|s| {
                is_bot_entrant(s)
                    || (busy.get(s).copied().unwrap_or(0) < self.allowance(s)
                        && !dealt.contains(&(s.clone(), m.seed)))
            });
            if !room {
                continue;
            }
            match self.make_table(t, &r, m).await {
                Ok(()) => {}
                Err(ServiceError::Exhausted(..)) => return Ok(()),
                Err(e) => return Err(e),
            }
            playing += 1;
            for s in &m.seats {
                *busy.entry(s.clone()).or_default() += 1;
                dealt.insert((s.clone(), m.seed));
            }
        }
        if matches.iter().all(|m| m.over) {
            let rounds = matches.iter().map(|m| m.round + 1).max().unwrap_or(0);
            let id = t.id.clone();
            if format == v1::TournamentFormat::Swiss && rounds < r.deals {
                let finished = store.read(move |c| tournaments::finished(c, &id)).await?;
                let table = standings::standings(&t.entrants, &finished, &HashMap::new());
                let ranked: Vec<String> = table.into_iter().map(|s| s.entrant).collect();
                let rows = rows_of(
                    schedule::swiss_round(&ranked, &layout, rounds, seed),
                    matches.len() as u32,
                );
                let id = t.id.clone();
                store
                    .read(move |c| tournaments::add_matches(c, &id, &rows))
                    .await?;
                tracing::info!(tournament = %t.id, round = rounds, "Swiss round drawn");
            } else {
                store
                    .read(move |c| tournaments::set_state(c, &id, "FINISHED"))
                    .await?;
                tracing::info!(tournament = %t.id, "tournament finished");
            }
            self.wake();
        }
        Ok(())
    }

    /// Makes the table of match `m`, seats its registered entrants and sends each its seat.
    async fn make_table(
        &self,
        t: &TournamentRow,
        r: &v1::CreateTournamentRequest,
        m: &MatchRow,
    ) -> Result<(), ServiceError> {
        let mut kinds = Vec::new();
        let mut bots = Vec::new();
        for s in &m.seats {
            if s.is_empty() {
                kinds.push(v1::SeatKind::Open as i32);
                bots.push(String::new());
            } else if is_bot_entrant(s) {
                kinds.push(v1::SeatKind::BotNamed as i32);
                bots.push(if is_filler(s) {
                    FILLER[1..].to_owned()
                } else {
                    s.clone()
                });
            } else {
                kinds.push(v1::SeatKind::Open as i32);
                bots.push(String::new());
            }
        }
        let request = v1::CreateTableRequest {
            name: format!(
                "{} · match {}",
                t.name.chars().take(MAX_NAME).collect::<String>(),
                m.number
            ),
            options: r.options.clone(),
            seats: kinds,
            clock: r.clock,
            metadata: [
                ("tournament".to_owned(), t.id.clone()),
                ("match".to_owned(), m.number.to_string()),
            ]
            .into(),
            // A seeded tournament (bots only) seeds its tables; a committed one derives each
            // table's secret from its own below.
            seed: secret_of(t).is_none().then_some(m.seed),
            first_dealer: None,
            bot_delay_ms: 0,
            seat_bots: bots,
        };
        let mut spec = crate::service::validate::table_spec(&request, self.registry.config())?;
        if let Some(secret) = secret_of(t) {
            // Every seating of one duplicate deal gets the same cards: one context, and no
            // contributions (they differ from seating to seating). Other formats give each
            // match its own deals, with the entrants' contributions.
            let duplicate = format_of(r) == v1::TournamentFormat::Duplicate;
            spec.deals = crate::table::DealSpec::Committed {
                secret: crate::table::Secret(calabresella_engine::fair::tournament_table_secret(
                    &secret, m.seed,
                )),
                context: duplicate.then(|| format!("{}/deal/{}", t.id, m.seed)),
                contributions: !duplicate,
                origin: Some(crate::table::Origin {
                    tournament: t.id.clone(),
                    label: m.seed,
                    commitment: calabresella_engine::fair::hex(
                        &calabresella_engine::fair::commitment(&secret),
                    ),
                }),
            };
        }
        let handle = self
            .registry
            .create_scheduled(spec, CREATOR.to_owned())
            .await?;
        let (id, number, table_id) = (t.id.clone(), m.number, handle.id.clone());
        self.registry
            .store()
            .read(move |c| tournaments::set_table(c, &id, number, &table_id))
            .await?;
        let seated = seat_players(&handle, &m.seats, |name| self.entropy_of(name)).await?;
        for (seat, name, token, table) in seated {
            self.send(&name, &table, seat, &token, &t.id).await;
        }
        tracing::info!(tournament = %t.id, table = %handle.id, number = m.number, "match scheduled");
        Ok(())
    }
}

/// Seats every registered player of `seats` (neither empty nor a bot) whose seat is not
/// taken yet at `handle`'s table; returns each seat, name, token and the table after.
async fn seat_players(
    handle: &TableHandle,
    seats: &[String],
    entropy: impl Fn(&str) -> Vec<u8>,
) -> Result<Vec<(u8, String, String, v1::Table)>, ServiceError> {
    let taken: Vec<bool> = handle
        .summary
        .borrow()
        .seats
        .iter()
        .map(|s| s.taken)
        .collect();
    let mut out = Vec::new();
    for (i, name) in seats.iter().enumerate() {
        if name.is_empty() || is_bot_entrant(name) || taken.get(i).copied().unwrap_or(false) {
            continue;
        }
        let seat = calabresella_engine::Seat::new(i as u8)
            .ok_or_else(|| ServiceError::Invalid(Reason::BadSeat, format!("seat {i}")))?;
        let who = name.clone();
        let given = entropy(name);
        let joined = ask(handle, |reply| Command::Join {
            seat: Some(seat),
            name: who,
            guest: false,
            entropy: given,
            client: crate::table::Joiner::Server,
            reply,
        })
        .await?;
        match joined {
            Ok((_, token, table)) => out.push((i as u8, name.clone(), token, table)),
            // Seated already (the table's published state lags a little).
            Err(ServiceError::Precondition(Reason::SeatTaken | Reason::NoOpenSeat, _)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

fn rows_of(planned: Vec<Planned>, first: u32) -> Vec<MatchRow> {
    planned
        .into_iter()
        .enumerate()
        .map(|(i, p)| MatchRow {
            number: first + i as u32,
            round: p.round,
            seats: p.seats,
            seed: p.seed,
            table_id: String::new(),
            over: false,
        })
        .collect()
}

/// An assignment on the wire.
fn assignment(t: &v1::Table, seat: u8, token: String, tournament: &str) -> v1::Assignment {
    v1::Assignment {
        table_id: t.table_id.clone(),
        seat: u32::from(seat),
        seat_token: token,
        tournament_id: tournament.to_owned(),
        table: Some(t.clone()),
    }
}
