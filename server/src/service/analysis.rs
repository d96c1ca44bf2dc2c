//! `AnalyseRecord`: a finished match's analysis (docs/ANALYSIS.md), computed on a worker of
//! its own and kept in the store.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use calabresella_engine::record::Record;
use calabresella_engine::search::Budget;
use calabresella_engine::search::analysis::{self, AnalysisOptions};
use calabresella_proto::v1;
use serde_json::Value;

use super::GameService;
use crate::error::{Reason, ServiceError};
use crate::store::Store;

impl GameService {
    /// The analysis of table `id`'s finished match for `client`: from the store if it was
    /// made before with the same budget and seed, else made now and kept. The work runs in a
    /// task of its own that holds the client's slot and a worker until it ends, so a caller
    /// that goes away (a short deadline, a dropped connection) frees neither early, and the
    /// result is kept for the next caller all the same.
    pub(super) async fn analysis(
        &self,
        client: IpAddr,
        id: &str,
        budget_ms: u32,
        seed: u64,
    ) -> Result<v1::AnalyseRecordResponse, ServiceError> {
        let config = self.registry.config();
        if budget_ms > config.analysis_max_ms {
            return Err(ServiceError::Invalid(
                Reason::BadBudget,
                format!(
                    "budget_ms {budget_ms} is over this server's limit of {} ms per decision",
                    config.analysis_max_ms
                ),
            ));
        }
        let budget = if budget_ms == 0 {
            analysis::DEFAULT_BUDGET
        } else {
            Budget::parse(&format!("ms={budget_ms}"))
                .map_err(|e| ServiceError::Invalid(Reason::BadBudget, e.to_string()))?
        };
        let record = self.record_of(id).await?;
        if !record.match_over {
            return Err(ServiceError::Precondition(
                Reason::MatchInProgress,
                "the match is still being played: it can be analysed once it is over".into(),
            ));
        }
        if self.tournament_in_play(&record.record_json).await? {
            return Err(ServiceError::Precondition(
                Reason::MatchInProgress,
                "the tournament of this match is still being played (its deals may be in play \
                 at other tables): its matches can be analysed once it is over"
                    .into(),
            ));
        }
        let options = AnalysisOptions {
            budget,
            seed,
            ..AnalysisOptions::default()
        };
        let key = analysis::budget_text(&options.budget);
        let store = self.registry.store().clone();
        if let Some(value) = kept(&store, id, &key, seed).await? {
            return Ok(response(&value, true));
        }
        let slot = self
            .analyses
            .take(
                crate::connections::client_of(client),
                config.max_analyses_per_client,
            )
            .map_err(|_| {
                ServiceError::Exhausted(
                    Reason::TooManyAnalyses,
                    "this client already has an analysis running or waiting; ask again when it \
                     ends"
                        .into(),
                )
            })?;
        let workers = self.analysis_workers.clone();
        let limit = Duration::from_secs(config.analysis_max_s);
        let table = id.to_owned();
        let text = record.record_json;
        let work = tokio::spawn(async move {
            let _slot = slot;
            let _worker = workers
                .acquire_owned()
                .await
                .map_err(|_| ServiceError::Unavailable("the server is stopping".into()))?;
            // Another caller may have made it while this one waited for a worker.
            if let Some(value) = kept(&store, &table, &key, seed).await? {
                return Ok((value, true));
            }
            let deadline = Instant::now() + limit;
            // Seconds of CPU: on a blocking thread, off the async workers.
            let found = tokio::task::spawn_blocking(move || {
                let record = Record::parse(&text).map_err(|e| e.to_string())?;
                analysis::analyse_until(&record, &options, Some(deadline))
                    .map_err(|e| e.to_string())
            })
            .await
            .map_err(|e| ServiceError::Unavailable(format!("the analysis failed: {e}")))?
            .map_err(|e| {
                ServiceError::Unavailable(format!("the stored record does not replay: {e}"))
            })?;
            let Some(found) = found else {
                return Err(ServiceError::Exhausted(
                    Reason::AnalysisTooLong,
                    format!(
                        "the analysis took over this server's {} s (serve --analysis-max-s): \
                         ask with a smaller budget_ms, or 0 for the default budget",
                        limit.as_secs()
                    ),
                ));
            };
            let value = found.to_json();
            let json = value.to_string();
            let t = table.clone();
            // Kept for the next caller; a store that refuses it costs only the next caller's
            // time.
            if let Err(e) = store
                .read(move |c| crate::store::analyses::put(c, &t, &key, seed, &json))
                .await
            {
                tracing::warn!(table = %table, error = %e, "an analysis could not be kept");
            }
            Ok((value, false))
        });
        let (value, cached) = work
            .await
            .map_err(|e| ServiceError::Unavailable(format!("the analysis failed: {e}")))??;
        Ok(response(&value, cached))
    }

    /// Whether the record belongs to a tournament not yet over: the same deals may be in play
    /// at its other tables (a duplicate tournament), so the engine's advice on them waits.
    async fn tournament_in_play(&self, record_json: &str) -> Result<bool, ServiceError> {
        if !record_json.contains("\"tournament\"") {
            return Ok(false);
        }
        let Ok(record) = Record::parse(record_json) else {
            return Ok(false);
        };
        let Ok(Some(link)) = calabresella_engine::fair::tournament_link(&record) else {
            return Ok(false);
        };
        let tournament = self
            .registry
            .store()
            .read(move |c| crate::store::tournaments::get(c, &link.id))
            .await?;
        Ok(tournament.is_some_and(|t| t.state != "FINISHED"))
    }
}

/// The analysis kept for `table`, `budget` and `seed`, if any.
async fn kept(
    store: &Store,
    table: &str,
    budget: &str,
    seed: u64,
) -> Result<Option<Value>, ServiceError> {
    let (t, b) = (table.to_owned(), budget.to_owned());
    let json = store
        .read(move |c| crate::store::analyses::get(c, &t, &b, seed))
        .await?;
    Ok(json.and_then(|j| serde_json::from_str::<Value>(&j).ok()))
}

fn response(value: &Value, cached: bool) -> v1::AnalyseRecordResponse {
    v1::AnalyseRecordResponse {
        analysis: Some(to_proto(value)),
        cached,
    }
}
/// The analysis JSON (`calabresella-analysis/1`) as the wire's message.
fn to_proto(v: &Value) -> v1::Analysis {
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
    let uint = |v: &Value, k: &str| v[k].as_u64().unwrap_or(0) as u32;
    let float = |v: &Value, k: &str| v[k].as_f64().unwrap_or(0.0);
    let int = |v: &Value, k: &str| v[k].as_i64().map(|x| x as i32);
    let list = |v: &Value, k: &str| v[k].as_array().cloned().unwrap_or_default();
    v1::Analysis {
        game: text(v, "game"),
        budget: text(v, "budget"),
        seed: v["seed"].as_u64().unwrap_or(0),
        large: float(v, "large"),
        decisions: list(v, "decisions")
            .iter()
            .map(|d| v1::AnalysedDecision {
                hand: uint(d, "hand"),
                index: uint(d, "index"),
                seat: uint(d, "seat"),
                phase: text(d, "phase"),
                chosen: text(d, "chosen"),
                best: text(d, "best"),
                loss: float(d, "loss"),
                exact_loss: int(d, "exact_loss"),
                large: d["large"].as_bool().unwrap_or(false),
                actions: list(d, "actions")
                    .iter()
                    .map(|a| v1::ActionValue {
                        action: text(a, "action"),
                        value: float(a, "value"),
                        exact: int(a, "exact"),
                    })
                    .collect(),
            })
            .collect(),
        seats: list(v, "seats")
            .iter()
            .map(|s| v1::SeatAnalysis {
                seat: uint(s, "seat"),
                decisions: uint(s, "decisions"),
                mean_loss: float(s, "mean_loss"),
                total_loss: float(s, "total_loss"),
                large_errors: uint(s, "large_errors"),
                accuracy: float(s, "accuracy"),
            })
            .collect(),
    }
}
