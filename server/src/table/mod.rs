//! One table: a task that owns the match, its seats, clocks and feeds. Every call reaches it as
//! a [`Command`] over a channel, so one table's state is only ever touched by its own task.

mod clock;
mod command;
mod deals;
mod end;
pub mod epoch;
mod faults;
pub mod feed;
mod handle;
mod named_bots;
mod requests;
mod run;
pub mod session;
pub mod stored;
pub(crate) mod tokens;

pub use self::command::Command;
pub use self::deals::{DealSpec, Origin, Secret};
pub use self::handle::{TableHandle, ask};
pub(crate) use self::named_bots::named_bot_name;
use self::named_bots::{bot_name, think_time};

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use calabresella_engine::game::Rules;
use calabresella_engine::{Action, Seat};
use calabresella_proto::convert;
use calabresella_proto::v1;
use tokio::sync::oneshot;
use tokio::time::Instant;

use self::clock::SeatClock;
use self::feed::{Feed, Item, TurnItem};
use self::session::{RawEvent, SeatBot, Session, seat_bot};
use self::tokens::unhex;
pub use self::tokens::{hex, token_hash as key_hash};
use crate::config::ServerConfig;
use crate::error::{Reason, ServiceError};
use crate::store::{Store, StoredAction, Write};

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
    /// The bot of each `BotNamed` seat, with its parameters (empty for other seats).
    pub bots: Vec<String>,
    /// The clock (effective values).
    pub clock: v1::Clock,
    /// How the deals are made.
    pub deals: DealSpec,
    /// The seed of the built-in bots' choices: drawn apart from the deals, so a bot's play
    /// says nothing about the cards to come.
    pub bot_seed: u64,
    /// The first dealer, if chosen.
    pub first_dealer: Option<Seat>,
    /// Pause before each bot decision.
    pub bot_delay: Duration,
    /// SHA-256 of the key that takes a seeded table's open seats (`None`: no such key).
    pub creator_key: Option<[u8; 32]>,
}

/// Who asks for a seat: what a seeded table checks before it seats anyone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Joiner {
    /// The server itself, seating a tournament's or a matchmaking's entrant at a table it made.
    Server,
    /// A `JoinTable` call.
    Call {
        /// The client's address ("" when unknown).
        address: String,
        /// The creator key the call presents (empty: none).
        creator_key: String,
    },
}

/// How stale a busy table's published description may get.
pub const SUMMARY_EVERY: Duration = Duration::from_millis(100);

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
    /// Taken without an API key: never rated.
    guest: bool,
    /// The player's contribution to the committed deals (empty: none).
    entropy: Vec<u8>,
    /// Actions refused as illegal (since this server run restored the table).
    illegal: u32,
    /// SHA-256 of the seat token: the token itself is only ever in the joiner's hands.
    token: Option<[u8; 32]>,
    clock: SeatClock,
    bot: Option<SeatBot>,
    /// A bot that thinks (a named search bot): it decides on a blocking thread, off the
    /// async workers, and is not asked again when the table is restored (each of its
    /// decisions is seeded from the position, so it keeps no stream to restore).
    thinks: bool,
    /// A thinking bot's answer time: every decision takes this long, however long it thought,
    /// so its timing cannot tell the other players anything about its cards (how many it may
    /// play, how hard the position is).
    pace: Option<Duration>,
    /// A submitted bot's seat: its pinned name (`submitted:NAME@VERSION`). The server's
    /// driver takes it (`crate::submitted`); it answers under the table's clock.
    submitted: Option<String>,
    /// Why the submitted bot here was stopped (`TLE`, `MLE`, `RE`, `BAD_OUTPUT`).
    fault: Option<String>,
}

impl SeatState {
    /// Whether a built-in bot sits here (a thinking bot is away from `bot` while it thinks).
    fn is_bot(&self) -> bool {
        self.bot.is_some() || self.thinks
    }

    /// Whether the seat needs nobody to join: taken, a bot, or the dummy.
    fn filled(&self) -> bool {
        self.is_bot() || self.token.is_some() || self.kind == v1::SeatKind::Unspecified
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

/// A search bot thinking apart from the table's task, which keeps serving its callers.
struct Thinking {
    decision: u64,
    seat: Seat,
    /// The bot back with its answer (`None` when thinking failed).
    answer: oneshot::Receiver<(SeatBot, Option<Action>)>,
}

/// A table's whole state, owned by its task.
pub struct Table {
    id: String,
    spec: TableSpec,
    created_unix_ms: i64,
    config: Arc<ServerConfig>,
    session: Session,
    state: v1::TableState,
    /// The table's place in the tables-by-state metric.
    gauge: crate::metrics::TableGauge,
    end: Option<v1::MatchEnded>,
    seats: Vec<SeatState>,
    feeds: Vec<Feed>,
    public: Feed,
    taken: Vec<Taken>,
    pending: Option<Pending>,
    /// The search bot thinking about the pending decision, if one is.
    thinking: Option<Thinking>,
    /// Submitted bots stopped so far, in order.
    faults: Vec<v1::BotFault>,
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
    /// The table's description as `ListTables` reads it without asking the task, and when it
    /// was last published.
    summary: Option<(tokio::sync::watch::Sender<v1::Table>, Instant)>,
}

fn unix_ms(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
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
        // A committed table deals once every contribution is in (`Table::deal_first`).
        let session = match &spec.deals {
            DealSpec::Seeded(seed) => Session::seeded(&spec.rules, *seed, spec.first_dealer),
            DealSpec::Committed { .. } => Session::waiting(&spec.rules, spec.first_dealer),
        }
        .map_err(|e| ServiceError::Invalid(Reason::BadOptions, e.to_string()))?;
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
                    v1::SeatKind::BotNamed => named_bot_name(bot_name(&spec, i)),
                    v1::SeatKind::Unspecified => "dummy".into(),
                    _ => String::new(),
                },
                guest: false,
                entropy: Vec::new(),
                illegal: 0,
                token: None,
                clock: SeatClock::new(spec.clock.bank_ms),
                bot: seat_bot(
                    kind,
                    bot_name(&spec, i),
                    spec.bot_seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)),
                    config.max_bot_ms,
                ),
                thinks: kind == v1::SeatKind::BotNamed
                    && calabresella_engine::bots::BotSpec::parse(bot_name(&spec, i))
                        .is_ok_and(|s| s.thinks()),
                pace: (kind == v1::SeatKind::BotNamed)
                    .then(|| think_time(bot_name(&spec, i)))
                    .flatten()
                    .map(|p| p.min(Duration::from_millis(u64::from(config.max_bot_ms)))),
                submitted: (kind == v1::SeatKind::BotNamed)
                    .then(|| bot_name(&spec, i))
                    .filter(|n| crate::bot_spec::is_submitted(n))
                    .map(str::to_owned),
                fault: None,
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
            gauge: crate::metrics::TableGauge::new(state_label(v1::TableState::Waiting)),
            end: None,
            seats,
            feeds,
            public,
            taken: Vec::new(),
            pending: None,
            thinking: None,
            faults: Vec::new(),
            timeout_bot: None,
            store,
            creator,
            end_retry: None,
            on_end: None,
            suspended: false,
            summary: None,
        })
    }

    /// The table's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether every seat is a built-in bot (the table plays by itself).
    pub fn bots_only(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.is_bot() || s.kind == v1::SeatKind::Unspecified)
    }

    /// The client address that created the table.
    pub fn creator(&self) -> &str {
        &self.creator
    }

    /// Sets what runs once when the match ends.
    pub fn on_end(&mut self, f: impl FnOnce() + Send + 'static) {
        self.on_end = Some(Box::new(f));
    }

    /// Starts publishing the table's description: the receiver always holds a recent one
    /// (see `Table::publish`), so listing tables never waits on a busy table.
    pub fn summary(&mut self) -> tokio::sync::watch::Receiver<v1::Table> {
        let (tx, rx) = tokio::sync::watch::channel(self.info());
        self.summary = Some((tx, Instant::now()));
        rx
    }

    /// Publishes the description now, or, with `busy` (a table playing by itself at server
    /// speed), only when the last one is older than [`SUMMARY_EVERY`] or the state changed: a
    /// listing is at most that stale, and a busy table does not describe itself after every
    /// move.
    pub(super) fn publish(&mut self, busy: bool) {
        let due = match &self.summary {
            None => return,
            // A new state (the match started or ended) goes out at once, busy or not.
            Some((tx, at)) => {
                !busy || at.elapsed() >= SUMMARY_EVERY || tx.borrow().state != self.state as i32
            }
        };
        if due {
            let info = self.info();
            if let Some((tx, at)) = self.summary.as_mut() {
                tx.send_replace(info);
                *at = Instant::now();
            }
        }
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
            guest: s.guest,
            // Shown once the match started: before, a later joiner could pick his own to suit.
            entropy: if self.state == v1::TableState::Waiting {
                Vec::new()
            } else {
                s.entropy.clone()
            },
            contributed: !s.entropy.is_empty(),
            fault: s.fault.clone().unwrap_or_default(),
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
            totals: convert::unsigned_totals(&self.spec.rules, &self.session.totals()),
            signed_totals: self.session.totals(),
            result: self.end.as_ref().and_then(|e| e.result.clone()),
            created_unix_ms: self.created_unix_ms,
            bot_delay_ms: self.spec.bot_delay.as_millis() as u32,
            decisions: self.taken.len() as u64,
            deal_scheme: self.spec.deals.scheme().to_owned(),
            commitment: self.spec.deals.commitment(),
            seeded: matches!(self.spec.deals, DealSpec::Seeded(_)),
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
        let opening = self.session.events(hand);
        self.push_events(hand, &opening);
    }

    /// The keys of a committed table's deals, from its secret and its seats' contributions
    /// (fixed now: every seat is filled).
    fn deal_keys(&self) -> Option<calabresella_engine::fair::DealKeys> {
        let DealSpec::Committed {
            secret,
            context,
            contributions,
            ..
        } = &self.spec.deals
        else {
            return None;
        };
        let given = self
            .seats
            .iter()
            .map(|s| {
                if *contributions {
                    s.entropy.clone()
                } else {
                    Vec::new()
                }
            })
            .collect();
        let context = context.clone().unwrap_or_else(|| self.id.clone());
        // Contributions and ids were checked on the way in; a failure here is a bug, and the
        // table then deals without them rather than not at all.
        calabresella_engine::fair::DealKeys::new(secret.0, context.clone(), given)
            .or_else(|_| calabresella_engine::fair::DealKeys::new(secret.0, context, Vec::new()))
            .ok()
    }

    /// Deals the first hand of a committed table, once every seat is filled.
    fn deal_first(&mut self) {
        if let Some(keys) = self.deal_keys() {
            match Session::committed(&self.spec.rules, keys, self.spec.first_dealer) {
                Ok(s) => self.session = s,
                Err(e) => tracing::error!(table = %self.id, error = %e, "cannot deal"),
            }
        }
    }

    fn start(&mut self) {
        self.deal_first();
        self.set_state(v1::TableState::Playing);
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
        let (deadline, bot_at, remaining) = if seat.is_bot() {
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
            // The engine words the refusal; nothing is applied.
            self.session
                .check_as(seat, action)
                .map_err(ServiceError::Illegal)?;
        }
        if self.config.max_actions_per_table > 0
            && self.taken.len() >= self.config.max_actions_per_table
        {
            // The match can go no further: it ends without a result.
            tracing::warn!(table = %self.id, "action log full: table abandoned");
            self.finish(v1::EndReason::Abandoned, None);
            return Err(ServiceError::Exhausted(
                Reason::TableLogFull,
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
        // The write-ahead log is what a restarted server resumes the match from. An
        // in-memory store dies with the process, so nothing could ever read it back: the table
        // keeps its own log (`taken`, the record's source) and skips the store's round trip.
        if self.store.durable() {
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
        }
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
        crate::metrics::action(self.spec.rules.game_name());
        if !self.seats[seat.index()].is_bot() && !timeout {
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
}

/// A table state's label in the metrics.
fn state_label(state: v1::TableState) -> &'static str {
    match state {
        v1::TableState::Waiting => "waiting",
        v1::TableState::Playing => "playing",
        v1::TableState::Finished => "finished",
        v1::TableState::Abandoned => "abandoned",
        _ => "unknown",
    }
}

impl Table {
    /// Moves the table to `state`, and its count in the metrics with it.
    fn set_state(&mut self, state: v1::TableState) {
        self.state = state;
        self.gauge.set(state_label(state));
    }
}
