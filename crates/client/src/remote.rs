//! [`RemoteSeat`]: a seat played by a program over gRPC. It follows the seat's stream, checks
//! that sequence numbers never skip or repeat, resumes after a dropped stream, and answers each
//! turn with a strategy's choice. Used by `calabresella sit`, the load generator and the tests.

use std::time::Duration;

use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::{Code, Status};

/// Answers `play` tries for one turn before it moves on and lets the clock decide.
pub const MAX_ATTEMPTS: usize = 10;

/// A joined seat.
#[derive(Debug, Clone)]
pub struct RemoteSeat {
    /// The gRPC client.
    pub client: TableServiceClient<Channel>,
    /// The table.
    pub table_id: String,
    /// The seat number.
    pub seat: u32,
    /// The secret seat token.
    pub token: String,
    /// Last sequence number seen (0: none yet).
    pub last_seq: u64,
    /// The epoch of `last_seq`.
    pub epoch: String,
    /// When set, the duration of every `act` call is appended here (for load measurements).
    pub act_times: Option<Vec<std::time::Duration>>,
    /// How long calls keep retrying while the server is unreachable (restarting, say).
    pub reconnect_for: Duration,
}

/// Default of [`RemoteSeat::reconnect_for`].
pub const RECONNECT_FOR: Duration = Duration::from_secs(30);

/// Whether a failed call may succeed when simply tried again: the server is unreachable,
/// restarting, or its store refused a write without changing anything.
fn retryable(s: &Status) -> bool {
    // CANCELLED, or UNKNOWN carrying a transport error, is what a call gets when its
    // connection breaks under it (the server died); the server never sends those itself.
    let transport = std::error::Error::source(s).is_some_and(|e| e.is::<tonic::transport::Error>());
    match s.code() {
        Code::Unavailable => true,
        Code::Cancelled | Code::Unknown => transport || s.code() == Code::Cancelled,
        _ => false,
    }
}

/// Waits before the `n`th retry: 50 ms doubling up to 1 s.
async fn backoff(n: u32) {
    let ms = 50u64.saturating_mul(1 << n.min(5)).min(1000);
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

/// Why playing a seat stopped early.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// The server refused a call.
    #[error("{0}")]
    Status(#[from] Status),
    /// The stream broke the ordering promise.
    #[error("stream order broken: {0}")]
    Order(String),
}

impl RemoteSeat {
    /// Joins `table_id` as `name` (at `seat`, or the lowest open seat).
    pub async fn join(
        mut client: TableServiceClient<Channel>,
        table_id: &str,
        seat: Option<u32>,
        name: &str,
    ) -> Result<RemoteSeat, Status> {
        let r = client
            .join_table(v1::JoinTableRequest {
                table_id: table_id.to_owned(),
                seat,
                player_name: name.to_owned(),
            })
            .await?
            .into_inner();
        Ok(RemoteSeat {
            client,
            table_id: table_id.to_owned(),
            seat: r.seat,
            token: r.seat_token,
            last_seq: 0,
            epoch: String::new(),
            act_times: None,
            reconnect_for: RECONNECT_FOR,
        })
    }

    /// Opens (or resumes) the seat's stream; while the server is unreachable, keeps trying
    /// for [`RemoteSeat::reconnect_for`].
    pub async fn observe(&mut self) -> Result<tonic::Streaming<v1::ObserveResponse>, Status> {
        let resume = (self.last_seq > 0).then_some(self.last_seq);
        let until = std::time::Instant::now() + self.reconnect_for;
        let mut n = 0;
        loop {
            let r = self
                .client
                .observe(v1::ObserveRequest {
                    table_id: self.table_id.clone(),
                    seat_token: self.token.clone(),
                    resume_after: resume,
                    stream_epoch: self.epoch.clone(),
                })
                .await;
            match r {
                Ok(s) => return Ok(s.into_inner()),
                Err(s) if retryable(&s) && std::time::Instant::now() < until => {
                    backoff(n).await;
                    n += 1;
                }
                Err(s) => return Err(s),
            }
        }
    }

    /// Checks an update's number against the last one and records it.
    pub fn accept(&mut self, u: &v1::Update) -> Result<(), RemoteError> {
        let snapshot = matches!(u.kind, Some(v1::update::Kind::Snapshot(_)));
        let expected = self.last_seq + 1;
        if !snapshot && self.last_seq > 0 && u.seq != expected {
            return Err(RemoteError::Order(format!(
                "seat {}: got seq {} after {}",
                self.seat, u.seq, self.last_seq
            )));
        }
        self.last_seq = u.seq;
        self.epoch.clone_from(&u.stream_epoch);
        Ok(())
    }

    /// Answers `decision` with `action`, retrying while the server is unreachable or its
    /// store refuses writes, for [`RemoteSeat::reconnect_for`] (the call is idempotent).
    pub async fn act(
        &mut self,
        decision: u64,
        action: v1::Action,
    ) -> Result<v1::ActResponse, Status> {
        let mut tries = 0;
        let started = std::time::Instant::now();
        let until = started + self.reconnect_for;
        loop {
            let r = self
                .client
                .act(v1::ActRequest {
                    table_id: self.table_id.clone(),
                    seat_token: self.token.clone(),
                    decision,
                    action: Some(action.clone()),
                })
                .await;
            match r {
                Err(s) if retryable(&s) && std::time::Instant::now() < until => {
                    backoff(tries).await;
                    tries += 1;
                }
                other => {
                    if let Some(times) = self.act_times.as_mut() {
                        times.push(started.elapsed());
                    }
                    return other.map(tonic::Response::into_inner);
                }
            }
        }
    }

    /// Plays the seat to the end of the match. `choose` picks an action for a turn; when the
    /// server refuses it, `choose` is asked again with the refusal (at most
    /// [`MAX_ATTEMPTS`] times a turn). `on_update` sees every update in order. Returns how the match ended. Reconnects once per
    /// broken stream, resuming after the last update seen.
    pub async fn play(
        &mut self,
        mut choose: impl FnMut(&v1::Turn, Option<&Status>) -> v1::Action,
        mut on_update: impl FnMut(&v1::Update),
    ) -> Result<v1::MatchEnded, RemoteError> {
        let mut stream = self.observe().await?;
        let mut answered: Option<u64> = None;
        loop {
            let u = match stream.next().await {
                Some(Ok(r)) => r.update.unwrap_or_default(),
                Some(Err(s))
                    if matches!(
                        s.code(),
                        Code::ResourceExhausted
                            | Code::Unavailable
                            | Code::Cancelled
                            | Code::Unknown
                            | Code::Internal
                    ) =>
                {
                    stream = self.observe().await?;
                    continue;
                }
                Some(Err(s)) => return Err(s.into()),
                None => {
                    return Err(RemoteError::Order(
                        "the stream ended before MatchEnded".into(),
                    ));
                }
            };
            self.accept(&u)?;
            on_update(&u);
            let turn = match &u.kind {
                Some(v1::update::Kind::Turn(t)) => Some(t),
                Some(v1::update::Kind::Snapshot(s)) => s.turn.as_ref(),
                Some(v1::update::Kind::MatchEnded(m)) => return Ok(m.as_ref().clone()),
                _ => u.next_turn.as_deref(),
            };
            if let Some(t) = turn.filter(|t| !t.legal_actions.is_empty()) {
                if answered == Some(t.decision) {
                    continue;
                }
                let mut rejected: Option<Status> = None;
                for _ in 0..MAX_ATTEMPTS {
                    let action = choose(t, rejected.as_ref());
                    match self.act(t.decision, action).await {
                        Ok(_) => break,
                        // The clock ran out first: the stream says what happened instead.
                        Err(s) if s.code() == Code::Aborted => break,
                        Err(s)
                            if matches!(
                                s.code(),
                                Code::InvalidArgument | Code::FailedPrecondition
                            ) =>
                        {
                            rejected = Some(s);
                        }
                        Err(s) => return Err(s.into()),
                    }
                }
                answered = Some(t.decision);
            }
        }
    }
}
