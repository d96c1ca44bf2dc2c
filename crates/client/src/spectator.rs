//! [`Spectator`]: a table's public stream, followed in order (sequence numbers never skip or
//! repeat; a snapshot starts the count again) and reopened after a drop with `resume_after`.

use std::time::Duration;

use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use tokio::time::Instant;
use tokio_stream::StreamExt;
use tonic::Status;
use tonic::transport::Channel;

use crate::remote::RemoteError;
use crate::retry::{RECONNECT_FOR, backoff_delay, transient};

/// A spectator of one table.
#[derive(Debug)]
pub struct Spectator {
    client: TableServiceClient<Channel>,
    table_id: String,
    /// Last sequence number seen (0: none yet).
    pub last_seq: u64,
    /// The epoch of `last_seq`.
    pub epoch: String,
    /// Streams reopened after a drop.
    pub reconnects: u64,
    /// How long an outage may last before [`Spectator::next`] gives up.
    pub reconnect_for: Duration,
    stream: Option<tonic::Streaming<v1::SpectateResponse>>,
    ended: bool,
}

impl Spectator {
    /// A spectator of `table_id`; nothing is sent until [`Spectator::next`].
    pub fn new(client: TableServiceClient<Channel>, table_id: &str) -> Spectator {
        Spectator {
            client,
            table_id: table_id.to_owned(),
            last_seq: 0,
            epoch: String::new(),
            reconnects: 0,
            reconnect_for: RECONNECT_FOR,
            stream: None,
            ended: false,
        }
    }

    /// The next update, in order; `None` after `MatchEnded`. A dropped stream (or a restarted
    /// server) is opened again after the last update seen, for up to
    /// [`Spectator::reconnect_for`] of outage.
    pub async fn next(&mut self) -> Result<Option<v1::Update>, RemoteError> {
        let mut down_since: Option<Instant> = None;
        let mut tries = 0;
        loop {
            if self.ended {
                self.stream = None;
                return Ok(None);
            }
            let failed = match self.stream.as_mut() {
                None => match self.open().await {
                    Ok(s) => {
                        self.stream = Some(s);
                        continue;
                    }
                    Err(s) => s,
                },
                Some(stream) => match stream.next().await {
                    Some(Ok(r)) => {
                        let u = r.update.unwrap_or_default();
                        self.accept(&u)?;
                        return Ok(Some(u));
                    }
                    // Ended without `MatchEnded`: the server is stopping.
                    None => Status::unavailable("the stream ended before the match"),
                    Some(Err(s)) => s,
                },
            };
            self.stream = None;
            let since = *down_since.get_or_insert_with(Instant::now);
            if !transient(&failed) {
                return Err(RemoteError::Status(failed));
            }
            if since.elapsed() > self.reconnect_for {
                return Err(RemoteError::ConnectionLost(format!(
                    "the server stayed unreachable for {:?}: {}",
                    self.reconnect_for,
                    failed.message()
                )));
            }
            self.reconnects += 1;
            tokio::time::sleep(backoff_delay(tries)).await;
            tries += 1;
        }
    }

    async fn open(&mut self) -> Result<tonic::Streaming<v1::SpectateResponse>, Status> {
        let request = v1::SpectateRequest {
            table_id: self.table_id.clone(),
            resume_after: (self.last_seq > 0).then_some(self.last_seq),
            stream_epoch: self.epoch.clone(),
        };
        self.client
            .spectate(request)
            .await
            .map(tonic::Response::into_inner)
    }

    /// Checks an update's number against the last one and records it.
    fn accept(&mut self, u: &v1::Update) -> Result<(), RemoteError> {
        let snapshot = matches!(u.kind, Some(v1::update::Kind::Snapshot(_)));
        if !snapshot && self.last_seq > 0 && u.seq != self.last_seq + 1 {
            return Err(RemoteError::Order(format!(
                "spectator: got seq {} after {}",
                u.seq, self.last_seq
            )));
        }
        self.last_seq = u.seq;
        self.epoch.clone_from(&u.stream_epoch);
        if matches!(u.kind, Some(v1::update::Kind::MatchEnded(_))) {
            self.ended = true;
        }
        Ok(())
    }
}
