//! [`RemoteSeat`]: a joined seat's calls over gRPC: open or resume its stream (checking that
//! sequence numbers never skip or repeat), fetch its observation, answer a decision
//! idempotently. [`crate::play`] is the loop that plays it to the end (and holds
//! [`RemoteSeat::play`]).

use std::time::Duration;

use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use tokio::time::Instant;
use tonic::Status;
use tonic::transport::Channel;

use crate::retry::{RECONNECT_FOR, backoff_delay, retryable, transient};

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

/// Waits before the `n`th retry (the policy's backoff).
async fn backoff(n: u32) {
    tokio::time::sleep(backoff_delay(n)).await;
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
    /// The server stayed unreachable longer than the retry policy allows.
    #[error("{0}")]
    ConnectionLost(String),
}

impl RemoteSeat {
    /// Joins `table_id` as `name` (at `seat`, or the lowest open seat).
    pub async fn join(
        client: TableServiceClient<Channel>,
        table_id: &str,
        seat: Option<u32>,
        name: &str,
    ) -> Result<RemoteSeat, Status> {
        RemoteSeat::join_as(client, table_id, seat, name, None).await
    }

    /// [`RemoteSeat::join`] as a registered player: `key` is its API key, sent as
    /// `authorization: Bearer <key>` (the seat then carries the player's registered name;
    /// `name` may be empty). No key: a guest, under `name`.
    /// The seat contributes 32 fresh random bytes to the table's committed deals
    /// ([`crate::entropy::contribution`]).
    pub async fn join_as(
        client: TableServiceClient<Channel>,
        table_id: &str,
        seat: Option<u32>,
        name: &str,
        key: Option<&str>,
    ) -> Result<RemoteSeat, Status> {
        let entropy = crate::entropy::contribution()?;
        RemoteSeat::join_with(client, table_id, seat, name, key, entropy).await
    }

    /// [`RemoteSeat::join_as`] with a contribution of the caller's own (empty: none; at most
    /// 64 bytes).
    pub async fn join_with(
        client: TableServiceClient<Channel>,
        table_id: &str,
        seat: Option<u32>,
        name: &str,
        key: Option<&str>,
        entropy: Vec<u8>,
    ) -> Result<RemoteSeat, Status> {
        let request = v1::JoinTableRequest {
            table_id: table_id.to_owned(),
            seat,
            player_name: name.to_owned(),
            entropy,
            creator_key: String::new(),
        };
        RemoteSeat::join_request(client, request, key).await
    }

    /// Takes a seat with a request of the caller's own: a seeded table's `creator_key`, say.
    /// Its `entropy` is sent as it is (empty: none; at most 64 bytes); `key` as for
    /// [`RemoteSeat::join_as`].
    pub async fn join_request(
        mut client: TableServiceClient<Channel>,
        mut request: v1::JoinTableRequest,
        key: Option<&str>,
    ) -> Result<RemoteSeat, Status> {
        request.entropy = crate::entropy::chosen(Some(&request.entropy))?;
        let table_id = request.table_id.clone();
        let mut request = tonic::Request::new(request);
        authorize(&mut request, key)?;
        let r = client.join_table(request).await?.into_inner();
        Ok(RemoteSeat {
            client,
            table_id,
            seat: r.seat,
            token: r.seat_token,
            last_seq: 0,
            epoch: String::new(),
            act_times: None,
            reconnect_for: RECONNECT_FOR,
        })
    }

    /// Opens (or resumes, after [`RemoteSeat::last_seq`]) the seat's stream, once.
    pub async fn observe_once(&mut self) -> Result<tonic::Streaming<v1::ObserveResponse>, Status> {
        let resume = (self.last_seq > 0).then_some(self.last_seq);
        self.client
            .observe(v1::ObserveRequest {
                table_id: self.table_id.clone(),
                seat_token: self.token.clone(),
                resume_after: resume,
                stream_epoch: self.epoch.clone(),
            })
            .await
            .map(tonic::Response::into_inner)
    }

    /// Opens (or resumes) the seat's stream; while the server is unreachable, keeps trying
    /// for [`RemoteSeat::reconnect_for`].
    pub async fn observe(&mut self) -> Result<tonic::Streaming<v1::ObserveResponse>, Status> {
        let until = Instant::now() + self.reconnect_for;
        let mut n = 0;
        loop {
            match self.observe_once().await {
                Ok(s) => return Ok(s),
                Err(s) if transient(&s) && Instant::now() < until => {
                    backoff(n).await;
                    n += 1;
                }
                Err(s) => return Err(s),
            }
        }
    }

    /// The seat's full observation now, with the number of the decision due.
    pub async fn fetch(&mut self) -> Result<v1::GetObservationResponse, Status> {
        self.client
            .get_observation(v1::GetObservationRequest {
                table_id: self.table_id.clone(),
                seat_token: self.token.clone(),
            })
            .await
            .map(tonic::Response::into_inner)
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
        let until = Instant::now() + self.reconnect_for;
        self.act_until(decision, action, until).await
    }

    /// One `Act` call, unrecorded.
    async fn send_act(
        &mut self,
        decision: u64,
        action: v1::Action,
    ) -> Result<v1::ActResponse, Status> {
        self.client
            .act(v1::ActRequest {
                table_id: self.table_id.clone(),
                seat_token: self.token.clone(),
                decision,
                action: Some(action),
            })
            .await
            .map(tonic::Response::into_inner)
    }

    /// Appends how long an answer took to [`RemoteSeat::act_times`], when kept.
    fn record_act(&mut self, started: Instant) {
        if let Some(times) = self.act_times.as_mut() {
            times.push(started.elapsed());
        }
    }

    /// Answers `decision` with `action`, once (the play loop retries under its own policy).
    pub async fn act_once(
        &mut self,
        decision: u64,
        action: v1::Action,
    ) -> Result<v1::ActResponse, Status> {
        let started = Instant::now();
        let r = self.send_act(decision, action).await;
        if r.is_ok() {
            self.record_act(started);
        }
        r
    }

    /// [`RemoteSeat::act`], retrying until `until` at the latest.
    pub async fn act_until(
        &mut self,
        decision: u64,
        action: v1::Action,
        until: Instant,
    ) -> Result<v1::ActResponse, Status> {
        let mut tries = 0;
        let started = Instant::now();
        loop {
            match self.send_act(decision, action.clone()).await {
                Err(s) if retryable(&s) && Instant::now() < until => {
                    backoff(tries).await;
                    tries += 1;
                }
                other => {
                    self.record_act(started);
                    return other;
                }
            }
        }
    }
}

/// Adds `authorization: Bearer <key>` to `request` when `key` is given (an API key, or the
/// admin key of organiser calls), marked sensitive so no debug output shows it.
pub fn authorize<T>(request: &mut tonic::Request<T>, key: Option<&str>) -> Result<(), Status> {
    if let Some(key) = key {
        let mut value: tonic::metadata::MetadataValue<tonic::metadata::Ascii> =
            format!("Bearer {}", key.trim()).parse().map_err(|_| {
                Status::invalid_argument(
                    "a key is printable ASCII (an API key is `cbk_` and hex digits)",
                )
            })?;
        value.set_sensitive(true);
        request.metadata_mut().insert("authorization", value);
    }
    Ok(())
}
