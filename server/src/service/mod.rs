//! [`GameService`]: the `calabresella.v1.TableService` RPCs. Each checks its request, then asks
//! the table's task; no game state lives here.

mod analysis;
mod auth;
mod bots;
mod competition;
mod player_page;
mod records;
mod replay;
mod stored;
pub mod validate;

use std::pin::Pin;
use std::sync::Arc;

use calabresella_proto::v1::table_service_server::TableService;
use calabresella_proto::v1::{self};
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status};

use self::auth::bearer;
use self::validate::{MAX_TABLE_ID, page, table_id};
use crate::error::{Reason, ServiceError};
use crate::limit::{FailureBudget, StreamBudget};
use crate::registry::{Registry, state_matches};
use crate::table::Command;
use crate::table::ask;

/// The service, over a registry of tables.
#[derive(Clone)]
pub struct GameService {
    registry: Arc<Registry>,
    /// Spectator streams open per client address.
    spectators: StreamBudget,
    /// Analyses running or waiting per client address.
    analyses: StreamBudget,
    /// Analyses run at once on the server.
    analysis_workers: Arc<tokio::sync::Semaphore>,
    /// Calls with a bad API key per client address.
    bad_keys: FailureBudget,
    /// Tournaments, matchmaking and the entrants' calls.
    hub: Arc<crate::competition::Hub>,
    /// Tournament standings computed.
    standings: competition::StandingsCache,
}

impl GameService {
    /// The competitions hub (the server stops it on shutdown).
    pub fn hub(&self) -> Arc<crate::competition::Hub> {
        self.hub.clone()
    }

    /// A service over `registry`.
    pub fn new(registry: Arc<Registry>) -> GameService {
        let hub = crate::competition::Hub::new(registry.clone());
        // The scheduler runs where there is a runtime (always, but in unit tests that build a
        // service outside one).
        if tokio::runtime::Handle::try_current().is_ok() {
            hub.spawn();
        }
        let workers = registry.config().analysis_workers.max(1);
        GameService {
            registry,
            spectators: StreamBudget::default(),
            analyses: StreamBudget::default(),
            analysis_workers: Arc::new(tokio::sync::Semaphore::new(workers)),
            bad_keys: FailureBudget::default(),
            hub,
            standings: competition::StandingsCache::default(),
        }
    }
}

impl GameService {
    /// `Act`: checks the request, then asks the table.
    async fn act_on(&self, r: v1::ActRequest) -> Result<Response<v1::ActResponse>, Status> {
        if r.seat_token.trim().is_empty() {
            return Err(ServiceError::NoToken.into());
        }
        let id = table_id(&r.table_id)?;
        let Ok(handle) = self.registry.get(id) else {
            return Err(self.gone(id).await.into());
        };
        let action = r.action.ok_or_else(|| {
            ServiceError::Invalid(Reason::BadAction, "the request has no action".into())
        })?;
        let response = ask(&handle, |reply| Command::Act {
            token: r.seat_token,
            decision: r.decision,
            action: Box::new(action),
            reply,
        })
        .await??;
        Ok(Response::new(response))
    }
}

type Streamed<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

#[tonic::async_trait]
impl TableService for GameService {
    async fn create_table(
        &self,
        request: Request<v1::CreateTableRequest>,
    ) -> Result<Response<v1::CreateTableResponse>, Status> {
        let mut spec = validate::table_spec(request.get_ref(), self.registry.config())?;
        self.pin_submitted(&mut spec).await?;
        // A seeded table's open seats are its creator's: the key proves who that is, behind a
        // proxy too (never logged; the table keeps its hash).
        let creator_key = if matches!(spec.deals, crate::table::DealSpec::Seeded(_))
            && spec.seats.contains(&v1::SeatKind::Open)
        {
            let key = crate::table::session::os_random::<16>()?;
            spec.creator_key = Some(crate::table::key_hash(&key));
            crate::table::hex(&key)
        } else {
            String::new()
        };
        let creator = request
            .remote_addr()
            .map(|a| a.ip().to_string())
            .unwrap_or_default();
        let handle = self.registry.create(spec, creator).await?;
        let table = self.describe(&handle).await?;
        tracing::info!(table = %table.table_id, "table created");
        Ok(Response::new(v1::CreateTableResponse {
            table: Some(table),
            creator_key,
        }))
    }

    async fn list_tables(
        &self,
        request: Request<v1::ListTablesRequest>,
    ) -> Result<Response<v1::ListTablesResponse>, Status> {
        let r = request.get_ref();
        let filter = v1::TableState::try_from(r.state)
            .map_err(|_| ServiceError::Invalid(Reason::BadState, format!("state {}", r.state)))?;
        let (offset, size) = page(r.page_size, &r.page_token)?;
        // Pages count tables before filtering, so a token stays meaningful as states change.
        let (handles, more) = self.registry.page(offset, size);
        // Each table's published description: no table is asked, so a busy one delays
        // nobody (it is at most `table::SUMMARY_EVERY` old; GetTable asks for the exact one).
        let tables = handles
            .iter()
            .map(|h| h.summary.borrow().clone())
            .filter(|t| state_matches(filter, t))
            .collect();
        Ok(Response::new(v1::ListTablesResponse {
            tables,
            next_page_token: if more {
                (offset + size).to_string()
            } else {
                String::new()
            },
        }))
    }

    async fn get_table(
        &self,
        request: Request<v1::GetTableRequest>,
    ) -> Result<Response<v1::GetTableResponse>, Status> {
        let id = table_id(&request.get_ref().table_id)?;
        let handle = match self.find(id).await {
            Ok(h) => h,
            // A finished table that left memory (after its time to live, or a restart) is
            // still described by what the store keeps, as its record is by `GetRecord`.
            Err(ServiceError::TableNotFound(_)) => {
                return match self.finished_table(id).await? {
                    Some(table) => Ok(Response::new(v1::GetTableResponse { table: Some(table) })),
                    None => Err(ServiceError::TableNotFound(id.to_owned()).into()),
                };
            }
            Err(e) => return Err(e.into()),
        };
        let table = self.describe(&handle).await?;
        Ok(Response::new(v1::GetTableResponse { table: Some(table) }))
    }

    async fn join_table(
        &self,
        request: Request<v1::JoinTableRequest>,
    ) -> Result<Response<v1::JoinTableResponse>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        let key = bearer(request.metadata())?;
        let guest = key.is_none();
        let r = request.into_inner();
        let name = self
            .seat_name(client, key.as_deref(), &r.player_name)
            .await?;
        let handle = self.find(table_id(&r.table_id)?).await?;
        let seat = match r.seat {
            None => None,
            Some(n) => Some(
                u8::try_from(n)
                    .ok()
                    .and_then(calabresella_engine::Seat::new)
                    .ok_or_else(|| {
                        ServiceError::Invalid(Reason::BadSeat, format!("no seat {n}"))
                    })?,
            ),
        };
        let (seat, seat_token, table) = ask(&handle, |reply| Command::Join {
            seat,
            name,
            guest,
            entropy: r.entropy,
            client: crate::table::Joiner::Call {
                address: client.map(|c| c.to_string()).unwrap_or_default(),
                creator_key: r.creator_key,
            },
            reply,
        })
        .await??;
        Ok(Response::new(v1::JoinTableResponse {
            seat: seat.index() as u32,
            seat_token,
            table: Some(table),
        }))
    }

    type ObserveStream = Streamed<v1::ObserveResponse>;

    async fn observe(
        &self,
        request: Request<v1::ObserveRequest>,
    ) -> Result<Response<Self::ObserveStream>, Status> {
        let r = request.into_inner();
        if r.seat_token.trim().is_empty() {
            return Err(ServiceError::NoToken.into());
        }
        let resume = r.resume_after.map(|n| (n, r.stream_epoch));
        let stream = self
            .open_stream(&r.table_id, Some(r.seat_token), resume)
            .await?;
        let open = crate::metrics::StreamGauge::new("seat");
        let out = stream.map(move |u| {
            let _counted = &open;
            u.map(|update| v1::ObserveResponse {
                update: Some(*update),
            })
        });
        Ok(Response::new(Box::pin(out)))
    }

    async fn act(
        &self,
        request: Request<v1::ActRequest>,
    ) -> Result<Response<v1::ActResponse>, Status> {
        let started = std::time::Instant::now();
        let answer = self.act_on(request.into_inner()).await;
        crate::metrics::act(started.elapsed(), answer.is_ok());
        answer
    }

    type SpectateStream = Streamed<v1::SpectateResponse>;

    async fn spectate(
        &self,
        request: Request<v1::SpectateRequest>,
    ) -> Result<Response<Self::SpectateStream>, Status> {
        // Anyone may watch, so each client address has a budget of spectator streams on the
        // whole server; the slot is held by the stream and freed when it ends.
        let client = request
            .remote_addr()
            .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |a| a.ip());
        let max = self.registry.config().max_spectators_per_client;
        let slot = self.spectators.take(client, max).map_err(|open| {
            ServiceError::Exhausted(
                Reason::TooManyStreams,
                format!("this client has {open} spectator streams open, the limit"),
            )
        })?;
        let r = request.into_inner();
        let resume = r.resume_after.map(|n| (n, r.stream_epoch));
        let stream = self.open_stream(&r.table_id, None, resume).await?;
        let open = crate::metrics::StreamGauge::new("spectator");
        let out = stream.map(move |u| {
            let _held = (&slot, &open);
            u.map(|update| v1::SpectateResponse {
                update: Some(*update),
            })
        });
        Ok(Response::new(Box::pin(out)))
    }

    async fn get_record(
        &self,
        request: Request<v1::GetRecordRequest>,
    ) -> Result<Response<v1::GetRecordResponse>, Status> {
        let id = table_id(&request.get_ref().table_id)?;
        Ok(Response::new(self.record_of(id).await?))
    }

    type SeekStream = Streamed<v1::SeekResponse>;

    async fn seek(
        &self,
        request: Request<v1::SeekRequest>,
    ) -> Result<Response<Self::SeekStream>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        let name = self.registered(client, request.metadata()).await?;
        let stream = self.open_seek(name, request.into_inner()).await?;
        Ok(Response::new(stream))
    }

    type CompeteStream = Streamed<v1::CompeteResponse>;

    async fn compete(
        &self,
        request: Request<v1::CompeteRequest>,
    ) -> Result<Response<Self::CompeteStream>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        let name = self.registered(client, request.metadata()).await?;
        let stream = self.open_compete(name, request.into_inner()).await?;
        Ok(Response::new(stream))
    }

    async fn create_tournament(
        &self,
        request: Request<v1::CreateTournamentRequest>,
    ) -> Result<Response<v1::CreateTournamentResponse>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        self.admin(client, request.metadata())?;
        let tournament = self.new_tournament(request.into_inner()).await?;
        Ok(Response::new(v1::CreateTournamentResponse {
            tournament: Some(tournament),
        }))
    }

    async fn get_tournament(
        &self,
        request: Request<v1::GetTournamentRequest>,
    ) -> Result<Response<v1::GetTournamentResponse>, Status> {
        let id = request.into_inner().tournament_id;
        if id.len() > MAX_TABLE_ID {
            return Err(ServiceError::NotFound(
                Reason::TournamentNotFound,
                "no such tournament".into(),
            )
            .into());
        }
        Ok(Response::new(self.tournament(id).await?))
    }

    async fn list_tournaments(
        &self,
        _request: Request<v1::ListTournamentsRequest>,
    ) -> Result<Response<v1::ListTournamentsResponse>, Status> {
        Ok(Response::new(v1::ListTournamentsResponse {
            tournaments: self.tournaments().await?,
        }))
    }

    async fn enter_tournament(
        &self,
        request: Request<v1::EnterTournamentRequest>,
    ) -> Result<Response<v1::EnterTournamentResponse>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        let name = self.registered(client, request.metadata()).await?;
        let id = request.into_inner().tournament_id;
        let tournament = self.enter(name, id).await?;
        Ok(Response::new(v1::EnterTournamentResponse {
            tournament: Some(tournament),
        }))
    }

    async fn list_games(
        &self,
        _: Request<v1::ListGamesRequest>,
    ) -> Result<Response<v1::ListGamesResponse>, Status> {
        // The same for every call of the server's life: described once.
        static GAMES: std::sync::OnceLock<Vec<v1::GameDescription>> = std::sync::OnceLock::new();
        let games = GAMES
            .get_or_init(calabresella_proto::convert::game_descriptions)
            .clone();
        Ok(Response::new(v1::ListGamesResponse { games }))
    }

    async fn who_am_i(
        &self,
        request: Request<v1::WhoAmIRequest>,
    ) -> Result<Response<v1::WhoAmIResponse>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        let player_name = self.registered(client, request.metadata()).await?;
        Ok(Response::new(v1::WhoAmIResponse { player_name }))
    }

    async fn get_player(
        &self,
        request: Request<v1::GetPlayerRequest>,
    ) -> Result<Response<v1::GetPlayerResponse>, Status> {
        let name = request.into_inner().player_name;
        Ok(Response::new(self.player_page(name).await?))
    }

    async fn get_replay(
        &self,
        request: Request<v1::GetReplayRequest>,
    ) -> Result<Response<v1::GetReplayResponse>, Status> {
        let r = request.get_ref();
        let record = self.record_of(table_id(&r.table_id)?).await?;
        let step = r.step;
        // Replaying is CPU work proportional to the record: off the async workers.
        let response = tokio::task::spawn_blocking(move || {
            replay::replay_step(&record.record_json, step, record.match_over)
        })
        .await
        .map_err(|e| ServiceError::Unavailable(format!("the replay failed: {e}")))??;
        Ok(Response::new(response))
    }

    async fn analyse_record(
        &self,
        request: Request<v1::AnalyseRecordRequest>,
    ) -> Result<Response<v1::AnalyseRecordResponse>, Status> {
        let client = request
            .remote_addr()
            .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |a| a.ip());
        let r = request.into_inner();
        let id = table_id(&r.table_id)?;
        Ok(Response::new(
            self.analysis(client, id, r.budget_ms, r.seed).await?,
        ))
    }

    async fn list_records(
        &self,
        request: Request<v1::ListRecordsRequest>,
    ) -> Result<Response<v1::ListRecordsResponse>, Status> {
        let r = request.into_inner();
        let (filter, offset, size) = records::filter(&r)?;
        let (found, more) = self
            .registry
            .store()
            .matches(filter)
            .await
            .map_err(ServiceError::from)?;
        Ok(Response::new(v1::ListRecordsResponse {
            records: found.into_iter().map(records::summary).collect(),
            next_page_token: if more {
                (offset + size).to_string()
            } else {
                String::new()
            },
        }))
    }

    async fn get_results(
        &self,
        request: Request<v1::GetResultsRequest>,
    ) -> Result<Response<v1::GetResultsResponse>, Status> {
        let r = request.into_inner();
        let game = records::game_name(r.game)?;
        let players = self
            .registry
            .store()
            .results(game.to_owned())
            .await
            .map_err(ServiceError::from)?;
        Ok(Response::new(v1::GetResultsResponse {
            players: players
                .into_iter()
                .filter(|p| !(r.people_only && p.bot))
                .map(records::player)
                .collect(),
        }))
    }

    async fn get_observation(
        &self,
        request: Request<v1::GetObservationRequest>,
    ) -> Result<Response<v1::GetObservationResponse>, Status> {
        let r = request.into_inner();
        if r.seat_token.trim().is_empty() {
            return Err(ServiceError::NoToken.into());
        }
        let id = table_id(&r.table_id)?;
        let Ok(handle) = self.registry.get(id) else {
            return Err(self.gone(id).await.into());
        };
        let response = ask(&handle, |reply| Command::Observation {
            token: r.seat_token,
            reply,
        })
        .await??;
        Ok(Response::new(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServerConfig;
    use crate::store::{Store, StoreOptions};
    use crate::table::TableHandle;

    /// ListTables answers from the tables' published descriptions: a table whose task does
    /// not read its commands (busy with a long run of bot moves, or stuck) delays nobody.
    #[tokio::test]
    async fn listing_tables_never_waits_on_a_table() {
        let store = Store::open(StoreOptions::default()).await.expect("store");
        let registry = Registry::new(Arc::new(ServerConfig::default()), store.store);
        let described = v1::Table {
            table_id: "t-stuck".into(),
            state: v1::TableState::Playing as i32,
            ..Default::default()
        };
        // A table whose command queue nobody reads.
        let (tx, _unread) = tokio::sync::mpsc::channel(1);
        let (_publisher, summary) = tokio::sync::watch::channel(described.clone());
        registry.insert_handle(TableHandle {
            id: "t-stuck".into(),
            tx,
            summary,
        });
        let service = GameService::new(registry);
        let listed = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            service.list_tables(Request::new(v1::ListTablesRequest::default())),
        )
        .await
        .expect("ListTables must not wait on the table's task")
        .expect("listed")
        .into_inner();
        assert_eq!(listed.tables, vec![described]);
        let playing = service
            .list_tables(Request::new(v1::ListTablesRequest {
                state: v1::TableState::Finished as i32,
                ..Default::default()
            }))
            .await
            .expect("listed")
            .into_inner();
        assert!(playing.tables.is_empty(), "the state filter applies");
    }
}

#[cfg(test)]
mod parser_fuzz {
    //! The request fields the service parses itself, fuzzed: page tokens, table ids, the
    //! authorization header, and whole `CreateTable` requests (names, metadata, seats, bots,
    //! clocks, options from any bytes). A value or a typed refusal, never a panic. Bounded by
    //! `PROPTEST_CASES`.
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn page_tokens_table_ids_and_keys_parse_or_are_refused(
            size in any::<u32>(),
            token in prop_oneof![".{0,24}", "[0-9]{0,24}", "-?[0-9]{1,12}"],
            id in prop_oneof![".{0,80}", "t-[0-9a-f]{0,20}", "\\s{0,3}"],
            header in prop::collection::vec(any::<u8>(), 0..90),
        ) {
            match page(size, &token) {
                Ok((offset, size)) => {
                    prop_assert!((1..=500).contains(&size));
                    prop_assert_eq!(offset, token.parse::<u32>().map_or(0, |o| o as usize));
                }
                Err(e) => prop_assert!(matches!(e, ServiceError::Invalid(Reason::BadPageToken, _))),
            }
            match table_id(&id) {
                Ok(t) => prop_assert!(!t.is_empty() && t.len() <= MAX_TABLE_ID),
                Err(e) => prop_assert!(matches!(e, ServiceError::Invalid(Reason::BadTableId, _))),
            }
            let mut metadata = tonic::metadata::MetadataMap::new();
            if let Ok(v) = tonic::metadata::MetadataValue::try_from(header.as_slice()) {
                metadata.insert("authorization", v);
            }
            if let Err(e) = bearer(&metadata) {
                prop_assert!(matches!(e, ServiceError::Unauthenticated(Reason::BadKey, _)));
            }
        }

        #[test]
        fn create_table_requests_validate_or_are_refused(
            name in ".{0,120}",
            metadata in prop::collection::hash_map(".{0,110}", ".{0,110}", 0..20),
            seats in prop::collection::vec(-2i32..8, 0..7),
            bots in prop::collection::vec("(pimc|random|heuristic|x)?(:[a-z]{0,6}=[0-9]{0,9})?", 0..7),
            clock in (any::<u32>(), any::<u32>(), -1i32..4),
            options in prop::collection::vec(any::<u8>(), 0..40),
            seed in prop::option::of(any::<u64>()),
            first_dealer in prop::option::of(0u32..9),
            bot_delay_ms in any::<u32>(),
        ) {
            use prost::Message;
            let request = v1::CreateTableRequest {
                name,
                options: v1::GameOptions::decode(options.as_slice()).ok(),
                seats,
                clock: Some(v1::Clock {
                    move_ms: clock.0,
                    bank_ms: clock.1,
                    on_timeout: clock.2,
                }),
                metadata,
                seed,
                first_dealer,
                bot_delay_ms,
                seat_bots: bots,
            };
            let config = crate::config::ServerConfig::default();
            match validate::table_spec(&request, &config) {
                Ok(spec) => {
                    prop_assert_eq!(spec.seats.len(), usize::from(spec.rules.seats()));
                    prop_assert!(spec.metadata.len() <= 16);
                }
                Err(e) => {
                    let status: Status = e.into();
                    prop_assert!(
                        matches!(status.code(), tonic::Code::InvalidArgument | tonic::Code::ResourceExhausted),
                        "{status:?}"
                    );
                }
            }
        }
    }
}
