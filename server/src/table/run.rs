//! The table's loop: it serves commands between bot moves and clock deadlines, lets bots and
//! timeouts answer, and finishes, saves and retires the table.

use super::Command;
use super::SeatState;
use super::Table;
use super::Thinking;
use super::feed::Item;
use super::session::SeatBot;
use crate::error::Reason;
use crate::error::ServiceError;
use calabresella_engine::Action;
use calabresella_engine::Seat;
use calabresella_proto::v1;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::sync::oneshot;
use tokio::time::Instant;

/// Commands a table serves before each move it makes by itself (a bot's, a timeout's).
const COMMANDS_PER_MOVE: usize = 8;

/// Turns to think for search bots: as many at once as the cores less one (at least one), the
/// others wait in order of arrival.
static THINKERS: std::sync::LazyLock<tokio::sync::Semaphore> = std::sync::LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    tokio::sync::Semaphore::new(cores.saturating_sub(1).max(1))
});

impl Table {
    /// The clock of the pending decision ran out.
    pub(super) async fn timeout(&mut self) {
        let Some(p) = self.pending.as_ref() else {
            return;
        };
        let (seat, decision) = (p.seat, p.decision);
        self.seats[seat.index()].clock.timed_out();
        // A submitted bot out of time is stopped: the policy applies for the rest of the match
        // (`bot_fault` sets the bot that answers now, or ends the match).
        if self.seats[seat.index()].submitted.is_some() && self.bot_fault(seat, "TLE").await {
            return;
        }
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
        let seed = self.spec.bot_seed.rotate_left(17);
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
    pub(super) async fn bot_turn(&mut self) {
        let Some(p) = self.pending.as_ref() else {
            return;
        };
        let seat = p.seat;
        if self.seats[seat.index()].thinks {
            self.start_thinking(seat);
            return;
        }
        let mut bot = self.seats[seat.index()].bot.take();
        let action = bot.as_mut().and_then(|b| self.session.bot_action(seat, b));
        self.seats[seat.index()].bot = bot;
        self.bot_moves(seat, action).await;
    }

    /// A search bot starts thinking for up to its budget, apart from the table's task: its
    /// callers are served meanwhile, and the answer comes back through [`Table::bot_answered`].
    fn start_thinking(&mut self, seat: Seat) {
        let (Some(bot), Some(obs)) = (
            self.seats[seat.index()].bot.take(),
            self.session.decision_view(seat),
        ) else {
            tracing::error!(table = %self.id, seat = seat.index(), "search bot has nothing to think about");
            self.finish(v1::EndReason::Forfeit, Some(seat));
            return;
        };
        let Some(p) = self.pending.as_mut() else {
            return;
        };
        p.bot_at = None;
        let (tx, answer) = oneshot::channel();
        self.thinking = Some(Thinking {
            decision: p.decision,
            seat,
            answer,
        });
        let pace = self.seats[seat.index()].pace;
        tokio::spawn(async move {
            // Thinking bots take turns for the cores the async workers leave (in order of
            // arrival), so many search tables queue instead of crowding out every other
            // table's work; the thinking itself runs on a blocking thread.
            let turn = THINKERS.acquire().await;
            let started = tokio::time::Instant::now();
            let mut bot = bot;
            let result = tokio::task::spawn_blocking(move || {
                let a = bot.act(&obs);
                (bot, a)
            })
            .await;
            // Answer at the bot's pace, not when it happened to finish (the turn to think is
            // over: another bot may use the core meanwhile).
            drop(turn);
            if let Some(p) = pace {
                tokio::time::sleep_until(started + p).await;
            }
            if let Ok((bot, a)) = result {
                let _ = tx.send((bot, Some(a)));
            }
            // A thinking thread that panicked drops `tx`: the table hears of it as a failure.
        });
    }

    /// A search bot's answer came back (`None`: its thinking failed).
    pub(super) async fn bot_answered(
        &mut self,
        decision: u64,
        seat: Seat,
        answer: Option<(SeatBot, Option<Action>)>,
    ) {
        let (bot, action) = match answer {
            Some((bot, action)) => (Some(bot), action),
            None => (None, None),
        };
        self.seats[seat.index()].bot = bot;
        let due = self
            .pending
            .as_mut()
            .filter(|p| p.decision == decision && p.seat == seat);
        let Some(p) = due else {
            return;
        };
        if self.suspended || self.end.is_some() {
            return;
        }
        // Due now, so a store that refuses the move has the bot try again later.
        p.bot_at = Some(Instant::now());
        self.bot_moves(seat, action).await;
    }

    /// A bot's chosen action is taken (`None`: the bot had none, and the seat forfeits).
    async fn bot_moves(&mut self, seat: Seat, action: Option<Action>) {
        match action {
            Some(a) => match self.take(seat, a, false).await {
                Ok(_) => {}
                Err(ServiceError::Store(e)) => self.stall(&e),
                Err(ServiceError::Exhausted(Reason::TableLogFull, why)) => {
                    // Not the bot's fault: the match outgrew the table's action limit (a huge
                    // target between bots). It ends as the seat to act forfeiting.
                    tracing::warn!(table = %self.id, seat = seat.index(), %why, "the match reached the table's action limit: it ends here");
                    self.finish(v1::EndReason::Forfeit, Some(seat));
                }
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
    pub(super) fn stall(&mut self, e: &crate::store::StoreError) {
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

    pub(super) async fn handle(&mut self, cmd: Command) {
        self.handle_command(cmd).await;
        self.publish(true);
        // Whatever a command staged (a seat taken, say) goes out now.
        self.flush_all();
    }

    pub(super) async fn handle_command(&mut self, cmd: Command) {
        match cmd {
            Command::Info(reply) => {
                let _ = reply.send(self.info());
            }
            Command::Join {
                seat,
                name,
                guest,
                entropy,
                client,
                reply,
            } => {
                let _ = reply.send(self.join(seat, name, guest, entropy, client).await);
            }
            Command::Fault {
                seat,
                reason,
                reply,
            } => {
                self.bot_fault(seat, &reason).await;
                let _ = reply.send(());
            }
            Command::SubmittedSeats(reply) => {
                let _ = reply.send(self.submitted_seats());
            }
            Command::Reissue { seat, name, reply } => {
                let _ = reply.send(self.reissue(seat, &name).await);
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
            Command::Retire => {
                // Only once its end is stored: the store then describes it in full.
                if self.end.is_some() && self.end_retry.is_none() {
                    self.expires = Instant::now();
                }
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
    pub(super) fn wake_at(&self) -> Instant {
        if self.suspended {
            return Instant::now() + Duration::from_secs(3600);
        }
        let mut at = match &self.pending {
            // A search bot is thinking: its answer wakes the table (the select in `run`);
            // nothing else is due for that decision (bots have no clock).
            Some(_) if self.thinking.is_some() => Instant::now() + Duration::from_secs(3600),
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
                // A table playing by itself at server speed still serves its callers: the
                // commands already waiting go first, a bounded few per move, so GetTable,
                // CreateTable's answer and a seat's Act never wait for the whole match.
                for _ in 0..COMMANDS_PER_MOVE {
                    match rx.try_recv() {
                        Ok(cmd) => self.handle(cmd).await,
                        Err(mpsc::error::TryRecvError::Empty) => break,
                        Err(mpsc::error::TryRecvError::Disconnected) => {
                            on_exit(&self.id);
                            return;
                        }
                    }
                }
                self.on_wake().await;
                // An all-bot table at server speed: let other tasks run between decisions.
                streak += 1;
                if streak.is_multiple_of(16) {
                    tokio::task::yield_now().await;
                }
                // Not before the end is stored: an abandoned table's end is saved on the
                // wake after it (a zero time to live once lost it).
                if self.end.is_some() && self.end_retry.is_none() && Instant::now() >= self.expires
                {
                    break;
                }
                continue;
            }
            streak = 0;
            // Idle until the next command or deadline: the listing shows the table as it is.
            self.publish(false);
            let thinking = self.thinking.as_mut().map(|t| (t.decision, t.seat));
            let answer = async {
                match self.thinking.as_mut() {
                    Some(t) => (&mut t.answer).await.ok(),
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                answer = answer => {
                    self.thinking = None;
                    if let Some((decision, seat)) = thinking {
                        self.bot_answered(decision, seat, answer).await;
                        self.publish(true);
                        self.flush_all();
                    }
                }
                () = tokio::time::sleep_until(wake) => {}
            }
        }
        on_exit(&self.id);
    }

    pub(super) async fn on_wake(&mut self) {
        self.wake().await;
        // Before the streams hear of an end, so a listing never lags behind them.
        self.publish(true);
        self.flush_all();
    }

    pub(super) async fn wake(&mut self) {
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
