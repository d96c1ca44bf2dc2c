//! `AnalyseRecord`: a finished match's analysis (docs/ANALYSIS.md), computed on a worker of
//! its own and kept in the store.

use std::net::IpAddr;

use calabresella_engine::record::Record;
use calabresella_engine::search::Budget;
use calabresella_engine::search::analysis::{self, AnalysisOptions};
use calabresella_proto::v1;
use serde_json::Value;

use super::GameService;
use crate::error::{Reason, ServiceError};

impl GameService {
    /// The analysis of table `id`'s finished match for `client`: from the store if it was
    /// made before with the same budget and seed, else made now (one per client at a time,
    /// `analysis_workers` on the server) and kept.
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
        let options = AnalysisOptions {
            budget,
            seed,
            ..AnalysisOptions::default()
        };
        let key = analysis::budget_text(&options.budget);
        let store = self.registry.store();
        let (table, k) = (id.to_owned(), key.clone());
        if let Some(json) = store
            .read(move |c| crate::store::analyses::get(c, &table, &k, seed))
            .await?
            && let Ok(value) = serde_json::from_str::<Value>(&json)
        {
            return Ok(v1::AnalyseRecordResponse {
                analysis: Some(to_proto(&value)),
                cached: true,
            });
        }
        let max = config.max_analyses_per_client;
        let _slot = self.analyses.take(client, max).map_err(|_| {
            ServiceError::Exhausted(
                Reason::TooManyAnalyses,
                "this client already has an analysis running or waiting; ask again when it ends"
                    .into(),
            )
        })?;
        let _worker = self
            .analysis_workers
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ServiceError::Unavailable("the server is stopping".into()))?;
        let text = record.record_json;
        // Seconds of CPU: on a blocking thread, off the async workers.
        let found = tokio::task::spawn_blocking(move || {
            let record = Record::parse(&text).map_err(|e| e.to_string())?;
            analysis::analyse(&record, &options).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| ServiceError::Unavailable(format!("the analysis failed: {e}")))?
        .map_err(|e| {
            ServiceError::Unavailable(format!("the stored record does not replay: {e}"))
        })?;
        let value = found.to_json();
        let json = value.to_string();
        let table = id.to_owned();
        // Kept for the next caller; a store that refuses it costs only the next caller's time.
        if let Err(e) = store
            .read(move |c| crate::store::analyses::put(c, &table, &key, seed, &json))
            .await
        {
            tracing::warn!(table = id, error = %e, "an analysis could not be kept");
        }
        Ok(v1::AnalyseRecordResponse {
            analysis: Some(to_proto(&value)),
            cached: false,
        })
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
