//! The one play loop every client program shares (the CLI's `sit`, the load generator, the
//! tests and the Python package's `RemoteSeat.play`): follow the seat's stream in order, resume
//! after a drop, answer each turn once through a [`Strategy`], and report how it went.
//!
//! One retry policy ([`RetryPolicy`]): an outage (the server unreachable, a stream cut, an
//! answer lost on the transport) may last [`RECONNECT_FOR`] in all, whatever was interrupted;
//! a refused answer is asked again [`MAX_REFUSALS`] times, then the turn's first legal action
//! is played and counted as a fault.

use std::time::Duration;

use calabresella_proto::v1;
use tokio::time::Instant;
use tokio_stream::StreamExt;
use tonic::{Code, Status};

use crate::remote::{RemoteError, RemoteSeat};

/// How long an outage may last before play gives up.
pub const RECONNECT_FOR: Duration = Duration::from_secs(30);

/// How many times a refused answer is asked again before the first legal action is played.
pub const MAX_REFUSALS: usize = 3;

/// How often a waiting loop gives the strategy a chance to stop play ([`Strategy::idle`]).
pub const IDLE_TICK: Duration = Duration::from_millis(100);

/// The retry policy of a seat: how long an outage may last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The longest outage tolerated, from its first failure to the connection being back.
    pub reconnect_for: Duration,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy {
            reconnect_for: RECONNECT_FOR,
        }
    }
}

/// Waits before the `n`th retry: 50 ms doubling up to 1 s.
pub(crate) fn backoff_delay(n: u32) -> Duration {
    Duration::from_millis(50u64.saturating_mul(1 << n.min(5)).min(1000))
}

/// Whether a failed call or stream may succeed when simply tried again: the server is
/// unreachable, restarting, cut a slow stream, or its store refused a write without changing
/// anything.
pub fn transient(s: &Status) -> bool {
    matches!(
        s.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::Internal
            | Code::ResourceExhausted
            | Code::Cancelled
    )
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

/// How the answers to one decision went.
enum Settled {
    /// Answered, refused for good, or taken by the clock: never answered again.
    Yes,
    /// Interrupted on the transport: answered again once the connection is back.
    No,
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

impl<S: Strategy> Play<'_, S> {
    /// The end of the outage window, starting it now if none is running.
    fn deadline(&mut self) -> Instant {
        *self.down_since.get_or_insert_with(Instant::now) + self.policy.reconnect_for
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

    /// Reopens the stream after a drop, within the outage window.
    async fn reconnect(
        &mut self,
        why: &str,
    ) -> Result<tonic::Streaming<v1::ObserveResponse>, PlayError<S::Error>> {
        let deadline = self.deadline();
        let mut n = 0;
        loop {
            if Instant::now() >= deadline {
                return Err(PlayError::ConnectionLost(format!(
                    "{why}, and the server could not be reached for {} s",
                    self.policy.reconnect_for.as_secs()
                )));
            }
            self.pause(backoff_delay(n)).await?;
            n += 1;
            match self.seat.observe_once().await {
                Ok(s) => {
                    self.reconnects += 1;
                    return Ok(s);
                }
                Err(s) if transient(&s) => {}
                Err(s) => return Err(s.into()),
            }
        }
    }

    /// Answers `turn` until it is settled.
    async fn answer(&mut self, turn: &v1::Turn) -> Result<Settled, PlayError<S::Error>> {
        let mut refused: Option<Status> = None;
        let mut refusals = 0;
        loop {
            let observation = if self.strategy.wants_observation() {
                match self.seat.fetch().await {
                    Ok(o) if o.decision != turn.decision => {
                        // The clock answered first; the stream will say so.
                        return Ok(Settled::Yes);
                    }
                    Ok(o) => o.observation,
                    Err(s) if transient(&s) => return Ok(Settled::No),
                    Err(s) => return Err(s.into()),
                }
            } else {
                None
            };
            let first_legal = || turn.legal_actions.first().cloned();
            let action = if refusals < MAX_REFUSALS {
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
            } else {
                self.faults += 1;
                first_legal()
            };
            let Some(action) = action else {
                return Ok(Settled::Yes);
            };
            let until = self.down_since.unwrap_or_else(Instant::now) + self.policy.reconnect_for;
            match self.seat.act_until(turn.decision, action, until).await {
                Ok(_) => {
                    self.decisions += 1;
                    return Ok(Settled::Yes);
                }
                // The clock ran out first: the stream says what happened instead.
                Err(s) if s.code() == Code::Aborted => return Ok(Settled::Yes),
                Err(s) if matches!(s.code(), Code::InvalidArgument | Code::FailedPrecondition) => {
                    if refusals >= MAX_REFUSALS {
                        // Even the first legal action was refused: the clock decides.
                        return Ok(Settled::Yes);
                    }
                    refusals += 1;
                    refused = Some(s);
                }
                Err(s) if transient(&s) => return Ok(Settled::No),
                Err(s) => return Err(s.into()),
            }
        }
    }

    async fn run(&mut self) -> Result<PlayReport, PlayError<S::Error>> {
        let mut stream = match self.seat.observe_once().await {
            Ok(s) => s,
            Err(s) if transient(&s) => self.reconnect("the stream did not open").await?,
            Err(s) => return Err(s.into()),
        };
        let mut answered: Option<u64> = None;
        // A turn whose answer broke on the transport: answered again before the stream is
        // read, since a resumed stream does not repeat it.
        let mut unsettled: Option<v1::Turn> = None;
        loop {
            let turn = if let Some(t) = unsettled.take() {
                if Instant::now() >= self.deadline() {
                    return Err(PlayError::ConnectionLost(format!(
                        "an answer could not be delivered for {} s",
                        self.policy.reconnect_for.as_secs()
                    )));
                }
                self.pause(backoff_delay(0) * 4).await?;
                Some(t)
            } else {
                let next = tokio::select! {
                    n = stream.next() => n,
                    () = tokio::time::sleep(IDLE_TICK) => {
                        self.strategy.idle().map_err(PlayError::Strategy)?;
                        continue;
                    }
                };
                let update = match next {
                    Some(Ok(r)) => r.update.unwrap_or_default(),
                    Some(Err(s)) if !transient(&s) => return Err(s.into()),
                    Some(Err(_)) => {
                        stream = self.reconnect("the stream broke").await?;
                        continue;
                    }
                    None => {
                        stream = self.reconnect("the stream ended").await?;
                        continue;
                    }
                };
                self.down_since = None;
                self.seat.accept(&update)?;
                self.strategy.on_update(&update);
                match &update.kind {
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
                }
            };
            let Some(t) = turn.filter(|t| !t.legal_actions.is_empty()) else {
                continue;
            };
            if answered == Some(t.decision) {
                continue;
            }
            match self.answer(&t).await? {
                Settled::Yes => {
                    answered = Some(t.decision);
                    self.down_since = None;
                }
                Settled::No => {
                    self.deadline();
                    unsettled = Some(t);
                }
            }
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
