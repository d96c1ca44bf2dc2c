//! Submitted bots stopped for a fault: out of time (the table's own clock), out of memory,
//! crashed, or writing garbage or an illegal action (their driver tells the table). The table's
//! timeout policy then applies to the seat for the rest of the match: a built-in bot plays it
//! on, or it forfeits. Each fault is shown on the seat, kept in the result and the record.

use super::Table;
use super::feed::Item;
use crate::error::Reason;
use crate::error::ServiceError;
use crate::store::Write;
use calabresella_engine::Seat;
use calabresella_proto::v1;
use tokio::time::Instant;

impl Table {
    /// Stops the submitted bot at `seat` for `reason`; false when there is none to stop (no
    /// submitted bot there, stopped already, or the match is over).
    pub(super) async fn bot_fault(&mut self, seat: Seat, reason: &str) -> bool {
        let i = seat.index();
        if self.end.is_some()
            || self
                .seats
                .get(i)
                .is_none_or(|s| s.submitted.is_none() || s.fault.is_some())
        {
            return false;
        }
        let decision = self.taken.len() as u64;
        // Stored first, so that a restarted server keeps the seat stopped. A store that
        // fails does not keep the bot playing: the fault holds for this run regardless.
        if self.store.durable() {
            let write = Write::Fault {
                table: self.id.clone(),
                seat: i as u8,
                reason: reason.to_owned(),
                decision,
            };
            if let Err(e) = self.store.write(vec![write]).await {
                tracing::error!(table = %self.id, error = %e, "a bot's fault not stored");
            }
        }
        tracing::info!(table = %self.id, seat = i, reason, decision, "submitted bot stopped");
        let forfeit = self.mark_fault(seat, reason, decision);
        // Its driver's stream ends: the driver stops the bot's process.
        let stopped = ServiceError::Precondition(
            Reason::MatchOver,
            format!("the bot at seat {i} was stopped: {reason}"),
        );
        self.feeds[i].interrupt(&stopped.into());
        let info = self.seat_info(i);
        let epoch = self.epoch.as_str();
        for f in &mut self.feeds {
            f.push(Item::SeatChanged(Box::new(info.clone())), epoch);
        }
        self.public.push(Item::SeatChanged(Box::new(info)), epoch);
        if forfeit {
            self.finish(v1::EndReason::Forfeit, Some(seat));
            return true;
        }
        if let Some(p) = self.pending.as_mut()
            && p.seat == seat
        {
            p.deadline = None;
            p.bot_at = Some(Instant::now());
        }
        true
    }

    /// Marks the seat's bot stopped at `decision` (live, or as the store says on a restore):
    /// shown on the seat and kept for the result; a built-in bot plays the seat on from the
    /// decision due now, unless the policy is to forfeit (true then: the caller ends the
    /// match).
    pub(super) fn mark_fault(&mut self, seat: Seat, reason: &str, decision: u64) -> bool {
        let i = seat.index();
        self.seats[i].fault = Some(reason.to_owned());
        self.faults.push(v1::BotFault {
            seat: i as u32,
            reason: reason.to_owned(),
            decision,
        });
        let policy = v1::TimeoutPolicy::try_from(self.spec.clock.on_timeout);
        if policy == Ok(v1::TimeoutPolicy::Forfeit) {
            return true;
        }
        let seed = self.spec.bot_seed.rotate_left(29) ^ i as u64;
        self.seats[i].bot = Some(Box::new(calabresella_engine::bots::HeuristicBot::new(seed)));
        false
    }

    /// Whether a submitted bot still plays here (its driver must run).
    pub fn has_submitted_seats(&self) -> bool {
        !self.submitted_seats().is_empty()
    }

    /// The submitted bots' seats whose bots still play, with their names, and whether each
    /// is taken (a restored table's: its driver takes a fresh token).
    pub(super) fn submitted_seats(&self) -> Vec<(Seat, String, bool)> {
        if self.end.is_some() {
            return Vec::new();
        }
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.fault.is_none())
            .filter_map(|(i, s)| {
                let name = s.submitted.clone()?;
                Some((Seat::new(i as u8)?, name, s.token.is_some()))
            })
            .collect()
    }
}
