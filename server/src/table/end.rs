//! The end of a table's match: its result (forfeits, draws, abandonment), the finished match
//! as the store keeps it (summary, record, one result row per player), and saving it.

use super::Table;
use super::feed::Item;
use super::unix_ms;
use crate::store::Finished;
use crate::store::MatchSummary;
use crate::store::ResultRow;
use crate::store::Write;
use calabresella_engine::Seat;
use calabresella_proto::convert;
use calabresella_proto::v1;
use std::time::Duration;
use std::time::SystemTime;
use tokio::time::Instant;

impl Table {
    pub(super) fn finish(&mut self, reason: v1::EndReason, forfeited_by: Option<Seat>) {
        if self.end.is_some() {
            return;
        }
        let result = if reason == v1::EndReason::Abandoned {
            None
        } else {
            let (winners, draw) = match forfeited_by {
                Some(s) => (self.session.opponents_of(s), false),
                None => self.session.result().unwrap_or_default(),
            };
            let totals = self.session.totals();
            Some(v1::MatchResult {
                winners,
                draw,
                totals: convert::unsigned_totals(&self.spec.rules, &totals),
                signed_totals: totals,
                forfeited_by: forfeited_by.map(|s| s.index() as u32),
                hands: self.session.hands_dealt() as u32,
                faults: self.faults.clone(),
            })
        };
        let ended = v1::MatchEnded {
            result,
            reason: reason as i32,
        };
        self.set_state(if reason == v1::EndReason::Abandoned {
            v1::TableState::Abandoned
        } else {
            v1::TableState::Finished
        });
        crate::metrics::match_ended(
            self.spec.rules.game_name(),
            reason.as_str_name().trim_start_matches("END_REASON_"),
        );
        tracing::info!(table = %self.id, reason = reason.as_str_name(), "match ended");
        self.end = Some(ended.clone());
        self.pending = None;
        self.push_all(Item::MatchEnded(Box::new(ended)), true);
        let epoch = self.epoch.as_str();
        for f in &mut self.feeds {
            f.close(epoch);
        }
        self.public.close(epoch);
        self.expires = Instant::now() + self.config.finished_ttl;
        self.end_retry = Some(Instant::now());
        if let Some(f) = self.on_end.take() {
            f();
        }
    }

    /// The finished match as kept: summary, record and one result row per player.
    pub(super) fn finished(&self) -> Option<Finished> {
        let end = self.end.as_ref()?;
        let reason = v1::EndReason::try_from(end.reason).unwrap_or_default();
        let reason = reason
            .as_str_name()
            .trim_start_matches("END_REASON_")
            .to_owned();
        let (winners, draw, totals) = end
            .result
            .as_ref()
            .map(|r| (r.winners.clone(), r.draw, r.signed_totals.clone()))
            .unwrap_or_default();
        let results = if end.result.is_some() {
            self.seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind != v1::SeatKind::Unspecified)
                .map(|(i, s)| {
                    let side = Seat::new(i as u8).map_or(i, |s| self.spec.rules.total_index(s));
                    ResultRow {
                        seat: i as u8,
                        player: s.name.clone(),
                        side: side as u8,
                        points: totals.get(side).copied().unwrap_or(0),
                        won: winners.contains(&(i as u32)),
                        draw,
                        bot: s.is_bot(),
                        guest: s.guest,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let unplayed = reason == "ABANDONED" && self.taken.is_empty();
        Some(Finished {
            summary: MatchSummary {
                table_id: self.id.clone(),
                name: self.spec.name.clone(),
                game: self.spec.rules.game_name().to_owned(),
                players: self.seats.iter().map(|s| s.name.clone()).collect(),
                reason,
                winners,
                draw,
                totals,
                // The first hand is dealt at creation: a table abandoned before any action
                // (nobody came) played none, and retention knows it by that.
                hands: if unplayed {
                    0
                } else {
                    self.session.hands_dealt() as u32
                },
                created_unix_ms: self.created_unix_ms,
                ended_unix_ms: unix_ms(SystemTime::now()),
            },
            record: self.record().record_json,
            results,
        })
    }

    /// Stores the finished match; on failure tries again later (the match itself is safe:
    /// its actions are stored, and a restart finishes it again).
    pub(super) async fn save_end(&mut self) {
        let Some(finished) = self.finished() else {
            return;
        };
        match self
            .store
            .write(vec![Write::Ended(Box::new(finished))])
            .await
        {
            Ok(()) => {
                self.end_retry = None;
            }
            Err(e) => {
                tracing::error!(table = %self.id, error = %e, "finished match not stored; will retry");
                self.end_retry = Some(Instant::now() + Duration::from_secs(5));
            }
        }
    }
}
