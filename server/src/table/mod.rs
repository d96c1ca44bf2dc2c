//! One table: a task that owns the match, its seats, clocks and feeds. Every call reaches it as
//! a [`Command`] over a channel, so one table's state is only ever touched by its own task.

mod clock;
pub mod feed;
pub mod session;
pub mod stored;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use calabresella_engine::game::Rules;
use calabresella_engine::{Action, Seat};
use calabresella_proto::convert;
use calabresella_proto::v1;
use serde_json::json;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use self::clock::SeatClock;
use self::feed::{Feed, Item, TurnItem, UpdateStream};
use self::session::{RawEvent, SeatBot, Session, seat_bot};
use crate::config::ServerConfig;
use crate::error::ServiceError;
use crate::store::{Finished, MatchSummary, ResultRow, Store, StoredAction, Write};

/// What a table needs to be created (already validated).
#[derive(Debug, Clone)]
pub struct TableSpec {
    /// Display name.
    pub name: String,
    /// Labels.
    pub metadata: HashMap<String, String>,
    /// The rules.
    pub rules: Rules,
    /// Who fills each seat.
    pub seats: Vec<v1::SeatKind>,
    /// The clock (effective values).
    pub clock: v1::Clock,
    /// The deal seed.
    pub seed: u64,
    /// The first dealer, if chosen.
    pub first_dealer: Option<Seat>,
    /// Pause before each bot decision.
    pub bot_delay: Duration,
}

/// A request to a table's task. Each carries where to send the answer.
pub enum Command {
    /// The table's public state.
    Info(oneshot::Sender<v1::Table>),
    /// Take a seat.
    Join {
        /// The seat wanted, or the lowest open one.
        seat: Option<Seat>,
        /// The player's name.
        name: String,
        /// The answer: seat, token, table.
        reply: oneshot::Sender<Result<(Seat, String, v1::Table), ServiceError>>,
    },
    /// Open a seat's stream (`token` set) or the public stream (`token` empty).
    Observe {
        /// The seat token, or `None` for the public stream.
        token: Option<String>,
        /// Resume point: last sequence number seen and its epoch.
        resume: Option<(u64, String)>,
        /// The stream.
        reply: oneshot::Sender<Result<UpdateStream, ServiceError>>,
    },
    /// Answer a decision.
    Act {
        /// The seat token.
        token: String,
        /// The decision answered.
        decision: u64,
        /// The action as sent.
        action: Box<v1::Action>,
        /// The action applied.
        reply: oneshot::Sender<Result<v1::ActResponse, ServiceError>>,
    },
    /// The record of completed hands.
    Record(oneshot::Sender<v1::GetRecordResponse>),
    /// A seat's observation now.
    Observation {
        /// The seat token.
        token: String,
        /// The answer.
        reply: oneshot::Sender<Result<v1::GetObservationResponse, ServiceError>>,
    },
    /// End the match now (server shutdown).
    Shutdown,
}

/// The way to reach a table's task.
#[derive(Clone)]
pub struct TableHandle {
    /// The table's id.
    pub id: String,
    /// The command channel.
    pub tx: mpsc::Sender<Command>,
}

/// One action as taken, for idempotent retries and the record.
#[derive(Debug, Clone, Copy)]
struct Taken {
    seat: Seat,
    action: Action,
    ms: u32,
    timeout: bool,
}

struct SeatState {
    /// `Unspecified` marks the a due dummy, which nobody takes.
    kind: v1::SeatKind,
    name: String,
    /// SHA-256 of the seat token: the token itself is only ever in the joiner's hands.
    token: Option<[u8; 32]>,
    clock: SeatClock,
    bot: Option<SeatBot>,
}

impl SeatState {
    /// Whether the seat needs nobody to join: taken, a bot, or the dummy.
    fn filled(&self) -> bool {
        self.bot.is_some() || self.token.is_some() || self.kind == v1::SeatKind::Unspecified
    }
}

/// The decision due now.
struct Pending {
    decision: u64,
    seat: Seat,
    started: Instant,
    /// When a person's clock runs out (bots have none).
    deadline: Option<Instant>,
    /// When a bot answers.
    bot_at: Option<Instant>,
}

/// A table's whole state, owned by its task.
pub struct Table {
    id: String,
    spec: TableSpec,
    created_unix_ms: i64,
    config: Arc<ServerConfig>,
    session: Session,
    state: v1::TableState,
    end: Option<v1::MatchEnded>,
    seats: Vec<SeatState>,
    feeds: Vec<Feed>,
    public: Feed,
    taken: Vec<Taken>,
    pending: Option<Pending>,
    timeout_bot: Option<SeatBot>,
    /// When a waiting table is abandoned, or a finished one expires.
    expires: Instant,
    /// Where every action goes before it is applied.
    store: Store,
    /// The client address that created the table.
    creator: String,
    /// Names this table's streams in this server run: sequence numbers resume only within it.
    epoch: String,
    /// Set while the match's end is not yet stored: when to try (again).
    end_retry: Option<Instant>,
    /// Called once when the match ends (frees the creator's open-table allowance).
    on_end: Option<Box<dyn FnOnce() + Send>>,
    /// The server is stopping: the table waits to be restored by the next start.
    suspended: bool,
}

fn unix_ms(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a token.
fn token_hash(token: &[u8; 16]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(token).into()
}

/// Parses a token; anything that is not 32 hex digits matches no seat.
fn parse_token(t: &str) -> Option<[u8; 16]> {
    unhex(t.trim())?.try_into().ok()
}

/// Bytes from hex digits; `None` for anything else.
fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Compares in time independent of where the tokens differ.
fn same_token(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Table {
    /// A new table; it starts at once when no seat is open. `creator` is the client address
    /// that asked for it.
    pub fn new(
        id: String,
        spec: TableSpec,
        config: Arc<ServerConfig>,
        store: Store,
        creator: String,
        created_unix_ms: i64,
    ) -> Result<Table, ServiceError> {
        let session = Session::new(&spec.rules, spec.seed, spec.first_dealer)
            .map_err(|e| ServiceError::Invalid("BAD_OPTIONS", e.to_string()))?;
        let n = spec.seats.len();
        let seats = spec
            .seats
            .iter()
            .enumerate()
            .map(|(i, &kind)| SeatState {
                kind,
                name: match kind {
                    v1::SeatKind::BotRandom => "random bot".into(),
                    v1::SeatKind::BotHeuristic => "heuristic bot".into(),
                    v1::SeatKind::Unspecified => "dummy".into(),
                    _ => String::new(),
                },
                token: None,
                clock: SeatClock::new(spec.clock.bank_ms),
                bot: seat_bot(
                    kind,
                    spec.seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)),
                ),
            })
            .collect();
        let feeds = (0..n).map(|_| Feed::new(config.seat_buffer)).collect();
        let public = Feed::lazy(config.seat_buffer);
        Ok(Table {
            id,
            created_unix_ms,
            expires: Instant::now() + config.waiting_timeout,
            epoch: config.epoch.clone(),
            spec,
            config,
            session,
            state: v1::TableState::Waiting,
            end: None,
            seats,
            feeds,
            public,
            taken: Vec::new(),
            pending: None,
            timeout_bot: None,
            store,
            creator,
            end_retry: None,
            on_end: None,
            suspended: false,
        })
    }

    /// The table's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The client address that created the table.
    pub fn creator(&self) -> &str {
        &self.creator
    }

    /// Sets what runs once when the match ends.
    pub fn on_end(&mut self, f: impl FnOnce() + Send + 'static) {
        self.on_end = Some(Box::new(f));
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The first write of a new table: its spec.
    pub fn creation(&self) -> Write {
        Write::Table {
            id: self.id.clone(),
            owner: self.store.instance().to_owned(),
            creator: self.creator.clone(),
            game: self.spec.rules.game_name().to_owned(),
            spec: stored::spec_json(&self.spec),
            created_unix_ms: self.created_unix_ms,
        }
    }

    fn seat_info(&mut self, i: usize) -> v1::SeatInfo {
        let streams = self.feeds[i].streams() as u32;
        let s = &self.seats[i];
        v1::SeatInfo {
            seat: i as u32,
            kind: s.kind as i32,
            player_name: s.name.clone(),
            taken: s.filled(),
            streams,
            bank_ms: s.clock.bank_ms(),
            timeouts: s.clock.timeouts,
        }
    }

    /// The public state.
    pub fn info(&mut self) -> v1::Table {
        let seats = (0..self.seats.len()).map(|i| self.seat_info(i)).collect();
        v1::Table {
            table_id: self.id.clone(),
            name: self.spec.name.clone(),
            metadata: self.spec.metadata.clone(),
            options: Some(convert::rules(&self.spec.rules)),
            clock: Some(self.spec.clock),
            state: self.state as i32,
            seats,
            hands_completed: self.session.hands_completed() as u32,
            totals: self.session.totals(),
            result: self.end.as_ref().and_then(|e| e.result.clone()),
            created_unix_ms: self.created_unix_ms,
            bot_delay_ms: self.spec.bot_delay.as_millis() as u32,
            decisions: self.taken.len() as u64,
        }
    }

    fn epoch(&self) -> &str {
        &self.epoch
    }

    /// Sends `item` to every seat's feed and, with `public`, to the public feed.
    fn push_all(&mut self, item: Item, public: bool) {
        let epoch = self.epoch.as_str();
        for f in &mut self.feeds {
            f.push(item.clone(), epoch);
        }
        if public {
            self.public.push(item, epoch);
        }
    }

    /// Sends each viewer what it may see of the events of hand `hand`.
    fn push_events(&mut self, hand: usize, events: &[RawEvent]) {
        let epoch = self.epoch.as_str();
        for e in events {
            for (i, f) in self.feeds.iter_mut().enumerate() {
                if let Some(seen) = self.session.visible(hand, e, Seat::new(i as u8)) {
                    f.push(
                        Item::Event {
                            hand: hand as u32,
                            event: seen,
                        },
                        epoch,
                    );
                }
            }
            if let Some(seen) = self.session.visible(hand, e, None) {
                self.public.push(
                    Item::Event {
                        hand: hand as u32,
                        event: seen,
                    },
                    epoch,
                );
            }
        }
    }

    fn start_hand(&mut self, hand: usize) {
        let dealer = self.session.dealer(hand).map_or(0, |s| s.index() as u32);
        self.push_all(
            Item::HandStarted {
                hand: hand as u32,
                dealer,
            },
            true,
        );
        let opening = self.session.hand_events(hand);
        self.push_events(hand, &opening);
    }

    fn start(&mut self) {
        self.state = v1::TableState::Playing;
        tracing::info!(table = %self.id, "match started");
        self.start_hand(0);
        self.next_decision();
    }

    /// Sets up the decision due now (clock or bot) and announces it, or ends the match.
    fn next_decision(&mut self) {
        let (Some(decider), Some(actor)) = (self.session.decider(), self.session.actor()) else {
            // A match that is over is finished by the task loop, which can wait for the store.
            self.pending = None;
            return;
        };
        let now = Instant::now();
        let decision = self.taken.len() as u64;
        let seat = &self.seats[decider.index()];
        let (deadline, bot_at, remaining) = if seat.bot.is_some() {
            (None, Some(now + self.spec.bot_delay), 0)
        } else {
            let limit = seat.clock.limit(self.spec.clock.move_ms);
            (Some(now + limit), None, limit.as_millis() as u32)
        };
        self.pending = Some(Pending {
            decision,
            seat: decider,
            started: now,
            deadline,
            bot_at,
        });
        let deadline_unix_ms =
            deadline.map_or(0, |_| unix_ms(SystemTime::now()) + i64::from(remaining));
        let legal: Box<[Action]> = self.session.legal_actions().into_boxed_slice();
        let monte = self.session.open_monte();
        let epoch = self.epoch.as_str();
        let turn = |legal: Option<Box<[Action]>>| {
            Box::new(TurnItem {
                decision,
                actor: actor.index() as u32,
                decider: decider.index() as u32,
                legal,
                monte,
                deadline_unix_ms,
                remaining_ms: remaining,
            })
        };
        for (i, f) in self.feeds.iter_mut().enumerate() {
            let mine = i == decider.index();
            f.flush(Some(turn(mine.then(|| legal.clone()))), epoch);
        }
        self.public.flush(Some(turn(None)), epoch);
    }

    /// Ends a step with no decision due: sends what every feed has staged.
    fn flush_all(&mut self) {
        let epoch = self.epoch.as_str();
        for f in &mut self.feeds {
            f.flush(None, epoch);
        }
        self.public.flush(None, epoch);
    }

    /// Takes an action of the pending decision's seat: checks it, stores it (write-ahead),
    /// then applies it. When the store fails nothing changes and the error says why.
    async fn take(
        &mut self,
        seat: Seat,
        action: Action,
        timeout: bool,
    ) -> Result<u32, ServiceError> {
        if !self.session.is_legal(action) {
            // The engine words the refusal; a copy keeps this table untouched.
            let mut probe = self.session.clone();
            probe.apply(seat, action).map_err(ServiceError::Illegal)?;
        }
        if self.taken.len() >= self.config.max_actions_per_table {
            // The match can go no further: it ends without a result.
            tracing::warn!(table = %self.id, "action log full: table abandoned");
            self.finish(v1::EndReason::Abandoned, None);
            return Err(ServiceError::Exhausted(
                "TABLE_LOG_FULL",
                format!(
                    "the table has stored {} actions, the limit per table",
                    self.taken.len()
                ),
            ));
        }
        let ms = self
            .pending
            .as_ref()
            .map_or(0, |p| p.started.elapsed().as_millis() as u32);
        let write = Write::Action {
            table: self.id.clone(),
            index: self.taken.len() as u64,
            action: StoredAction {
                seat: seat.index() as u8,
                action: action.to_string(),
                ms,
                timeout,
            },
        };
        self.store.write(vec![write]).await.map_err(|e| {
            tracing::error!(table = %self.id, error = %e, "action not stored");
            ServiceError::from(e)
        })?;
        self.apply(seat, action, timeout, ms)?;
        Ok(ms)
    }

    /// Applies a stored action, streams its events, and moves on.
    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        timeout: bool,
        ms: u32,
    ) -> Result<(), ServiceError> {
        let hand = self.session.hands_dealt().saturating_sub(1);
        let events = self
            .session
            .apply(seat, action)
            .map_err(ServiceError::Illegal)?;
        if self.seats[seat.index()].bot.is_none() && !timeout {
            self.seats[seat.index()]
                .clock
                .spend(ms, self.spec.clock.move_ms);
        }
        self.taken.push(Taken {
            seat,
            action,
            ms,
            timeout,
        });
        self.push_events(hand, &events);
        if self.session.hand_over(hand) {
            if let Some(r) = self.session.reveal(hand) {
                let epoch = self.epoch.as_str();
                self.public.push(Item::HandRevealed(Box::new(r)), epoch);
            }
            if self.session.hands_dealt() > hand + 1 {
                self.start_hand(hand + 1);
            }
        }
        self.next_decision();
        Ok(())
    }

    fn finish(&mut self, reason: v1::EndReason, forfeited_by: Option<Seat>) {
        if self.end.is_some() {
            return;
        }
        let result = if reason == v1::EndReason::Abandoned {
            None
        } else {
            let (winners, draw) = match forfeited_by {
                Some(s) => (self.session.opponents_of(s), false),
                None => self.session.result().unwrap_or_default(),
            };
            Some(v1::MatchResult {
                winners,
                draw,
                totals: self.session.totals(),
                forfeited_by: forfeited_by.map(|s| s.index() as u32),
                hands: self.session.hands_dealt() as u32,
            })
        };
        let ended = v1::MatchEnded {
            result,
            reason: reason as i32,
        };
        self.state = if reason == v1::EndReason::Abandoned {
            v1::TableState::Abandoned
        } else {
            v1::TableState::Finished
        };
        tracing::info!(table = %self.id, reason = reason.as_str_name(), "match ended");
        self.end = Some(ended.clone());
        self.pending = None;
        self.push_all(Item::MatchEnded(Box::new(ended)), true);
        let epoch = self.epoch.as_str();
        for f in &mut self.feeds {
            f.close(epoch);
        }
        self.public.close(epoch);
        self.expires = Instant::now() + self.config.finished_ttl;
        self.end_retry = Some(Instant::now());
        if let Some(f) = self.on_end.take() {
            f();
        }
    }

    /// The finished match as kept: summary, record and one result row per player.
    fn finished(&self) -> Option<Finished> {
        let end = self.end.as_ref()?;
        let reason = v1::EndReason::try_from(end.reason).unwrap_or_default();
        let reason = reason
            .as_str_name()
            .trim_start_matches("END_REASON_")
            .to_owned();
        let (winners, draw, totals) = end
            .result
            .as_ref()
            .map(|r| (r.winners.clone(), r.draw, r.totals.clone()))
            .unwrap_or_default();
        let results = if end.result.is_some() {
            self.seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind != v1::SeatKind::Unspecified)
                .map(|(i, s)| {
                    let side = Seat::new(i as u8).map_or(i, |s| self.spec.rules.total_index(s));
                    ResultRow {
                        seat: i as u8,
                        player: s.name.clone(),
                        side: side as u8,
                        points: totals.get(side).copied().unwrap_or(0),
                        won: winners.contains(&(i as u32)),
                        draw,
                        bot: s.bot.is_some(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        Some(Finished {
            summary: MatchSummary {
                table_id: self.id.clone(),
                name: self.spec.name.clone(),
                game: self.spec.rules.game_name().to_owned(),
                players: self.seats.iter().map(|s| s.name.clone()).collect(),
                reason,
                winners,
                draw,
                totals,
                hands: self.session.hands_dealt() as u32,
                created_unix_ms: self.created_unix_ms,
                ended_unix_ms: unix_ms(SystemTime::now()),
            },
            record: self.record().record_json,
            results,
        })
    }

    /// Stores the finished match; on failure tries again later (the match itself is safe:
    /// its actions are stored, and a restart finishes it again).
    async fn save_end(&mut self) {
        let Some(finished) = self.finished() else {
            return;
        };
        match self
            .store
            .write(vec![Write::Ended(Box::new(finished))])
            .await
        {
            Ok(()) => {
                self.end_retry = None;
            }
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "finished match not stored; will retry");
                self.end_retry = Some(Instant::now() + Duration::from_secs(5));
            }
        }
    }

    fn seat_of_token(&self, token: &str) -> Result<Seat, ServiceError> {
        if token.trim().is_empty() {
            return Err(ServiceError::NoToken);
        }
        let t = token_hash(&parse_token(token).ok_or(ServiceError::BadToken)?);
        let mut found = None;
        for (i, s) in self.seats.iter().enumerate() {
            if s.token.as_ref().is_some_and(|k| same_token(k, &t)) {
                found = Seat::new(i as u8);
            }
        }
        found.ok_or(ServiceError::BadToken)
    }

    async fn join(
        &mut self,
        seat: Option<Seat>,
        name: String,
    ) -> Result<(Seat, String, v1::Table), ServiceError> {
        if self.state != v1::TableState::Waiting {
            return Err(ServiceError::Precondition(
                "TABLE_FINISHED",
                "the table's seats are no longer open".into(),
            ));
        }
        let open = |s: &SeatState| s.kind == v1::SeatKind::Open && s.token.is_none();
        let i = match seat {
            Some(s) => {
                let i = s.index();
                if i >= self.seats.len() {
                    return Err(ServiceError::Invalid("BAD_SEAT", format!("no seat {i}")));
                }
                if !open(&self.seats[i]) {
                    return Err(ServiceError::Precondition(
                        "SEAT_TAKEN",
                        format!("seat {i} is not open"),
                    ));
                }
                i
            }
            None => self.seats.iter().position(open).ok_or_else(|| {
                ServiceError::Precondition("NO_OPEN_SEAT", "every seat is taken".into())
            })?,
        };
        let token = session::os_random::<16>()?;
        let hash = token_hash(&token);
        self.store
            .write(vec![Write::Seat {
                table: self.id.clone(),
                seat: i as u8,
                name: name.clone(),
                token_sha256: hex(&hash),
            }])
            .await?;
        self.seats[i].token = Some(hash);
        self.seats[i].name = name;
        let info = self.seat_info(i);
        // Never log the token.
        tracing::info!(table = %self.id, seat = i, "seat taken");
        let epoch = self.epoch.as_str();
        for f in &mut self.feeds {
            f.push(Item::SeatChanged(Box::new(info.clone())), epoch);
        }
        self.public.push(Item::SeatChanged(Box::new(info)), epoch);
        let seat =
            Seat::new(i as u8).ok_or_else(|| ServiceError::Invalid("BAD_SEAT", "seat".into()))?;
        if self.seats.iter().all(SeatState::filled) {
            self.start();
        }
        Ok((seat, hex(&token), self.info()))
    }

    fn snapshot(
        &mut self,
        viewer: Option<Seat>,
        seq: u64,
        reason: v1::SnapshotReason,
    ) -> v1::Update {
        let turn = self.pending.as_ref().map(|p| {
            let mine = viewer == Some(p.seat);
            let monte = self.session.open_monte();
            v1::Turn {
                decision: p.decision,
                actor: self
                    .session
                    .actor()
                    .map_or(p.seat.index() as u32, |a| a.index() as u32),
                decider: p.seat.index() as u32,
                legal_actions: if mine {
                    self.session
                        .legal_actions()
                        .into_iter()
                        .map(|a| convert::action(a, monte.as_ref()))
                        .collect()
                } else {
                    Vec::new()
                },
                deadline_unix_ms: p.deadline.map_or(0, |d| {
                    unix_ms(SystemTime::now())
                        + d.saturating_duration_since(Instant::now()).as_millis() as i64
                }),
                remaining_ms: p.deadline.map_or(0, |d| {
                    d.saturating_duration_since(Instant::now()).as_millis() as u32
                }),
            }
        });
        let observation = if self.state == v1::TableState::Waiting {
            None
        } else {
            self.session.observation(viewer)
        };
        v1::Update {
            seq,
            stream_epoch: self.epoch.clone(),
            kind: Some(v1::update::Kind::Snapshot(Box::new(v1::Snapshot {
                observation,
                table: Some(self.info()),
                turn,
                reason: reason as i32,
            }))),
            next_turn: None,
        }
    }

    fn observe(
        &mut self,
        token: Option<String>,
        resume: Option<(u64, String)>,
    ) -> Result<UpdateStream, ServiceError> {
        let viewer = match &token {
            Some(t) => Some(self.seat_of_token(t)?),
            None => None,
        };
        let streams: usize =
            self.feeds.iter_mut().map(Feed::streams).sum::<usize>() + self.public.streams();
        if streams >= self.config.max_streams_per_table {
            return Err(ServiceError::Exhausted(
                "TOO_MANY_STREAMS",
                format!("the table has {streams} open streams, the limit"),
            ));
        }
        let epoch = self.epoch().to_owned();
        let feed = match viewer {
            Some(s) => &self.feeds[s.index()],
            None => &self.public,
        };
        let last = feed.last_seq();
        let reason = match &resume {
            None => v1::SnapshotReason::New,
            Some((_, e)) if *e != epoch => v1::SnapshotReason::ServerRestarted,
            Some(_) => v1::SnapshotReason::Gap,
        };
        let resumed = resume
            .filter(|(_, e)| *e == epoch)
            .and_then(|(after, _)| feed.since(after, &epoch));
        let opening = match resumed {
            Some(updates) => updates,
            None => vec![self.snapshot(viewer, last, reason)],
        };
        let snapshot = opening
            .first()
            .is_some_and(|u| matches!(u.kind, Some(v1::update::Kind::Snapshot(_))));
        let open = self.end.is_none();
        let mut opening = opening;
        if !open {
            // A finished table: the stream shows the end and closes.
            if let Some(end) = &self.end {
                let ended = Item::MatchEnded(Box::new(end.clone()));
                if !opening
                    .iter()
                    .any(|u| matches!(u.kind, Some(v1::update::Kind::MatchEnded(_))))
                {
                    // After a snapshot numbered `last`, the next update is `last + 1`.
                    let seq = if snapshot { last + 1 } else { last };
                    opening.push(ended.to_update(seq, &epoch, None));
                }
            }
        }
        let buffer = self.config.stream_buffer;
        let feed = match viewer {
            Some(s) => &mut self.feeds[s.index()],
            None => &mut self.public,
        };
        feed.subscribe(opening, buffer, open)
    }

    async fn act(
        &mut self,
        token: &str,
        decision: u64,
        action: &v1::Action,
    ) -> Result<v1::ActResponse, ServiceError> {
        let seat = self.seat_of_token(token)?;
        let monte = self.session.open_monte();
        let action = convert::action_from_wire(action, monte.as_ref())?;
        let next = self.taken.len() as u64;
        if decision < next {
            let t = self.taken[decision as usize];
            return if t.seat == seat && t.action == action && !t.timeout {
                Ok(v1::ActResponse {
                    action: Some(convert::action(action, monte.as_ref())),
                    duplicate: true,
                    thinking_ms: t.ms,
                })
            } else if t.timeout {
                Err(ServiceError::Stale(decision, "its clock ran out".into()))
            } else {
                Err(ServiceError::Stale(
                    decision,
                    "it was already answered".into(),
                ))
            };
        }
        match self.state {
            v1::TableState::Waiting => {
                return Err(ServiceError::Precondition(
                    "NOT_STARTED",
                    "the match has not started: seats are still open".into(),
                ));
            }
            v1::TableState::Playing => {}
            _ => {
                return Err(ServiceError::Precondition(
                    "MATCH_OVER",
                    "the match is over".into(),
                ));
            }
        }
        if decision > next {
            return Err(ServiceError::Precondition(
                "FUTURE_DECISION",
                format!("decision {decision} is not due; the next is {next}"),
            ));
        }
        match self.session.decider() {
            Some(d) if d == seat => {}
            Some(d) => {
                return Err(ServiceError::NotYourTurn(format!("seat {d} decides now")));
            }
            None => return Err(ServiceError::NotYourTurn("no decision is due".into())),
        }
        let ms = self.take(seat, action, false).await?;
        Ok(v1::ActResponse {
            action: Some(convert::action(action, monte.as_ref())),
            duplicate: false,
            thinking_ms: ms,
        })
    }

    fn observation(&self, token: &str) -> Result<v1::GetObservationResponse, ServiceError> {
        let seat = self.seat_of_token(token)?;
        if self.state == v1::TableState::Waiting {
            return Err(ServiceError::Precondition(
                "NOT_STARTED",
                "the match has not started: seats are still open".into(),
            ));
        }
        Ok(v1::GetObservationResponse {
            observation: self.session.observation(Some(seat)),
            decision: self.taken.len() as u64,
            state: self.state as i32,
        })
    }

    fn record(&self) -> v1::GetRecordResponse {
        let over = self.end.is_some();
        let players: Vec<serde_json::Value> = self
            .seats
            .iter()
            .map(|s| json!({"name": s.name, "kind": s.kind.as_str_name()}))
            .collect();
        let mut meta = json!({
            "server": "calabresella",
            "table_id": self.id,
            "table_name": self.spec.name,
            "players": players,
            "created_unix_ms": self.created_unix_ms,
        });
        if over {
            meta["seed"] = json!(self.spec.seed);
            if let Some(f) = self
                .end
                .as_ref()
                .and_then(|e| e.result.as_ref())
                .and_then(|r| r.forfeited_by)
            {
                meta["forfeited_by"] = json!(f);
            }
        }
        let mut record = self.session.record(Some(meta));
        // Attach the seat, thinking time and timeouts to each action.
        let mut taken = self.taken.iter();
        for hand in &mut record.hands {
            for a in &mut hand.actions {
                let Some(t) = taken.next() else { break };
                let mut extra = serde_json::Map::new();
                extra.insert("ms".into(), json!(t.ms));
                if t.timeout {
                    extra.insert("timeout".into(), json!(true));
                }
                *a = calabresella_engine::record::RecordAction::Detailed {
                    seat: t.seat.index() as u8,
                    action: a.text().to_owned(),
                    extra,
                };
            }
        }
        v1::GetRecordResponse {
            hands: record.hands.len() as u32,
            record_json: record.to_json(),
            match_over: over,
        }
    }

    /// The clock of the pending decision ran out.
    async fn timeout(&mut self) {
        let Some(p) = self.pending.as_ref() else {
            return;
        };
        let (seat, decision) = (p.seat, p.decision);
        self.seats[seat.index()].clock.timed_out();
        let policy = match v1::TimeoutPolicy::try_from(self.spec.clock.on_timeout) {
            Ok(v1::TimeoutPolicy::Forfeit) => v1::TimeoutPolicy::Forfeit,
            _ => v1::TimeoutPolicy::Bot,
        };
        tracing::info!(table = %self.id, seat = seat.index(), decision, policy = policy.as_str_name(), "clock ran out");
        self.push_all(
            Item::TimedOut(v1::TimedOut {
                decision,
                seat: seat.index() as u32,
                policy: policy as i32,
            }),
            true,
        );
        if policy == v1::TimeoutPolicy::Forfeit {
            self.finish(v1::EndReason::Forfeit, Some(seat));
            return;
        }
        let seed = self.spec.seed.rotate_left(17);
        let bot = self.timeout_bot.get_or_insert_with(|| {
            Box::new(calabresella_engine::bots::HeuristicBot::new(seed)) as SeatBot
        });
        let action = self.session.bot_action(seat, bot);
        match action {
            Some(a) => match self.take(seat, a, true).await {
                Ok(_) => {}
                Err(ServiceError::Store(e)) => self.stall(&e),
                Err(e) => {
                    tracing::error!(table = %self.id, error = %e, "timeout bot failed");
                    self.finish(v1::EndReason::Forfeit, Some(seat));
                }
            },
            None => self.finish(v1::EndReason::Forfeit, Some(seat)),
        }
    }

    /// A bot's turn.
    async fn bot_turn(&mut self) {
        let Some(p) = self.pending.as_ref() else {
            return;
        };
        let seat = p.seat;
        let mut bot = self.seats[seat.index()].bot.take();
        let action = bot.as_mut().and_then(|b| self.session.bot_action(seat, b));
        self.seats[seat.index()].bot = bot;
        match action {
            Some(a) => match self.take(seat, a, false).await {
                Ok(_) => {}
                Err(ServiceError::Store(e)) => self.stall(&e),
                Err(e) => {
                    tracing::error!(table = %self.id, error = %e, "bot chose an illegal action");
                    self.finish(v1::EndReason::Forfeit, Some(seat));
                }
            },
            None => self.finish(v1::EndReason::Forfeit, Some(seat)),
        }
    }

    /// The store refused a bot's (or the timeout bot's) action: nothing changed; the table
    /// tries again after a pause instead of spinning.
    fn stall(&mut self, e: &crate::store::StoreError) {
        tracing::warn!(table = %self.id, error = %e, "store refused a write; retrying in 1 s");
        if let Some(p) = self.pending.as_mut() {
            let later = Instant::now() + Duration::from_secs(1);
            if let Some(b) = p.bot_at.as_mut() {
                *b = later;
            }
            if let Some(d) = p.deadline.as_mut() {
                *d = (*d).max(later);
            }
        }
    }

    async fn handle(&mut self, cmd: Command) {
        self.handle_command(cmd).await;
        // Whatever a command staged (a seat taken, say) goes out now.
        self.flush_all();
    }

    async fn handle_command(&mut self, cmd: Command) {
        match cmd {
            Command::Info(reply) => {
                let _ = reply.send(self.info());
            }
            Command::Join { seat, name, reply } => {
                let _ = reply.send(self.join(seat, name).await);
            }
            Command::Observe {
                token,
                resume,
                reply,
            } => {
                let _ = reply.send(self.observe(token, resume));
            }
            Command::Act {
                token,
                decision,
                action,
                reply,
            } => {
                let _ = reply.send(self.act(&token, decision, &action).await);
            }
            Command::Record(reply) => {
                let _ = reply.send(self.record());
            }
            Command::Observation { token, reply } => {
                let _ = reply.send(self.observation(&token));
            }
            Command::Shutdown => {
                if self.store.durable() {
                    // The table lives on in the store: streams are told to reconnect, and the
                    // next start resumes the match.
                    let status = tonic::Status::unavailable(
                        "the server is restarting: reconnect to resume the table",
                    );
                    for f in &mut self.feeds {
                        f.interrupt(&status);
                    }
                    self.public.interrupt(&status);
                    self.suspended = true;
                } else if self.state == v1::TableState::Waiting {
                    self.finish(v1::EndReason::Abandoned, None);
                } else {
                    self.finish(v1::EndReason::Shutdown, None);
                }
            }
        }
    }

    /// The next moment the table must act by itself.
    fn wake_at(&self) -> Instant {
        if self.suspended {
            return Instant::now() + Duration::from_secs(3600);
        }
        let mut at = match &self.pending {
            Some(p) => p.bot_at.or(p.deadline).unwrap_or(self.expires),
            None => self.expires,
        };
        if let Some(r) = self.end_retry {
            at = at.min(r);
        }
        if self.end.is_none() && self.state == v1::TableState::Playing && self.session.is_over() {
            at = Instant::now();
        }
        at
    }

    /// Runs the table until it expires or every handle is dropped; `on_exit` runs last.
    pub async fn run(mut self, mut rx: mpsc::Receiver<Command>, on_exit: impl FnOnce(&str)) {
        if self.state == v1::TableState::Waiting && self.seats.iter().all(SeatState::filled) {
            self.start();
        } else if self.state == v1::TableState::Playing {
            // Restored from the store: the decision due now starts afresh.
            self.next_decision();
        }
        let mut streak = 0u32;
        loop {
            let wake = self.wake_at();
            if wake <= Instant::now() {
                self.on_wake().await;
                // An all-bot table at server speed: let other tasks run between decisions.
                streak += 1;
                if streak.is_multiple_of(16) {
                    tokio::task::yield_now().await;
                }
                if self.end.is_some() && Instant::now() >= self.expires {
                    break;
                }
                continue;
            }
            streak = 0;
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = tokio::time::sleep_until(wake) => {}
            }
        }
        on_exit(&self.id);
    }

    async fn on_wake(&mut self) {
        self.wake().await;
        self.flush_all();
    }

    async fn wake(&mut self) {
        let now = Instant::now();
        if self.end.is_none() && self.state == v1::TableState::Playing && self.session.is_over() {
            self.finish(v1::EndReason::Completed, None);
            self.save_end().await;
            return;
        }
        if self.end_retry.is_some_and(|t| t <= now) {
            self.save_end().await;
            return;
        }
        match &self.pending {
            Some(p) if p.bot_at.is_some_and(|t| t <= now) => self.bot_turn().await,
            Some(p) if p.deadline.is_some_and(|t| t <= now) => self.timeout().await,
            _ if self.state == v1::TableState::Waiting => {
                tracing::info!(table = %self.id, "abandoned: seats stayed open");
                self.finish(v1::EndReason::Abandoned, None);
            }
            _ if self.end.is_none() => {}
            _ => {
                // Finished and expired: the loop ends.
                self.expires = now;
            }
        }
    }
}
