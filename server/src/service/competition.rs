//! The competition calls: matchmaking (`Seek`), an entrant's tables (`Compete`), and
//! tournaments (create, get, list, enter). The scheduling itself is in [`crate::competition`].

use std::collections::HashMap;
use std::sync::Arc;

use calabresella_proto::convert;
use calabresella_proto::v1;
use prost::Message;
use tokio_stream::StreamExt;
use tonic::metadata::MetadataMap;

use super::auth::bearer;
use super::{GameService, Streamed, validate};
use crate::competition::schedule::count;
use crate::competition::{self as comp, MAX_MATCHES, layout, seek};
use crate::error::{Reason, ServiceError};
use crate::store::tournaments::{self, TournamentRow};

/// Tables an entrant may ask to play at once.
const MAX_TABLES_PER_ENTRANT: u32 = 16;
/// The longest a seeker may wait for people before bots (an hour).
const MAX_BOTS_AFTER_MS: u32 = 3_600_000;
/// Entrants a tournament may have.
const MAX_ENTRANTS: usize = 256;
/// Tournaments whose standings are kept computed.
const STANDINGS_KEPT: usize = 64;

/// Standings (with the cross-table and outcomes) computed, by tournament, with what they were
/// computed from (matches over, dropped calls, entrants).
pub type StandingsCache = std::sync::Arc<
    std::sync::Mutex<HashMap<String, ((usize, u64, usize), Arc<comp::standings::Summary>)>>,
>;

fn bad(why: impl Into<String>) -> ServiceError {
    ServiceError::Invalid(Reason::BadTournament, why.into())
}

fn id_of(prefix: &str) -> Result<String, ServiceError> {
    Ok(format!(
        "{prefix}{}",
        crate::table::session::os_random::<8>()?
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    ))
}

impl GameService {
    /// The registered player calling (an API key is required).
    pub(super) async fn registered(
        &self,
        client: Option<std::net::IpAddr>,
        metadata: &MetadataMap,
    ) -> Result<String, ServiceError> {
        let Some(key) = bearer(metadata)? else {
            return Err(ServiceError::Unauthenticated(
                Reason::KeyRequired,
                "this call is for registered players: send `authorization: Bearer <API key>`"
                    .into(),
            ));
        };
        self.seat_name(client, Some(&key), "").await
    }

    /// Checks the organiser's admin key. Bad keys count against the caller's address like bad
    /// API keys.
    pub(super) fn admin(
        &self,
        client: Option<std::net::IpAddr>,
        metadata: &MetadataMap,
    ) -> Result<(), ServiceError> {
        let config = self.registry.config();
        let Some(want) = &config.admin_key_sha256 else {
            return Err(ServiceError::Precondition(
                Reason::NoAdminKey,
                "this server has no admin key: start it with `serve --admin-key-file` (or \
                 CALABRESELLA_ADMIN_KEY) to run tournaments"
                    .into(),
            ));
        };
        let header = bearer(metadata).map_err(|_| {
            ServiceError::Unauthenticated(
                Reason::BadAdminKey,
                "the authorization header is `Bearer <admin key>`".into(),
            )
        })?;
        let Some(key) = header else {
            return Err(ServiceError::Unauthenticated(
                Reason::AdminKeyRequired,
                "organiser calls need `authorization: Bearer <admin key>`".into(),
            ));
        };
        let max = config.max_bad_keys_per_client_per_minute;
        let now = std::time::Instant::now();
        // Hashes are compared, so the time taken says nothing about the key. The right key
        // passes even from a blocked address: others behind it must not lock the organiser
        // out.
        if &crate::store::players::key_hash(&key) != want {
            if client.is_some_and(|c| self.bad_keys.blocked(c, max, now)) {
                return Err(ServiceError::Exhausted(
                    Reason::TooManyBadKeys,
                    format!(
                        "more than {max} calls with a bad key in the last minute from this \
                         address"
                    ),
                ));
            }
            if let Some(c) = client {
                self.bad_keys.failed(c, max, now);
            }
            if let Some(suppressed) = crate::log_limit::allow(client, "bad_admin_key") {
                tracing::info!(client = ?client, suppressed, "refused an admin key");
            }
            return Err(ServiceError::Unauthenticated(
                Reason::BadAdminKey,
                "the admin key is not this server's".into(),
            ));
        }
        Ok(())
    }

    /// Opens a seek: the stream of its progress.
    pub(super) async fn open_seek(
        &self,
        name: String,
        r: v1::SeekRequest,
    ) -> Result<Streamed<v1::SeekResponse>, ServiceError> {
        let options = r.options.ok_or_else(|| {
            ServiceError::Invalid(Reason::BadOptions, "options are required".into())
        })?;
        if r.bots_after_ms > MAX_BOTS_AFTER_MS {
            return Err(ServiceError::Invalid(
                Reason::BadSeek,
                format!("bots_after_ms is at most {MAX_BOTS_AFTER_MS}"),
            ));
        }
        if !r.rating_window.is_finite() || r.rating_window < 0.0 {
            return Err(ServiceError::Invalid(
                Reason::BadSeek,
                "rating_window is a number of rating points, 0 or more".into(),
            ));
        }
        let hub = self.hub.clone();
        let seats = layout(hub.registry(), &options)?;
        let request = v1::CreateTableRequest {
            name: "matchmaking".into(),
            options: Some(options),
            seats: (0..seats.seats)
                .map(|i| {
                    if seats.open.contains(&i) {
                        v1::SeatKind::Open as i32
                    } else {
                        v1::SeatKind::Unspecified as i32
                    }
                })
                .collect(),
            clock: r.clock,
            ..Default::default()
        };
        let spec = validate::table_spec(&request, hub.registry().config())?;
        let settings = v1::Table {
            options: Some(convert::rules(&spec.rules)),
            clock: Some(spec.clock),
            ..Default::default()
        }
        .encode_to_vec();
        let rating = if r.rating_window > 0.0 {
            let game = spec.rules.game_name().to_owned();
            let results = self.registry.store().results(game).await?;
            results
                .iter()
                .find(|p| p.player == name && !p.guest)
                .map_or(0.0, |p| p.rating)
        } else {
            0.0
        };
        crate::service::validate::entropy(&r.entropy)?;
        // The seeker's own submitted bot, pinned to a version, if it sends one to play.
        let bot = if r.bot.trim().is_empty() {
            None
        } else {
            let runner = self.runner()?;
            let pinned = runner.resolve(r.bot.trim()).await.map_err(|e| match e {
                ServiceError::Invalid(_, why) => ServiceError::Invalid(Reason::BadSeek, why),
                other => other,
            })?;
            if pinned.row.owner != name {
                return Err(ServiceError::Denied(
                    Reason::NotYourBot,
                    format!("the bot {:?} is another player's", pinned.row.name),
                ));
            }
            Some(pinned.spec())
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let id = hub.seek_id();
        let (seekers, needed) = hub.add_seek(seek::Seeker {
            id,
            name,
            settings,
            request,
            needed: seats.open.len(),
            since: std::time::Instant::now(),
            bots_after: (r.bots_after_ms > 0)
                .then(|| std::time::Duration::from_millis(u64::from(r.bots_after_ms))),
            rating,
            window: r.rating_window,
            entropy: r.entropy.clone(),
            bot,
            reply: tx,
        })?;
        struct Cancel(std::sync::Arc<comp::Hub>, u64);
        impl Drop for Cancel {
            fn drop(&mut self) {
                self.0.cancel_seek(self.1);
            }
        }
        let cancel = Cancel(hub, id);
        let waiting = v1::SeekResponse {
            event: Some(v1::seek_response::Event::Waiting(v1::SeekWaiting {
                seekers: seekers as u32,
                needed: needed as u32,
            })),
        };
        let (out, stream) = tokio::sync::mpsc::channel(2);
        let _ = out.try_send(Ok(waiting));
        tokio::spawn(async move {
            let item = match rx.await {
                Ok(Ok(a)) => Ok(v1::SeekResponse {
                    event: Some(v1::seek_response::Event::Seated(a)),
                }),
                Ok(Err(e)) => Err(e.into()),
                // The seek left the queue: cancelled (then the stream is gone and this goes
                // nowhere), or the server is stopping.
                Err(_) => Err(ServiceError::Unavailable("the server is stopping".into()).into()),
            };
            let _ = out.send(item).await;
        });
        let stream = tokio_stream::wrappers::ReceiverStream::new(stream).map(move |item| {
            let _held = &cancel;
            item
        });
        Ok(Box::pin(stream))
    }

    /// Opens registered player `name`'s `Compete` call.
    pub(super) async fn open_compete(
        &self,
        name: String,
        r: v1::CompeteRequest,
    ) -> Result<Streamed<v1::CompeteResponse>, ServiceError> {
        if r.max_tables > MAX_TABLES_PER_ENTRANT {
            return Err(ServiceError::Invalid(
                Reason::BadCompete,
                format!("max_tables is 1 to {MAX_TABLES_PER_ENTRANT} (0: 1)"),
            ));
        }
        crate::service::validate::entropy(&r.entropy)?;
        let (rx, guard) = self
            .hub
            .compete(name, r.max_tables.max(1) as usize, r.entropy)
            .await?;
        let stream = tokio_stream::wrappers::ReceiverStream::new(rx).map(move |item| {
            let _held = &guard;
            item
        });
        Ok(Box::pin(stream))
    }

    /// Creates a tournament.
    pub(super) async fn new_tournament(
        &self,
        mut r: v1::CreateTournamentRequest,
    ) -> Result<v1::Tournament, ServiceError> {
        let name = r.name.trim().to_owned();
        if name.is_empty()
            || name.chars().count() > comp::MAX_NAME
            || !crate::names::printable(&name)
        {
            return Err(ServiceError::Invalid(
                Reason::BadName,
                format!(
                    "a tournament's name is 1 to {} printable characters",
                    comp::MAX_NAME
                ),
            ));
        }
        let options = r.options.clone().ok_or_else(|| {
            ServiceError::Invalid(Reason::BadOptions, "options are required".into())
        })?;
        let seats = layout(&self.registry, &options)?;
        // The clock as a table would take it.
        validate::table_spec(
            &v1::CreateTableRequest {
                options: Some(options),
                clock: r.clock,
                ..Default::default()
            },
            self.registry.config(),
        )?;
        if !(1..=100).contains(&r.deals) {
            return Err(bad("deals is 1 to 100"));
        }
        let format = v1::TournamentFormat::try_from(r.format)
            .map_err(|_| bad(format!("format {} is not a format", r.format)))?;
        if r.entrants.len() > MAX_ENTRANTS {
            return Err(bad(format!("at most {MAX_ENTRANTS} entrants")));
        }
        let store = self.registry.store();
        let mut entrants: Vec<(String, bool)> = Vec::new();
        for e in &r.entrants {
            let e = e.trim();
            let entry = if comp::is_bot_entrant(e) && !e.starts_with('~') {
                // The bot's parameters as a table would take them (the server's time cap).
                validate::table_spec(
                    &v1::CreateTableRequest {
                        options: r.options.clone(),
                        seats: (0..seats.seats)
                            .map(|i| {
                                if i == seats.open[0] {
                                    v1::SeatKind::BotNamed as i32
                                } else {
                                    v1::SeatKind::Open as i32
                                }
                            })
                            .collect(),
                        seat_bots: (0..seats.seats)
                            .map(|i| {
                                if i == seats.open[0] {
                                    e.to_owned()
                                } else {
                                    String::new()
                                }
                            })
                            .collect(),
                        ..Default::default()
                    },
                    self.registry.config(),
                )
                .map_err(|err| bad(format!("entrant {e:?}: {err}")))?;
                if crate::bot_spec::is_submitted(e) {
                    // A player's program: pinned to a version for the whole tournament, and
                    // not a built-in bot (a seed would let its owner know the deals).
                    let pinned = self
                        .runner()?
                        .resolve(&e.to_ascii_lowercase())
                        .await
                        .map_err(|err| bad(format!("entrant {e:?}: {err}")))?;
                    (pinned.spec(), false)
                } else {
                    (e.to_ascii_lowercase(), true)
                }
            } else {
                match store.registered_like(e.to_owned()).await? {
                    // The registered name itself (any case); a look-alike is refused, so a
                    // typo cannot enter someone else.
                    Some(n) if crate::names::normal(&n) == crate::names::normal(e) => {
                        let who = n.clone();
                        if store
                            .read(move |c| crate::store::players::is_disabled(c, &who))
                            .await?
                        {
                            return Err(bad(format!(
                                "entrant {n:?} is disabled (`calabresella players enable`)"
                            )));
                        }
                        (n, false)
                    }
                    Some(n) => {
                        return Err(bad(format!(
                            "entrant {e:?} only looks like the registered player {n:?}"
                        )));
                    }
                    None => {
                        return Err(bad(format!(
                            "entrant {e:?} is neither a registered player nor a built-in bot"
                        )));
                    }
                }
            };
            if entrants.iter().any(|(x, _)| *x == entry.0) {
                return Err(bad(format!("entrant {:?} is listed twice", entry.0)));
            }
            entrants.push(entry);
        }
        if !r.open_registration && entrants.len() < seats.open.len().max(2) {
            return Err(bad(format!(
                "the game seats {} players: list at least that many entrants, or open \
                 registration",
                seats.open.len()
            )));
        }
        let total = count(format, entrants.len(), &seats, r.deals);
        if total > MAX_MATCHES {
            return Err(bad(format!(
                "the tournament would have {total} matches, more than {MAX_MATCHES}"
            )));
        }
        // A seed is for simulation: whoever chose it knows every deal, so it is taken only
        // when no person plays. Otherwise the deals and the draw come from a secret committed
        // now (its hash is in the description) and revealed when the tournament is over.
        let secret = if r.seed.is_some() {
            if r.open_registration || entrants.iter().any(|(_, bot)| !bot) {
                return Err(bad(
                    "a seed is for simulation: allowed only when every entrant is a built-in \
                     bot and registration is closed (whoever chose it knows every deal); leave \
                     it unset for committed deals",
                ));
            }
            String::new()
        } else {
            let s = crate::table::session::os_random::<32>()?;
            r.seed = Some(calabresella_engine::fair::tournament_schedule_seed(&s));
            calabresella_engine::fair::hex(&s)
        };
        let now = crate::store::now_ms();
        if r.start_unix_ms <= 0 {
            r.start_unix_ms = now;
        }
        r.name = name.clone();
        r.entrants = entrants.iter().map(|(e, _)| e.clone()).collect();
        let row = TournamentRow {
            id: id_of("tn-")?,
            name,
            request: comp::request_hex(&r),
            state: "REGISTERING".into(),
            start_unix_ms: r.start_unix_ms,
            created_unix_ms: now,
            entrants,
            secret,
        };
        let owner = store.instance().to_owned();
        let stored = row.clone();
        store
            .read(move |c| tournaments::create(c, &stored, &owner))
            .await?;
        tracing::info!(tournament = %row.id, "tournament created");
        self.hub.wake();
        comp::describe(&row, &[])
    }

    /// A tournament with its standings and matches.
    pub(super) async fn tournament(
        &self,
        id: String,
    ) -> Result<v1::GetTournamentResponse, ServiceError> {
        let store = self.registry.store();
        let found = store
            .read(move |c| {
                let Some(t) = tournaments::get(c, &id)? else {
                    return Ok(None);
                };
                let matches = tournaments::matches(c, &id)?;
                let disconnects = tournaments::disconnects(c, &id)?;
                Ok(Some((t, matches, disconnects)))
            })
            .await?;
        let Some((t, matches, disconnects)) = found else {
            return Err(ServiceError::NotFound(
                Reason::TournamentNotFound,
                "no such tournament".into(),
            ));
        };
        let description = comp::describe(&t, &matches)?;
        // The standings change only when a match ends, a call drops or an entrant enters:
        // computed once per change, however many callers ask.
        let version = (
            matches.iter().filter(|m| m.over).count(),
            disconnects.iter().map(|(_, n)| u64::from(*n)).sum::<u64>(),
            t.entrants.len(),
        );
        let cached = self
            .standings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&t.id)
            .filter(|(v, _)| *v == version)
            .map(|(_, s)| s.clone());
        let summary = match cached {
            Some(s) => s,
            None => {
                let id = t.id.clone();
                let finished = store.read(move |c| tournaments::finished(c, &id)).await?;
                let entrants = t.entrants.clone();
                let disconnects: HashMap<String, u32> = disconnects.into_iter().collect();
                // Replaying every record is CPU work: off the async workers.
                let s = tokio::task::spawn_blocking(move || {
                    Arc::new(comp::standings::summary(&entrants, &finished, &disconnects))
                })
                .await
                .map_err(|e| ServiceError::Unavailable(format!("standings failed: {e}")))?;
                let mut cache = self.standings.lock().unwrap_or_else(|e| e.into_inner());
                if cache.len() >= STANDINGS_KEPT {
                    cache.clear();
                }
                cache.insert(t.id.clone(), (version, s.clone()));
                s
            }
        };
        let matches = matches
            .into_iter()
            .map(|m| {
                let (totals, won) = summary.outcomes.get(&m.number).cloned().unwrap_or_default();
                v1::TournamentMatch {
                    number: m.number,
                    totals,
                    won,
                    round: m.round,
                    state: if m.over {
                        v1::TableState::Finished
                    } else if m.table_id.is_empty() {
                        v1::TableState::Unspecified
                    } else {
                        v1::TableState::Playing
                    } as i32,
                    seats: m.seats,
                    table_id: m.table_id,
                }
            })
            .collect();
        Ok(v1::GetTournamentResponse {
            tournament: Some(description),
            standings: summary.standings.clone(),
            matches,
            cross_table: summary.cross_table.clone(),
        })
    }

    /// Every tournament, newest first.
    pub(super) async fn tournaments(&self) -> Result<Vec<v1::Tournament>, ServiceError> {
        let rows = self
            .registry
            .store()
            .read(|c| {
                let list = tournaments::list(c, None)?;
                let mut out = Vec::with_capacity(list.len());
                for t in list {
                    let m = tournaments::matches(c, &t.id)?;
                    out.push((t, m));
                }
                Ok(out)
            })
            .await?;
        rows.iter().map(|(t, m)| comp::describe(t, m)).collect()
    }

    /// Enters registered player `name` in tournament `id`.
    pub(super) async fn enter(
        &self,
        name: String,
        id: String,
    ) -> Result<v1::Tournament, ServiceError> {
        let store = self.registry.store();
        let lookup = id.clone();
        let Some(t) = store.read(move |c| tournaments::get(c, &lookup)).await? else {
            return Err(ServiceError::NotFound(
                Reason::TournamentNotFound,
                "no such tournament".into(),
            ));
        };
        let r = comp::request_of(&t)?;
        let seats = layout(&self.registry, &r.options.unwrap_or_default())?;
        let format = v1::TournamentFormat::try_from(r.format).unwrap_or_default();
        let open = r.open_registration;
        let found = store
            .read(move |c| {
                // One more entrant must keep the tournament within its limits: checked and
                // written on the store's one thread, so simultaneous entries cannot all pass.
                let Some(now) = tournaments::get(c, &id)? else {
                    return Ok(None);
                };
                let room = now.entrants.iter().any(|(e, _)| *e == name)
                    || (now.entrants.len() < MAX_ENTRANTS
                        && count(format, now.entrants.len() + 1, &seats, r.deals) <= MAX_MATCHES);
                let open = open && room && tournaments::enter(c, &id, &name)?;
                let t = tournaments::get(c, &id)?;
                Ok(t.map(|t| (t, open)))
            })
            .await?;
        match found {
            None => Err(ServiceError::NotFound(
                Reason::TournamentNotFound,
                "no such tournament".into(),
            )),
            Some((_, false)) => Err(ServiceError::Precondition(
                Reason::RegistrationClosed,
                "the tournament takes no more entrants".into(),
            )),
            Some((t, true)) => comp::describe(&t, &[]),
        }
    }
}
