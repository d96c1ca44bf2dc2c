//! The one play loop every client program shares (the CLI's `sit`, the load generator, the
//! tests and the Python package's `RemoteSeat.play`): follow the seat's stream in order, resume
//! after a drop, answer each turn once through a [`Strategy`], and report how it went.
//!
//! One retry policy ([`RetryPolicy`]): an outage (the server unreachable, a stream cut, an
//! answer lost on the transport) may last [`RECONNECT_FOR`] in all, from its first failure,
//! whatever was interrupted; an answer lost on the transport is sent again as it was. After
//! [`MAX_REFUSALS`] refused answers to one decision the turn's first legal action is played and
//! counted as a fault (a policy without the limit asks again until the clock decides). While it
//! waits, on the stream or on a call, the loop lets the strategy stop play at least every
//! [`IDLE_TICK`].

use std::future::Future;
use std::time::Duration;

use calabresella_proto::v1;
use tokio::time::Instant;
use tokio_stream::StreamExt;
use tonic::{Code, Status};

use crate::remote::{RemoteError, RemoteSeat};
use crate::retry::{backoff_delay, reason};
// The policy's parts, where they were first published.
pub use crate::retry::{MAX_REFUSALS, RECONNECT_FOR, RetryPolicy, retryable, transient};

/// How often a waiting loop gives the strategy a chance to stop play ([`Strategy::idle`]).
pub const IDLE_TICK: Duration = Duration::from_millis(100);

/// Whether the server refused an answer itself (malformed, or not legal now), so that another
/// answer may do: the other failed preconditions (the match is over, the turn passed) are
/// settled by what the stream says next.
fn refusal(s: &Status) -> bool {
    s.code() == Code::InvalidArgument
        || (s.code() == Code::FailedPrecondition && reason(s) == "ILLEGAL_ACTION")
}

/// A strategy's answer to a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// This action.
    Act(v1::Action),
    /// Not an action (a bot returned something unreadable): the turn's first legal action is
    /// played and counted as a fault.
    Invalid,
}

/// How a player answers turns, and what it does with what it sees.
pub trait Strategy {
    /// Why the strategy stops play (a bot's exception, an interrupt).
    type Error;

    /// Whether [`Strategy::choose`] wants the seat's full observation (one `GetObservation`
    /// call per answer); without it, the turn's legal actions are all it gets.
    fn wants_observation(&self) -> bool {
        false
    }

    /// The answer to `turn`. `observation` is the seat's view when wanted; `refused` is the
    /// server's refusal of the previous answer to the same decision.
    fn choose(
        &mut self,
        turn: &v1::Turn,
        observation: Option<&v1::Observation>,
        refused: Option<&Status>,
    ) -> Result<Answer, Self::Error>;

    /// Sees every update, in order.
    fn on_update(&mut self, _update: &v1::Update) {}

    /// Called at least every [`IDLE_TICK`] while the loop waits; an error stops play.
    fn idle(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// What a finished play saw.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayReport {
    /// How the match ended.
    pub ended: v1::MatchEnded,
    /// Decisions this seat answered (the clock's answers not counted).
    pub decisions: u64,
    /// Answers replaced by the first legal action (refused too often, or not an action).
    pub faults: u64,
    /// Streams reopened after a drop.
    pub reconnects: u64,
}

/// Why play stopped before the match ended.
#[derive(Debug, thiserror::Error)]
pub enum PlayError<E> {
    /// The server refused a call for good, or the stream broke its ordering promise.
    #[error(transparent)]
    Remote(#[from] RemoteError),
    /// The server stayed unreachable longer than the retry policy allows.
    #[error("{0}")]
    ConnectionLost(String),
    /// The strategy stopped play.
    #[error("the strategy stopped play")]
    Strategy(E),
}

impl<E> From<Status> for PlayError<E> {
    fn from(s: Status) -> PlayError<E> {
        PlayError::Remote(RemoteError::Status(s))
    }
}

/// The loop's state besides the seat.
struct Play<'a, S> {
    seat: &'a mut RemoteSeat,
    strategy: &'a mut S,
    policy: RetryPolicy,
    /// When the current outage began.
    down_since: Option<Instant>,
    decisions: u64,
    faults: u64,
    reconnects: u64,
}

/// Runs `call` while giving `strategy` a chance to stop play every [`IDLE_TICK`]; a call that
/// outlasts `limit` fails as UNAVAILABLE (a host that drops packets must not block play).
async fn with_idle<S: Strategy, T>(
    strategy: &mut S,
    limit: Duration,
    call: impl Future<Output = Result<T, Status>>,
) -> Result<Result<T, Status>, PlayError<S::Error>> {
    let call = tokio::time::timeout(limit, call);
    tokio::pin!(call);
    let mut tick = tokio::time::interval(IDLE_TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            r = &mut call => {
                return Ok(r.unwrap_or_else(|_| Err(Status::unavailable("the call timed out"))));
            }
            _ = tick.tick() => strategy.idle().map_err(PlayError::Strategy)?,
        }
    }
}

impl<S: Strategy> Play<'_, S> {
    /// The end of the outage window, starting it now if none is running.
    fn deadline(&mut self) -> Instant {
        *self.down_since.get_or_insert_with(Instant::now) + self.policy.reconnect_for
    }

    /// The error of an outage that outlasted the window.
    fn lost(&self, what: &str) -> PlayError<S::Error> {
        PlayError::ConnectionLost(format!(
            "{what} for {} s",
            self.policy.reconnect_for.as_secs()
        ))
    }

    /// Sleeps `d` in ticks, letting the strategy stop play.
    async fn pause(&mut self, d: Duration) -> Result<(), PlayError<S::Error>> {
        let until = Instant::now() + d;
        while Instant::now() < until {
            self.strategy.idle().map_err(PlayError::Strategy)?;
            tokio::time::sleep(IDLE_TICK.min(until - Instant::now())).await;
        }
        Ok(())
    }

    /// Waits before the `n`th retry, never past the end of the outage window (so play gives up
    /// when the window closes, not a backoff later).
    async fn backoff(&mut self, n: u32) -> Result<(), PlayError<S::Error>> {
        let left = self.deadline().saturating_duration_since(Instant::now());
        self.pause(backoff_delay(n).min(left)).await
    }

    /// Opens (or resumes) the stream, retrying within the outage window.
    async fn open(
        &mut self,
        why: &str,
    ) -> Result<tonic::Streaming<v1::ObserveResponse>, PlayError<S::Error>> {
        let mut n = 0;
        loop {
            let limit = self.policy.reconnect_for;
            match with_idle(self.strategy, limit, self.seat.observe_once()).await? {
                Ok(s) => return Ok(s),
                Err(s) if !transient(&s) => return Err(s.into()),
                Err(_) => {
                    if Instant::now() >= self.deadline() {
                        return Err(self.lost(&format!("{why}, and no stream could be opened")));
                    }
                    self.backoff(n).await?;
                    n += 1;
                }
            }
        }
    }

    /// The seat's observation for `turn`, retrying within the outage window; `None` when the
    /// decision is no longer due (the clock answered first, or the match is over; the stream
    /// will say so).
    async fn observation(
        &mut self,
        turn: &v1::Turn,
    ) -> Result<Option<Option<v1::Observation>>, PlayError<S::Error>> {
        let mut n = 0;
        loop {
            let limit = self.policy.reconnect_for;
            match with_idle(self.strategy, limit, self.seat.fetch()).await? {
                Ok(o) if o.decision != turn.decision => return Ok(None),
                Ok(o) => return Ok(Some(o.observation)),
                // The match is over (and its table may have left memory) or the decision is
                // otherwise settled: the stream says what happened.
                Err(s) if s.code() == Code::FailedPrecondition => return Ok(None),
                Err(s) if !retryable(&s) => return Err(s.into()),
                Err(_) => {
                    if Instant::now() >= self.deadline() {
                        return Err(self.lost("the observation could not be fetched"));
                    }
                    self.backoff(n).await?;
                    n += 1;
                }
            }
        }
    }

    /// Sends `action` for `turn` until the server answers for good, resending the same action
    /// while the connection is down (the call is idempotent), within the outage window.
    async fn send(
        &mut self,
        turn: &v1::Turn,
        action: &v1::Action,
    ) -> Result<Result<(), Status>, PlayError<S::Error>> {
        let mut n = 0;
        loop {
            let limit = self.policy.reconnect_for;
            let call = self.seat.act_once(turn.decision, action.clone());
            match with_idle(self.strategy, limit, call).await? {
                Ok(_) => return Ok(Ok(())),
                Err(s) if !retryable(&s) => return Ok(Err(s)),
                Err(_) => {
                    if Instant::now() >= self.deadline() {
                        return Err(self.lost("an answer could not be delivered"));
                    }
                    self.backoff(n).await?;
                    n += 1;
                }
            }
        }
    }

    /// Answers `turn` until it is settled: accepted, refused for good, or taken by the clock.
    async fn answer(&mut self, turn: &v1::Turn) -> Result<(), PlayError<S::Error>> {
        let mut refused: Option<Status> = None;
        let mut refusals = 0;
        loop {
            let observation = if self.strategy.wants_observation() {
                match self.observation(turn).await? {
                    Some(o) => o,
                    None => return Ok(()),
                }
            } else {
                None
            };
            let first_legal = || turn.legal_actions.first().cloned();
            let gave_up = self.policy.max_refusals.is_some_and(|m| refusals >= m);
            let action = if gave_up {
                self.faults += 1;
                first_legal()
            } else {
                match self
                    .strategy
                    .choose(turn, observation.as_ref(), refused.as_ref())
                    .map_err(PlayError::Strategy)?
                {
                    Answer::Act(a) => Some(a),
                    Answer::Invalid => {
                        self.faults += 1;
                        first_legal()
                    }
                }
            };
            let Some(action) = action else {
                return Ok(());
            };
            match self.send(turn, &action).await? {
                Ok(()) => {
                    self.decisions += 1;
                    return Ok(());
                }
                // Even the first legal action was refused: the clock decides.
                Err(s) if refusal(&s) && gave_up => return Ok(()),
                Err(s) if refusal(&s) => {
                    refusals += 1;
                    refused = Some(s);
                }
                // The clock ran out first (ABORTED), or the match moved on (the match is over,
                // the turn passed): the stream says what happened instead.
                Err(s) if matches!(s.code(), Code::Aborted | Code::FailedPrecondition) => {
                    return Ok(());
                }
                Err(s) => return Err(s.into()),
            }
        }
    }

    async fn run(&mut self) -> Result<PlayReport, PlayError<S::Error>> {
        let mut stream = self.open("the stream did not open").await?;
        let mut answered: Option<u64> = None;
        let mut tick = tokio::time::interval(IDLE_TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let next = tokio::select! {
                n = stream.next() => n,
                _ = tick.tick() => {
                    self.strategy.idle().map_err(PlayError::Strategy)?;
                    continue;
                }
            };
            let update = match next {
                Some(Ok(r)) => r.update.unwrap_or_default(),
                Some(Err(s)) if !transient(&s) => return Err(s.into()),
                Some(Err(_)) | None => {
                    // A broken or closed stream: resume after the last update seen.
                    self.deadline();
                    stream = self.open("the stream broke").await?;
                    self.reconnects += 1;
                    continue;
                }
            };
            self.down_since = None;
            self.seat.accept(&update)?;
            self.strategy.on_update(&update);
            let turn = match &update.kind {
                Some(v1::update::Kind::Turn(t)) => Some(t.clone()),
                Some(v1::update::Kind::Snapshot(s)) => s.turn.clone(),
                Some(v1::update::Kind::MatchEnded(m)) => {
                    return Ok(PlayReport {
                        ended: m.as_ref().clone(),
                        decisions: self.decisions,
                        faults: self.faults,
                        reconnects: self.reconnects,
                    });
                }
                _ => update.next_turn.as_deref().cloned(),
            };
            let Some(t) = turn.filter(|t| !t.legal_actions.is_empty()) else {
                continue;
            };
            if answered == Some(t.decision) {
                continue;
            }
            self.answer(&t).await?;
            answered = Some(t.decision);
            self.down_since = None;
        }
    }
}

/// Plays `seat` with `strategy` to the end of the match, under `policy`.
pub async fn play<S: Strategy>(
    seat: &mut RemoteSeat,
    strategy: &mut S,
    policy: RetryPolicy,
) -> Result<PlayReport, PlayError<S::Error>> {
    Play {
        seat,
        strategy,
        policy,
        down_since: None,
        decisions: 0,
        faults: 0,
        reconnects: 0,
    }
    .run()
    .await
}

/// A [`Strategy`] from two closures: `choose(turn, refused)` and `on_update(update)`.
pub struct FnStrategy<C, U> {
    /// Chooses an action from the turn (and the refusal of the previous answer).
    pub choose: C,
    /// Sees every update.
    pub on_update: U,
}

impl<C, U> Strategy for FnStrategy<C, U>
where
    C: FnMut(&v1::Turn, Option<&Status>) -> v1::Action,
    U: FnMut(&v1::Update),
{
    type Error = std::convert::Infallible;

    fn choose(
        &mut self,
        turn: &v1::Turn,
        _: Option<&v1::Observation>,
        refused: Option<&Status>,
    ) -> Result<Answer, Self::Error> {
        Ok(Answer::Act((self.choose)(turn, refused)))
    }

    fn on_update(&mut self, update: &v1::Update) {
        (self.on_update)(update);
    }
}

impl RemoteSeat {
    /// Plays the seat to the end of the match with `choose` and `on_update` (see
    /// [`play`], the one play loop): `choose` picks an action for a turn, and is
    /// asked again with the server's refusal (after [`MAX_REFUSALS`] refused
    /// answers the first legal action is played); `on_update` sees every update in order.
    /// Returns how the match ended.
    pub async fn play(
        &mut self,
        choose: impl FnMut(&v1::Turn, Option<&Status>) -> v1::Action,
        on_update: impl FnMut(&v1::Update),
    ) -> Result<v1::MatchEnded, RemoteError> {
        let policy = RetryPolicy {
            reconnect_for: self.reconnect_for,
            ..RetryPolicy::default()
        };
        let mut strategy = FnStrategy { choose, on_update };
        match play(self, &mut strategy, policy).await {
            Ok(report) => Ok(report.ended),
            Err(PlayError::Remote(e)) => Err(e),
            Err(PlayError::ConnectionLost(why)) => Err(RemoteError::ConnectionLost(why)),
            Err(PlayError::Strategy(never)) => match never {},
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_a_second() {
        let d: Vec<u64> = (0..8)
            .map(|n| backoff_delay(n).as_millis() as u64)
            .collect();
        assert_eq!(d, [50, 100, 200, 400, 800, 1000, 1000, 1000]);
    }

    #[test]
    fn calls_are_retried_only_when_the_server_did_not_answer_for_good() {
        assert!(retryable(&Status::unavailable("down")));
        assert!(retryable(&Status::cancelled("cut")));
        for c in [
            Code::InvalidArgument,
            Code::FailedPrecondition,
            Code::PermissionDenied,
            Code::Internal,
            Code::ResourceExhausted,
        ] {
            assert!(!retryable(&Status::new(c, "x")), "{c:?}");
        }
        assert!(
            !retryable(&Status::unknown("the server's own unknown error")),
            "an UNKNOWN the server sent is final"
        );
        let cut = Status::from_error(Box::new(std::io::Error::new(
            std::io::ErrorKind::BrokenPipe,
            "stream closed because of a broken pipe",
        )));
        assert_eq!(cut.code(), Code::Unknown);
        assert!(
            retryable(&cut),
            "an UNKNOWN made from a broken connection is retried"
        );
        assert!(refusal(&Status::invalid_argument("bad action")));
        assert!(
            !refusal(&Status::failed_precondition("over")),
            "only ILLEGAL_ACTION is a refusal among failed preconditions"
        );
    }

    #[test]
    fn transport_failures_are_transient_and_refusals_are_not() {
        for c in [Code::Unavailable, Code::Cancelled, Code::ResourceExhausted] {
            assert!(transient(&Status::new(c, "x")), "{c:?}");
        }
        for c in [
            Code::InvalidArgument,
            Code::FailedPrecondition,
            Code::PermissionDenied,
            Code::NotFound,
            Code::Aborted,
        ] {
            assert!(!transient(&Status::new(c, "x")), "{c:?}");
        }
    }
}
