//! `calabresella-load --abuse`: hostile clients from another loopback address (127.0.0.2)
//! while the measured tables play from 127.0.0.1. Each hostile task goes round the attacks in
//! turn, as fast as the server lets it: tables created past its budget, spectator streams
//! opened and dropped (the measured tables' among them), streams with wrong tokens, calls of
//! garbage bytes, PING and SETTINGS floods, rapid resets, oversized headers, more streams than
//! a connection may open, connections that stay silent, and a spectator that never reads.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use tonic::transport::Channel;

use crate::attack::{self, Ending, Target};

/// What the hostile clients did and how the server answered.
#[derive(Debug, Default)]
pub struct Tally {
    /// Attacks made, by kind.
    pub attacks: BTreeMap<&'static str, u64>,
    /// How their connections ended, by kind of ending.
    pub endings: BTreeMap<&'static str, u64>,
    /// Calls refused, by status code and reason.
    pub refusals: BTreeMap<String, u64>,
}

impl Tally {
    fn attack(&mut self, kind: &'static str) {
        *self.attacks.entry(kind).or_default() += 1;
    }

    fn ended(&mut self, e: Ending) {
        let kind = match e {
            Ending::GoAway(attack::ENHANCE_YOUR_CALM, _) => "goaway_enhance_your_calm",
            Ending::GoAway(attack::NO_ERROR, _) => "goaway_no_error",
            Ending::GoAway(..) => "goaway_other",
            Ending::Closed(_) => "closed",
            Ending::Open => "still_open",
        };
        *self.endings.entry(kind).or_default() += 1;
    }

    fn refused(&mut self, s: &tonic::Status) {
        use tonic_types::StatusExt;
        let reason = s
            .get_details_error_info()
            .map(|i| i.reason)
            .unwrap_or_default();
        *self
            .refusals
            .entry(format!("{:?} {reason}", s.code()))
            .or_default() += 1;
    }

    /// As JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "attacks": self.attacks,
            "connection_endings": self.endings,
            "refusals": self.refusals,
        })
    }
}

/// A gRPC client whose connection comes from `from`.
async fn client_from(
    url: &str,
    ca: Option<&std::path::Path>,
    from: IpAddr,
    server: SocketAddr,
) -> Option<Channel> {
    let tls = calabresella_client::TlsFiles::ca(ca);
    let endpoint = calabresella_client::endpoint(url, &tls, Duration::from_secs(5)).ok()?;
    let channel = endpoint
        .connect_with_connector(tower::service_fn(move |_| async move {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(from, 0))?;
            let stream = socket.connect(server).await?;
            Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
        }))
        .await
        .ok()?;
    Some(channel)
}

/// Starts `tasks` hostile tasks against `server` (its URL `url`, TLS when `ca` is given);
/// they stop when `stop` is set and report into `tally`.
pub fn spawn(
    url: String,
    server: SocketAddr,
    ca: Option<PathBuf>,
    tasks: usize,
    stop: Arc<AtomicBool>,
    tally: Arc<Mutex<Tally>>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let from: IpAddr = [127, 0, 0, 2].into();
    (0..tasks)
        .map(|i| {
            let (url, ca, stop, tally) = (url.clone(), ca.clone(), stop.clone(), tally.clone());
            tokio::spawn(async move {
                let target = match &ca {
                    None => Target::plain(server, from),
                    Some(ca) => match Target::tls(server, from, ca, b"h2") {
                        Ok(t) => t,
                        Err(_) => return,
                    },
                };
                let Some(channel) = client_from(&url, ca.as_deref(), from, server).await else {
                    return;
                };
                let mut round = i;
                while !stop.load(Ordering::Relaxed) {
                    one(round, &target, channel.clone(), &tally).await;
                    round += 1;
                }
            })
        })
        .collect()
}

const KINDS: usize = 12;

/// One attack, the `round`th in turn.
async fn one(round: usize, target: &Target, channel: Channel, tally: &Mutex<Tally>) {
    let mut client = TableServiceClient::new(channel.clone());
    let lock = || tally.lock().unwrap_or_else(|p| p.into_inner());
    let flood = |bytes: Vec<u8>| async {
        match target.connect().await {
            Ok(io) => Some(
                attack::send_then_watch(io, bytes, 16 * 1024, Duration::from_secs(3))
                    .await
                    .0,
            ),
            Err(_) => None,
        }
    };
    match round % KINDS {
        0 => {
            lock().attack("ping_flood");
            if let Some(e) = flood(attack::ping_flood(100_000)).await {
                lock().ended(e);
            }
        }
        1 => {
            lock().attack("settings_flood");
            if let Some(e) = flood(attack::settings_flood(100_000)).await {
                lock().ended(e);
            }
        }
        2 => {
            lock().attack("rapid_reset");
            if let Some(e) = flood(attack::rapid_reset(10_000)).await {
                lock().ended(e);
            }
        }
        3 => {
            lock().attack("garbage");
            let seed = round as u64 * 7919 + 1;
            if let Some(e) = flood(attack::garbage(8192, seed)).await {
                lock().ended(e);
            }
        }
        4 => {
            lock().attack("oversized_headers");
            if let Some(e) = flood(attack::oversized_header_block(64 * 1024)).await {
                lock().ended(e);
            }
        }
        5 => {
            lock().attack("too_many_streams");
            if let Some(e) = flood(attack::many_streams(1000)).await {
                lock().ended(e);
            }
        }
        6 => {
            // Tables of bots and tables with open seats, past the client's budgets.
            for seats in [v1::SeatKind::BotRandom, v1::SeatKind::Open] {
                lock().attack("create_table");
                let r = client
                    .create_table(v1::CreateTableRequest {
                        options: Some(v1::GameOptions {
                            settings: Default::default(),
                            game: v1::Game::Calabresella as i32,
                            rules: None,
                        }),
                        seats: vec![seats as i32; 3],
                        ..Default::default()
                    })
                    .await;
                if let Err(s) = r {
                    lock().refused(&s);
                }
            }
        }
        7 => {
            // Watch tables (the measured ones too), then drop the streams at once.
            lock().attack("spectate_and_drop");
            if let Ok(list) = client.list_tables(v1::ListTablesRequest::default()).await {
                for t in list.into_inner().tables.iter().take(20) {
                    match client
                        .spectate(v1::SpectateRequest {
                            table_id: t.table_id.clone(),
                            ..Default::default()
                        })
                        .await
                    {
                        Ok(s) => drop(s),
                        Err(s) => lock().refused(&s),
                    }
                }
            }
        }
        8 => {
            // Streams and actions with tokens that are no seat's.
            lock().attack("wrong_tokens");
            if let Ok(list) = client.list_tables(v1::ListTablesRequest::default()).await {
                for t in list.into_inner().tables.iter().take(10) {
                    let token = format!("{:032x}", round as u128 * 0x9e37_79b9);
                    if let Err(s) = client
                        .observe(v1::ObserveRequest {
                            table_id: t.table_id.clone(),
                            seat_token: token.clone(),
                            ..Default::default()
                        })
                        .await
                    {
                        lock().refused(&s);
                    }
                    if let Err(s) = client
                        .act(v1::ActRequest {
                            table_id: t.table_id.clone(),
                            seat_token: token,
                            ..Default::default()
                        })
                        .await
                    {
                        lock().refused(&s);
                    }
                }
            }
        }
        9 => {
            // Connections that never speak, twenty at once.
            lock().attack("silent_connections");
            let all: Vec<_> = (0..20)
                .map(|_| {
                    let t = target.clone();
                    tokio::spawn(async move { attack::silent(&t, Duration::from_secs(15)).await })
                })
                .collect();
            for a in all {
                if let Ok(Ok(e)) = a.await {
                    lock().ended(e);
                }
            }
        }
        10 => {
            // A spectator that never reads, on the busiest table it can find.
            lock().attack("slow_reader");
            if let Ok(list) = client.list_tables(v1::ListTablesRequest::default()).await
                && let Some(t) = list.into_inner().tables.first()
            {
                match client
                    .spectate(v1::SpectateRequest {
                        table_id: t.table_id.clone(),
                        ..Default::default()
                    })
                    .await
                {
                    Ok(stream) => {
                        tokio::time::sleep(Duration::from_secs(2)).await;
                        drop(stream);
                    }
                    Err(s) => lock().refused(&s),
                }
            }
        }
        _ => {
            // Requests that are no protobuf at all.
            lock().attack("garbage_requests");
            let mut grpc = tonic::client::Grpc::new(channel);
            if grpc.ready().await.is_ok() {
                let path: http::uri::PathAndQuery = "/calabresella.v1.TableService/CreateTable"
                    .parse()
                    .expect("path");
                let r = grpc
                    .unary(
                        tonic::Request::new(attack::garbage(64, round as u64 + 1)),
                        path,
                        attack::Raw,
                    )
                    .await;
                if let Err(s) = r {
                    lock().refused(&s);
                }
            }
        }
    }
}
