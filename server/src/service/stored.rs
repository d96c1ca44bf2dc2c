//! Tables no longer in memory: the calls that find a table fall back on the store, so that a
//! finished table whose time to live ran out (or one from before a restart) still answers with
//! its description, its record and its end, and a table another instance runs is named there
//! (`TABLE_ELSEWHERE`).

use calabresella_proto::v1;

use super::validate::table_id;
use super::{GameService, records};
use crate::error::{Reason, ServiceError};
use crate::table::feed::UpdateStream;
use crate::table::{Command, TableHandle, ask};

impl GameService {
    /// The live table `id`.
    pub(super) async fn find(&self, id: &str) -> Result<TableHandle, ServiceError> {
        match self.registry.get(id) {
            Ok(h) => Ok(h),
            Err(_) => Err(self.missing(id).await),
        }
    }

    /// Why table `id` is not here: another server instance on the same database runs it
    /// (`TABLE_ELSEWHERE`, naming the instance, so a router can send the call there), or
    /// there is no such table.
    pub(super) async fn missing(&self, id: &str) -> ServiceError {
        let stored = self.stored_state(id).await;
        self.absent(id, stored)
    }

    /// The owner and state (`open` or `ended`) the store gives table `id`; `None` when it
    /// keeps no such table or cannot say.
    pub(super) async fn stored_state(&self, id: &str) -> Option<(String, String)> {
        self.registry
            .store()
            .owner(id.to_owned())
            .await
            .ok()
            .flatten()
    }

    /// [`GameService::missing`], from what the store says of the table.
    pub(super) fn absent(&self, id: &str, stored: Option<(String, String)>) -> ServiceError {
        let store = self.registry.store();
        match stored {
            Some((owner, state))
                if store.durable() && owner != store.instance() && state == "open" =>
            {
                ServiceError::Elsewhere(id.to_owned(), owner)
            }
            _ => ServiceError::TableNotFound(id.to_owned()),
        }
    }

    /// The record of table `id`: its finished hands while it plays, the whole match once over
    /// (from the store when the table has left memory).
    pub(super) async fn record_of(&self, id: &str) -> Result<v1::GetRecordResponse, ServiceError> {
        if let Ok(handle) = self.registry.get(id)
            && let Ok(record) = ask(&handle, Command::Record).await
        {
            return self.reveal_tournament_secret(record).await;
        }
        let json = self.registry.store().record(id.to_owned()).await?;
        let Some(json) = json else {
            return Err(self.missing(id).await);
        };
        let hands = serde_json::from_str::<serde_json::Value>(&json)
            .ok()
            .and_then(|v| v.get("hands").and_then(|h| h.as_array()).map(Vec::len))
            .unwrap_or(0);
        self.reveal_tournament_secret(v1::GetRecordResponse {
            record_json: json,
            hands: hands as u32,
            match_over: true,
        })
        .await
    }

    /// A finished tournament table's record with its table secret, once its tournament is
    /// over: the table withholds it until then (`deals_meta`), and the tournament's revealed
    /// secret derives it. Any other record passes as it is.
    pub(super) async fn reveal_tournament_secret(
        &self,
        mut response: v1::GetRecordResponse,
    ) -> Result<v1::GetRecordResponse, ServiceError> {
        use calabresella_engine::fair;
        if !response.match_over || !response.record_json.contains("\"tournament\"") {
            return Ok(response);
        }
        let Ok(mut record) = calabresella_engine::record::Record::parse(&response.record_json)
        else {
            return Ok(response);
        };
        let Ok(Some(link)) = fair::tournament_link(&record) else {
            return Ok(response);
        };
        let tournament = self
            .registry
            .store()
            .read(move |c| crate::store::tournaments::get(c, &link.id))
            .await?;
        let secret = tournament
            .filter(|t| t.state == "FINISHED")
            .and_then(|t| fair::unhex(&t.secret))
            .and_then(|b| <[u8; 32]>::try_from(b).ok());
        if let Some(secret) = secret
            && fair::reveal_table_secret(&mut record, &secret)
        {
            response.record_json = record.to_json();
        }
        Ok(response)
    }

    /// The table's description from its task; from the store when the task ended while the
    /// call waited (a finished table whose time to live ran out, say), so such a call never
    /// sees a table vanish that the store still describes.
    pub(super) async fn describe(&self, handle: &TableHandle) -> Result<v1::Table, ServiceError> {
        match ask(handle, Command::Info).await {
            Ok(table) => Ok(table),
            Err(e @ (ServiceError::Unavailable(_) | ServiceError::TableNotFound(_))) => {
                match self.finished_table(&handle.id).await? {
                    Some(table) => Ok(table),
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// A finished table from the store, if it keeps one under `id`.
    pub(super) async fn finished_table(&self, id: &str) -> Result<Option<v1::Table>, ServiceError> {
        Ok(self.stored_end(id).await?.map(|(table, _)| table))
    }

    /// A finished table from the store and how its match ended, if the store keeps one under
    /// `id`.
    pub(super) async fn stored_end(
        &self,
        id: &str,
    ) -> Result<Option<(v1::Table, v1::MatchEnded)>, ServiceError> {
        let store = self.registry.store();
        let Some((summary, spec)) = store.finished(id.to_owned()).await? else {
            return Ok(None);
        };
        let reason = calabresella_proto::convert::end_reason_by_name(&summary.reason)
            .unwrap_or(v1::EndReason::Unspecified);
        // A spec that no longer reads (damaged, or from a future version) leaves out only
        // what it alone holds: options beyond the game's defaults, the clock, the seat kinds.
        let spec = spec.and_then(|json| crate::table::stored::spec_from_json(&json).ok());
        let record = store.record(id.to_owned()).await?;
        let table = records::finished_table(summary, spec, record.as_deref());
        let ended = v1::MatchEnded {
            result: table.result.clone(),
            reason: reason as i32,
        };
        Ok(Some((table, ended)))
    }

    /// Opens a seat's stream (`token` set) or the public one. A finished table that has left
    /// memory (its time to live ran out, or the server restarted after the match ended) still
    /// shows its end from the store: a snapshot of the table, then `MatchEnded`, so a player
    /// who lost the connection as the match ended learns how it ended. Its seat tokens are
    /// gone with it, so any token is taken: the end of a match is public (`GetRecord`).
    pub(super) async fn open_stream(
        &self,
        id: &str,
        token: Option<String>,
        resume: Option<(u64, String)>,
    ) -> Result<UpdateStream, ServiceError> {
        let id = table_id(id)?;
        let live = match self.registry.get(id) {
            Ok(handle) => {
                let resume = resume.clone();
                ask(&handle, |reply| Command::Observe {
                    token,
                    resume,
                    reply,
                })
                .await
                .and_then(|r| r)
            }
            Err(_) => Err(ServiceError::TableNotFound(id.to_owned())),
        };
        match live {
            // The table's task ended while the call waited (its time to live ran out), or it
            // is not in memory at all. One small read says whether it ended; only then is
            // the end read.
            Err(e @ (ServiceError::Unavailable(_) | ServiceError::TableNotFound(_))) => {
                let stored = self.stored_state(id).await;
                if stored.as_ref().is_some_and(|(_, state)| state == "ended")
                    && let Some((table, ended)) = self.stored_end(id).await?
                {
                    return Ok(self.ended_stream(table, ended, resume.as_ref()));
                }
                match e {
                    ServiceError::TableNotFound(_) => Err(self.absent(id, stored)),
                    e => Err(e),
                }
            }
            other => other,
        }
    }

    /// The stream of a finished table that has left memory: a snapshot (no observation: the
    /// hands are in the record) and `MatchEnded`, numbered as a new stream of this server's.
    pub(super) fn ended_stream(
        &self,
        table: v1::Table,
        ended: v1::MatchEnded,
        resume: Option<&(u64, String)>,
    ) -> UpdateStream {
        let epoch = self.registry.config().epoch.clone();
        let reason = crate::table::epoch::snapshot_reason(resume, &epoch);
        let snapshot = v1::Update {
            seq: 0,
            stream_epoch: epoch.clone(),
            kind: Some(v1::update::Kind::Snapshot(Box::new(v1::Snapshot {
                observation: None,
                table: Some(table),
                turn: None,
                reason: reason as i32,
            }))),
            next_turn: None,
        };
        let end = v1::Update {
            seq: 1,
            stream_epoch: epoch,
            kind: Some(v1::update::Kind::MatchEnded(Box::new(ended))),
            next_turn: None,
        };
        UpdateStream::ended(vec![snapshot, end])
    }

    /// Why a call for a seat of table `id` cannot be served from memory: the match is over
    /// (`MATCH_OVER`) when the store keeps it finished, else what [`GameService::missing`]
    /// says.
    pub(super) async fn gone(&self, id: &str) -> ServiceError {
        match self.stored_state(id).await {
            Some((_, state)) if state == "ended" => ServiceError::Precondition(
                Reason::MatchOver,
                "the match is over and its table has left memory (GetRecord has it whole)".into(),
            ),
            stored => self.absent(id, stored),
        }
    }
}
