//! The gRPC client `Client`: create, list, inspect and join tables, seek and compete, records
//! and results. Transport is tonic on a private tokio runtime; every wait happens with the GIL
//! released, and Ctrl-C is honoured. A joined seat is a [`RemoteSeat`].

use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tokio::runtime::Runtime;
use tonic::transport::Channel;

use calabresella_proto::v1::table_service_client::TableServiceClient;
use calabresella_proto::{convert, v1};

use calabresella_client::requests;

use crate::blocking::wait;
use crate::errors::{self, ConnectionLostError};
use crate::seat::{RemoteSeat, signed};
use crate::state::rules_from;
use crate::stream::UpdateStream;

/// The clock of keyword arguments: `None` (the server's) when none is given; an unset time
/// is 0, the server's default.
fn clock_of(move_ms: Option<u32>, bank_ms: Option<u32>, forfeit: bool) -> Option<v1::Clock> {
    (move_ms.is_some() || bank_ms.is_some() || forfeit).then(|| v1::Clock {
        move_ms: move_ms.unwrap_or(0),
        bank_ms: bank_ms.unwrap_or(0),
        on_timeout: if forfeit {
            v1::TimeoutPolicy::Forfeit
        } else {
            v1::TimeoutPolicy::Bot
        } as i32,
    })
}

/// A wrong name in a filter, as the `ValueError` it always was.
fn bad_filter(e: requests::NameError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn table_dict<'py>(py: Python<'py>, t: &v1::Table) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("table_id", &t.table_id)?;
    d.set_item("name", &t.name)?;
    let game = t
        .options
        .as_ref()
        .and_then(|o| convert::rules_from_wire(o).ok())
        .map(|r| r.game_name());
    d.set_item("game", game)?;
    d.set_item(
        "state",
        v1::TableState::try_from(t.state)
            .map(|s| {
                s.as_str_name()
                    .trim_start_matches("TABLE_STATE_")
                    .to_ascii_lowercase()
            })
            .unwrap_or_default(),
    )?;
    let seats: Vec<(u32, String, String)> = t
        .seats
        .iter()
        .map(|s| {
            (
                s.seat,
                v1::SeatKind::try_from(s.kind)
                    .map(|k| {
                        k.as_str_name()
                            .trim_start_matches("SEAT_KIND_")
                            .to_ascii_lowercase()
                    })
                    .unwrap_or_default(),
                s.player_name.clone(),
            )
        })
        .collect();
    d.set_item("seats", seats)?;
    let guests: Vec<u32> = t.seats.iter().filter(|s| s.guest).map(|s| s.seat).collect();
    d.set_item("guests", guests)?;
    d.set_item("hands_completed", t.hands_completed)?;
    d.set_item("totals", signed(&t.signed_totals, &t.totals))?;
    d.set_item("decisions", t.decisions)?;
    d.set_item("winners", t.result.as_ref().map(|r| r.winners.clone()))?;
    d.set_item("metadata", t.metadata.clone())?;
    d.set_item("deal_scheme", &t.deal_scheme)?;
    d.set_item("commitment", &t.commitment)?;
    d.set_item("seeded", t.seeded)?;
    // Each seat's contribution to the deals in hex, once the match started ("" before, or
    // for a seat that gave none).
    let entropy: Vec<String> = t
        .seats
        .iter()
        .map(|s| calabresella_engine::fair::hex(&s.entropy))
        .collect();
    d.set_item("entropy", entropy)?;
    Ok(d)
}

/// A seat's contribution to the deals: 32 fresh random bytes unless the caller gave its own
/// (`b""`: none). Too long is the caller's mistake, so a `ValueError` before any call.
fn entropy_of(py: Python<'_>, given: Option<Vec<u8>>) -> PyResult<Vec<u8>> {
    calabresella_client::entropy::chosen(given.as_deref()).map_err(|s| {
        if s.code() == tonic::Code::InvalidArgument {
            pyo3::exceptions::PyValueError::new_err(s.message().to_owned())
        } else {
            errors::status(py, &s)
        }
    })
}

/// A connection to a calabresella server.
#[pyclass(module = "calabresella._core")]
pub struct Client {
    rt: Arc<Runtime>,
    client: TableServiceClient<Channel>,
    /// The connection, for the bot calls.
    channel: Channel,
    /// The address connected to.
    #[pyo3(get)]
    address: String,
    /// The registered player's API key, sent when taking a seat (never shown).
    key: Option<String>,
}

#[pymethods]
impl Client {
    /// Connects to `address` (`host:port`, an `http://` URL, or an `https://` URL for TLS,
    /// verified against the system's root certificates or the PEM file `ca_cert`, presenting
    /// the client certificate `client_cert` with its key `client_key` when given); raises
    /// `ConnectionLostError` when the server cannot be reached (or a certificate is refused)
    /// within `timeout` seconds, `NotationError` for a bad address or certificate file.
    /// `key` is a registered player's API key (`calabresella players add`): seats are then
    /// taken as that player; without one, as a guest under the name given to `join`.
    #[new]
    #[pyo3(signature = (address, *, timeout = 10.0, ca_cert = None, client_cert = None, client_key = None, key = None))]
    fn new(
        py: Python<'_>,
        address: &str,
        timeout: f64,
        ca_cert: Option<std::path::PathBuf>,
        client_cert: Option<std::path::PathBuf>,
        client_key: Option<std::path::PathBuf>,
        key: Option<String>,
    ) -> PyResult<Client> {
        let tls = calabresella_client::TlsFiles {
            ca_cert,
            client_cert,
            client_key,
        };
        let endpoint = calabresella_client::endpoint(
            address,
            &tls,
            Duration::from_secs_f64(timeout.clamp(0.1, 3600.0)),
        )
        .map_err(|e| errors::notation(e.to_string()))?;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| ConnectionLostError::new_err(format!("runtime: {e}")))?;
        let channel = py.detach(|| rt.block_on(endpoint.connect())).map_err(|e| {
            // The transport's sources say why (a refused certificate, TLS required).
            let why = calabresella_client::error_chain(&e);
            ConnectionLostError::new_err(format!("cannot reach {address}: {why}"))
        })?;
        Ok(Client {
            rt: Arc::new(rt),
            client: TableServiceClient::new(channel.clone()),
            channel,
            address: address.to_owned(),
            key,
        })
    }

    /// Creates a table and returns its description. `seats` names each seat's kind: `"open"`
    /// (or `"human"`, `"player"`) for a player who joins, `"random"` (or `"bot"`) or
    /// `"heuristic"` for a built-in bot; one name fills every seat, and a dummy seat stays open
    /// (default: every seat open). Rule options are keyword arguments.
    #[pyo3(signature = (game = "calabresella", *, seats = None, name = String::new(), seed = None, move_ms = None, bank_ms = None, forfeit_on_timeout = false, bot_delay_ms = 0, **options))]
    #[allow(clippy::too_many_arguments)]
    fn create_table<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        seats: Option<Vec<String>>,
        name: String,
        seed: Option<crate::args::Seed>,
        move_ms: Option<u32>,
        bank_ms: Option<u32>,
        forfeit_on_timeout: bool,
        bot_delay_ms: u32,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let kinds = seats
            .unwrap_or_default()
            .iter()
            .map(|s| requests::seat(s).map_err(|e| errors::notation(e.to_string())))
            .collect::<PyResult<Vec<_>>>()?;
        let clock = clock_of(move_ms, bank_ms, forfeit_on_timeout).map(|c| v1::Clock {
            move_ms: move_ms.unwrap_or(60_000),
            ..c
        });
        let req = requests::NewTable {
            rules: rules_from(game, options)?,
            seats: kinds,
            name,
            seed: seed.map(|s| s.0),
            clock,
            bot_delay_ms,
        }
        .request();
        let mut c = self.client.clone();
        let r = wait(py, &self.rt, async move { c.create_table(req).await })?.into_inner();
        let t = r.table.unwrap_or_default();
        let d = table_dict(py, &t)?;
        // A seeded table's seats are its creator's: `join(..., creator_key=...)` takes them.
        if !r.creator_key.is_empty() {
            d.set_item("creator_key", r.creator_key)?;
        }
        Ok(d)
    }

    /// Tables on the server, newest first (`state`: waiting, playing, finished, abandoned).
    #[pyo3(signature = (state = None))]
    fn list_tables<'py>(
        &self,
        py: Python<'py>,
        state: Option<&str>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let state = requests::table_state(state).map_err(|e| errors::notation(e.to_string()))?;
        let mut c = self.client.clone();
        let tables = wait(py, &self.rt, async move {
            requests::list_all_tables(&mut c, state).await
        })?;
        let mut out = Vec::with_capacity(tables.len());
        for t in &tables {
            out.push(table_dict(py, t)?);
        }
        Ok(out)
    }

    /// One table's description.
    fn get_table<'py>(&self, py: Python<'py>, table_id: &str) -> PyResult<Bound<'py, PyDict>> {
        let mut c = self.client.clone();
        let req = v1::GetTableRequest {
            table_id: table_id.to_owned(),
        };
        let r = wait(py, &self.rt, async move { c.get_table(req).await })?;
        table_dict(py, &r.into_inner().table.unwrap_or_default())
    }

    /// The record (format v1, JSON text) of a table's completed hands.
    fn get_record(&self, py: Python<'_>, table_id: &str) -> PyResult<String> {
        let mut c = self.client.clone();
        let req = v1::GetRecordRequest {
            table_id: table_id.to_owned(),
        };
        let r = wait(py, &self.rt, async move { c.get_record(req).await })?;
        Ok(r.into_inner().record_json)
    }

    /// Finished matches the server keeps, newest first, as dicts; filters left unset do not
    /// filter. `since_ms`/`until_ms` bound the end time (ms since the Unix epoch).
    #[pyo3(signature = (*, player = None, winner = None, game = None, reason = None,
        since_ms = None, until_ms = None, draws_only = false, limit = 50))]
    #[allow(clippy::too_many_arguments)]
    fn list_records<'py>(
        &self,
        py: Python<'py>,
        player: Option<String>,
        winner: Option<String>,
        game: Option<&str>,
        reason: Option<&str>,
        since_ms: Option<i64>,
        until_ms: Option<i64>,
        draws_only: bool,
        limit: u32,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let req = requests::RecordQuery {
            player,
            winner,
            game: game.map(str::to_owned),
            reason: reason.map(str::to_owned),
            since_ms,
            until_ms,
            draws_only,
            limit,
        }
        .request()
        .map_err(bad_filter)?;
        let mut c = self.client.clone();
        let r = wait(py, &self.rt, async move { c.list_records(req).await })?;
        r.into_inner()
            .records
            .iter()
            .map(|m| {
                let d = PyDict::new(py);
                d.set_item("table_id", &m.table_id)?;
                d.set_item("name", &m.name)?;
                d.set_item("game", convert::game_name(m.game))?;
                d.set_item("players", &m.player_names)?;
                d.set_item(
                    "reason",
                    convert::end_reason_name(m.end_reason).to_ascii_lowercase(),
                )?;
                let result = m.result.clone().unwrap_or_default();
                d.set_item("winners", result.winners)?;
                d.set_item("draw", result.draw)?;
                d.set_item("totals", signed(&result.signed_totals, &result.totals))?;
                d.set_item("hands", result.hands)?;
                d.set_item("created_unix_ms", m.created_unix_ms)?;
                d.set_item("ended_unix_ms", m.ended_unix_ms)?;
                Ok(d)
            })
            .collect()
    }

    /// The results table: per player matches, wins, draws, points and OpenSkill rating
    /// (`mu`, `sigma`, `rating = mu - 3 sigma`), best first.
    #[pyo3(signature = (*, game = None, people_only = false))]
    fn results<'py>(
        &self,
        py: Python<'py>,
        game: Option<&str>,
        people_only: bool,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut c = self.client.clone();
        let req = requests::results_request(game, people_only).map_err(bad_filter)?;
        let r = wait(py, &self.rt, async move { c.get_results(req).await })?;
        r.into_inner()
            .players
            .iter()
            .map(|p| {
                let d = PyDict::new(py);
                d.set_item("player", &p.player_name)?;
                d.set_item("matches", p.matches)?;
                d.set_item("wins", p.wins)?;
                d.set_item("draws", p.draws)?;
                d.set_item("points", p.points)?;
                d.set_item("mu", p.mu)?;
                d.set_item("sigma", p.sigma)?;
                d.set_item("rating", p.rating)?;
                d.set_item("bot", p.bot)?;
                d.set_item("guest", p.guest)?;
                Ok(d)
            })
            .collect()
    }

    /// Takes a seat (`seat`, or the lowest open one): as the registered player whose key the
    /// client holds, or else as the guest `name`. The seat contributes `entropy` to the table's
    /// committed deals: by default 32 fresh random bytes, `b""` for none, or up to 64 bytes of
    /// the caller's own (more raises `ValueError`). A seeded table seats only its creator:
    /// pass the `creator_key` that `create_table` returned.
    #[pyo3(signature = (table_id, *, seat = None, name = None, entropy = None, creator_key = None))]
    fn join(
        &self,
        py: Python<'_>,
        table_id: &str,
        seat: Option<u32>,
        name: Option<String>,
        entropy: Option<Vec<u8>>,
        creator_key: Option<String>,
    ) -> PyResult<RemoteSeat> {
        let entropy = entropy_of(py, entropy)?;
        let c = self.client.clone();
        let id = table_id.to_owned();
        let key = self.key.clone();
        // A registered player's seat carries its registered name; a guest's, `name`.
        let name = name.unwrap_or_else(|| {
            if key.is_some() {
                String::new()
            } else {
                "python".into()
            }
        });
        let request = v1::JoinTableRequest {
            table_id: id,
            seat,
            player_name: name,
            entropy,
            creator_key: creator_key.unwrap_or_default(),
        };
        let joined = wait(py, &self.rt, async move {
            calabresella_client::RemoteSeat::join_request(c, request, key.as_deref()).await
        })?;
        Ok(RemoteSeat {
            rt: self.rt.clone(),
            inner: joined,
        })
    }

    /// A seat joined before, from its token (to carry on after the program restarted). Nothing
    /// is checked until the first call; a wrong token then raises `ServerError`
    /// (`PERMISSION_DENIED`, `BAD_TOKEN`).
    fn seat(&self, table_id: &str, seat: u32, token: &str) -> RemoteSeat {
        RemoteSeat {
            rt: self.rt.clone(),
            inner: calabresella_client::RemoteSeat {
                client: self.client.clone(),
                table_id: table_id.to_owned(),
                seat,
                token: token.to_owned(),
                last_seq: 0,
                epoch: String::new(),
                act_times: None,
                reconnect_for: calabresella_client::RECONNECT_FOR,
            },
        }
    }

    /// The tables the server schedules for the registered player whose key the client holds
    /// (tournaments): an iterator of dicts `table_id`, `seat`, `seat_token`, `tournament_id`.
    /// On connection it first gives the player's unfinished tables with fresh tokens (older
    /// tokens of those seats stop working). The server gives it `max_tables` tables at once.
    /// `entropy` is the player's contribution to the deals of every table it is given (as for
    /// `join`).
    #[pyo3(signature = (*, max_tables = 1, entropy = None))]
    fn compete(
        &self,
        py: Python<'_>,
        max_tables: u32,
        entropy: Option<Vec<u8>>,
    ) -> PyResult<crate::compete::Assignments> {
        let entropy = entropy_of(py, entropy)?;
        let mut c = self.client.clone();
        let key = self.key.clone();
        let stream = wait(py, &self.rt, async move {
            let mut r = tonic::Request::new(v1::CompeteRequest {
                max_tables,
                entropy,
            });
            calabresella_client::authorize(&mut r, key.as_deref())?;
            Ok(c.compete(r).await?.into_inner())
        })?;
        Ok(crate::compete::Assignments::new(
            self.rt.clone(),
            Box::pin(stream),
        ))
    }

    /// Matchmaking for the registered player whose key the client holds: waits until the
    /// server pairs it with other seekers of the same game, options and clock (within
    /// `rating_window` rating points if above 0), or fills the missing seats with built-in
    /// bots after `bots_after_ms` (0: never); returns the seat as a dict (`table_id`, `seat`,
    /// `seat_token`). Rule options are keyword arguments; `entropy` is as for `join`.
    /// `bot` sends the player's own submitted bot (`"submitted:NAME"`) to play the seat: the
    /// dict then has no token.
    #[pyo3(signature = (game = "calabresella", *, bots_after_ms = 0, rating_window = 0.0, move_ms = None, bank_ms = None, forfeit_on_timeout = false, entropy = None, bot = None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn seek<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        bots_after_ms: u32,
        rating_window: f64,
        move_ms: Option<u32>,
        bank_ms: Option<u32>,
        forfeit_on_timeout: bool,
        entropy: Option<Vec<u8>>,
        bot: Option<String>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let entropy = entropy_of(py, entropy)?;
        let clock = clock_of(move_ms, bank_ms, forfeit_on_timeout);
        let request = v1::SeekRequest {
            options: Some(convert::rules(&rules_from(game, options)?)),
            clock,
            bots_after_ms,
            rating_window,
            entropy,
            bot: bot.unwrap_or_default(),
        };
        crate::compete::seek(py, &self.rt, self.client.clone(), self.key.clone(), request)
    }

    /// Submits the bot file at `path` (a `.py` program, an executable, or a `.zip` with its
    /// `entry`) as a new version of the registered player's bot `name`; returns the version as
    /// a dict (`name`, `version`, `sha256`, `size`, `entry`, `runtime`). The server then runs
    /// it wherever `submitted:NAME` is seated (docs/SUBMISSIONS.md).
    #[pyo3(signature = (name, path, *, entry = None))]
    fn submit_bot<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        path: std::path::PathBuf,
        entry: Option<String>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let content = std::fs::read(&path)
            .map_err(|e| errors::notation(format!("cannot read {}: {e}", path.display())))?;
        let mut request = tonic::Request::new(v1::SubmitBotRequest {
            name: name.to_owned(),
            file_name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            content,
            entry: entry.unwrap_or_default(),
        });
        calabresella_client::authorize(&mut request, self.key.as_deref())
            .map_err(|e| errors::status(py, &e))?;
        let mut c = v1::bot_service_client::BotServiceClient::new(self.channel.clone())
            .max_encoding_message_size(8 * 1024 * 1024);
        let v = wait(py, &self.rt, async move { c.submit_bot(request).await })?
            .into_inner()
            .version
            .unwrap_or_default();
        bot_version(py, v)
    }

    /// Every submitted bot's versions (only `owner`'s when given), as dicts.
    #[pyo3(signature = (owner = None))]
    fn list_bots<'py>(
        &self,
        py: Python<'py>,
        owner: Option<String>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut c = v1::bot_service_client::BotServiceClient::new(self.channel.clone());
        let request = v1::ListBotsRequest {
            owner: owner.unwrap_or_default(),
        };
        let r = wait(py, &self.rt, async move { c.list_bots(request).await })?.into_inner();
        r.versions.into_iter().map(|v| bot_version(py, v)).collect()
    }

    /// What the player's submitted bot at `seat` of `table_id` wrote to its standard error
    /// (the last 64 KiB), and how its run ended: a dict `bot`, `stderr`, `fault` (`""`, `TLE`,
    /// `MLE`, `RE`, `BAD_OUTPUT`), `detail`. Its owner's alone.
    fn bot_log<'py>(
        &self,
        py: Python<'py>,
        table_id: &str,
        seat: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut request = tonic::Request::new(v1::GetBotLogRequest {
            table_id: table_id.to_owned(),
            seat,
        });
        calabresella_client::authorize(&mut request, self.key.as_deref())
            .map_err(|e| errors::status(py, &e))?;
        let mut c = v1::bot_service_client::BotServiceClient::new(self.channel.clone());
        let log = wait(py, &self.rt, async move { c.get_bot_log(request).await })?.into_inner();
        let d = PyDict::new(py);
        d.set_item("bot", log.bot)?;
        d.set_item("stderr", log.stderr)?;
        d.set_item("fault", log.fault)?;
        d.set_item("detail", log.detail)?;
        Ok(d)
    }

    /// The table's public stream, from its start: an iterator of update dicts (no hidden card
    /// in any of them; `hand_revealed` shows each hand's deal once it is over).
    fn spectate(&self, table_id: &str) -> UpdateStream {
        UpdateStream::public(self.rt.clone(), self.client.clone(), table_id.to_owned())
    }

    fn __repr__(&self) -> String {
        format!("Client({:?})", self.address)
    }
}

/// A submitted bot's version as a dict.
fn bot_version(py: Python<'_>, v: v1::BotVersion) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", v.name)?;
    d.set_item("version", v.version)?;
    d.set_item("owner", v.owner)?;
    d.set_item("sha256", v.sha256)?;
    d.set_item("size", v.size)?;
    d.set_item("entry", v.entry)?;
    d.set_item("runtime", v.runtime)?;
    d.set_item("submitted_unix_ms", v.submitted_unix_ms)?;
    Ok(d)
}
