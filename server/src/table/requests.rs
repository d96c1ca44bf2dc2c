//! The table's request handlers: join a seat, open or resume a stream (with its snapshot),
//! act, fetch an observation, and the record of the completed hands.

use super::DealSpec;
use super::Joiner;
use super::SeatState;
use super::Table;
use super::feed::Item;
use super::feed::UpdateStream;
use super::session;
use super::tokens::hex;
use super::tokens::{parse_token, same_token, token_hash};
use super::unix_ms;
use crate::error::Reason;
use crate::error::ServiceError;
use crate::store::Write;
use calabresella_engine::Seat;
use calabresella_proto::convert;
use calabresella_proto::v1;
use serde_json::json;
use std::time::SystemTime;
use tokio::time::Instant;

impl Table {
    pub(super) async fn join(
        &mut self,
        seat: Option<Seat>,
        name: String,
        guest: bool,
        entropy: Vec<u8>,
        client: Joiner,
    ) -> Result<(Seat, String, v1::Table), ServiceError> {
        crate::service::validate::entropy(&entropy)?;
        if matches!(self.spec.deals, DealSpec::Seeded(_)) {
            self.check_creator(&client)?;
        }
        match self.state {
            v1::TableState::Waiting => {}
            v1::TableState::Playing => {
                return Err(ServiceError::Precondition(
                    Reason::NoOpenSeat,
                    "the match is in play: every seat is taken".into(),
                ));
            }
            _ => {
                return Err(ServiceError::Precondition(
                    Reason::TableFinished,
                    "the table's match is over".into(),
                ));
            }
        }
        // A submitted bot's seat is the server's own driver's to take.
        let server = client == Joiner::Server;
        let open = |s: &SeatState| {
            (s.kind == v1::SeatKind::Open || (server && s.submitted.is_some())) && s.token.is_none()
        };
        let i = match seat {
            Some(s) => {
                let i = s.index();
                if i >= self.seats.len() {
                    return Err(ServiceError::Invalid(
                        Reason::BadSeat,
                        format!("no seat {i}"),
                    ));
                }
                if !open(&self.seats[i]) {
                    return Err(ServiceError::Precondition(
                        Reason::SeatTaken,
                        format!("seat {i} is not open"),
                    ));
                }
                i
            }
            None => self.seats.iter().position(open).ok_or_else(|| {
                ServiceError::Precondition(Reason::NoOpenSeat, "every seat is taken".into())
            })?,
        };
        let token = session::os_random::<16>()?;
        let hash = token_hash(&token);
        self.store
            .write(vec![Write::Seat {
                table: self.id.clone(),
                seat: i as u8,
                name: name.clone(),
                token_sha256: hex(&hash),
                guest,
                entropy: hex(&entropy),
            }])
            .await?;
        self.seats[i].token = Some(hash);
        self.seats[i].name = name;
        self.seats[i].guest = guest;
        self.seats[i].entropy = entropy;
        let info = self.seat_info(i);
        // Never log the token.
        tracing::info!(table = %self.id, seat = i, "seat taken");
        let epoch = self.epoch.as_str();
        for f in &mut self.feeds {
            f.push(Item::SeatChanged(Box::new(info.clone())), epoch);
        }
        self.public.push(Item::SeatChanged(Box::new(info)), epoch);
        let seat = Seat::new(i as u8)
            .ok_or_else(|| ServiceError::Invalid(Reason::BadSeat, "seat".into()))?;
        if self.seats.iter().all(SeatState::filled) {
            self.start();
        }
        Ok((seat, hex(&token), self.info()))
    }

    /// Whether `client` may take a seat of this seeded table: its creator knows every deal,
    /// so only its creator may. A call proves it with the table's creator key, or, on a
    /// server that trusts client addresses (not behind a proxy), by coming from the address
    /// that created the table. The server's own seatings are its own tables'.
    fn check_creator(&self, client: &Joiner) -> Result<(), ServiceError> {
        let refuse = |why: &str| {
            Err(ServiceError::Precondition(
                Reason::SeededTable,
                format!(
                    "the table is seeded: its creator knows every deal, so only its creator may \
                     take its seats ({why})"
                ),
            ))
        };
        match client {
            Joiner::Server => Ok(()),
            Joiner::Call {
                address,
                creator_key,
            } => {
                if !creator_key.trim().is_empty() {
                    let matches = parse_token(creator_key)
                        .map(|k| token_hash(&k))
                        .zip(self.spec.creator_key.as_ref())
                        .is_some_and(|(k, want)| same_token(&k, want));
                    return if matches {
                        Ok(())
                    } else {
                        refuse("the creator key is not this table's")
                    };
                }
                if self.config.trust_client_addresses && *address == self.creator {
                    Ok(())
                } else {
                    refuse("present the creator key CreateTable returned")
                }
            }
        }
    }

    /// A fresh token for seat `seat`, which player `name` must hold; the old one stops
    /// working.
    pub(super) async fn reissue(
        &mut self,
        seat: Seat,
        name: &str,
    ) -> Result<(String, v1::Table), ServiceError> {
        if self.end.is_some() {
            return Err(ServiceError::Precondition(
                Reason::TableFinished,
                "the table's match is over".into(),
            ));
        }
        let i = seat.index();
        match self.seats.get(i) {
            Some(s) if s.token.is_some() && s.name == name => {}
            _ => {
                return Err(ServiceError::Precondition(
                    Reason::SeatTaken,
                    format!("seat {i} is not {name:?}'s"),
                ));
            }
        }
        let token = session::os_random::<16>()?;
        let hash = token_hash(&token);
        self.store
            .write(vec![Write::Token {
                table: self.id.clone(),
                seat: i as u8,
                token_sha256: hex(&hash),
            }])
            .await?;
        self.seats[i].token = Some(hash);
        tracing::info!(table = %self.id, seat = i, "seat token reissued");
        Ok((hex(&token), self.info()))
    }

    pub(super) fn snapshot(
        &mut self,
        viewer: Option<Seat>,
        seq: u64,
        reason: v1::SnapshotReason,
    ) -> v1::Update {
        let turn = self.pending.as_ref().map(|p| {
            let mine = viewer == Some(p.seat);
            let monte = self.session.open_monte();
            v1::Turn {
                decision: p.decision,
                actor: self
                    .session
                    .actor()
                    .map_or(p.seat.index() as u32, |a| a.index() as u32),
                decider: p.seat.index() as u32,
                legal_actions: if mine {
                    self.session
                        .legal_actions()
                        .into_iter()
                        .map(|a| convert::action(a, monte.as_ref()))
                        .collect()
                } else {
                    Vec::new()
                },
                deadline_unix_ms: p.deadline.map_or(0, |d| {
                    unix_ms(SystemTime::now())
                        + d.saturating_duration_since(Instant::now()).as_millis() as i64
                }),
                remaining_ms: p.deadline.map_or(0, |d| {
                    d.saturating_duration_since(Instant::now()).as_millis() as u32
                }),
            }
        });
        let observation = if self.state == v1::TableState::Waiting {
            None
        } else {
            self.session.observation(viewer)
        };
        v1::Update {
            seq,
            stream_epoch: self.epoch.clone(),
            kind: Some(v1::update::Kind::Snapshot(Box::new(v1::Snapshot {
                observation,
                table: Some(self.info()),
                turn,
                reason: reason as i32,
            }))),
            next_turn: None,
        }
    }

    pub(super) fn observe(
        &mut self,
        token: Option<String>,
        resume: Option<(u64, String)>,
    ) -> Result<UpdateStream, ServiceError> {
        let viewer = match &token {
            Some(t) => Some(self.seat_of_token(t)?),
            None => None,
        };
        // Seats and spectators have budgets of their own: however many watch, a player can
        // always open the stream of the seat.
        let (open, limit, whose) = match viewer {
            Some(s) => (
                self.feeds[s.index()].streams(),
                self.config.max_streams_per_seat,
                "the seat",
            ),
            None => (
                self.public.streams(),
                self.config.max_streams_per_table,
                "the table's spectators",
            ),
        };
        if open >= limit {
            return Err(ServiceError::Exhausted(
                Reason::TooManyStreams,
                format!("{whose}: {open} open streams, the limit"),
            ));
        }
        let epoch = self.epoch().to_owned();
        let feed = match viewer {
            Some(s) => &self.feeds[s.index()],
            None => &self.public,
        };
        let last = feed.last_seq();
        let reason = super::epoch::snapshot_reason(resume.as_ref(), &epoch);
        let resumed = resume
            .filter(|(_, e)| *e == epoch)
            .and_then(|(after, _)| feed.since(after, &epoch));
        let opening = match resumed {
            Some(updates) => updates,
            None => vec![self.snapshot(viewer, last, reason)],
        };
        let snapshot = opening
            .first()
            .is_some_and(|u| matches!(u.kind, Some(v1::update::Kind::Snapshot(_))));
        let open = self.end.is_none();
        let mut opening = opening;
        if !open {
            // A finished table: the stream shows the end and closes.
            if let Some(end) = &self.end {
                let ended = Item::MatchEnded(Box::new(end.clone()));
                if !opening
                    .iter()
                    .any(|u| matches!(u.kind, Some(v1::update::Kind::MatchEnded(_))))
                {
                    // After a snapshot numbered `last`, the next update is `last + 1`.
                    let seq = if snapshot { last + 1 } else { last };
                    opening.push(ended.to_update(seq, &epoch, None));
                }
            }
        }
        let buffer = self.config.stream_buffer;
        let feed = match viewer {
            Some(s) => &mut self.feeds[s.index()],
            None => &mut self.public,
        };
        feed.subscribe(opening, buffer, open)
    }

    pub(super) async fn act(
        &mut self,
        token: &str,
        decision: u64,
        action: &v1::Action,
    ) -> Result<v1::ActResponse, ServiceError> {
        let seat = self.seat_of_token(token)?;
        let monte = self.session.open_monte();
        let action = convert::action_from_wire(action, monte.as_ref())?;
        let next = self.taken.len() as u64;
        if decision < next {
            let t = self.taken[decision as usize];
            return if t.seat == seat && t.action == action && !t.timeout {
                Ok(v1::ActResponse {
                    action: Some(convert::action(action, monte.as_ref())),
                    duplicate: true,
                    thinking_ms: t.ms,
                })
            } else if t.timeout {
                Err(ServiceError::Stale(decision, "its clock ran out".into()))
            } else {
                Err(ServiceError::Stale(
                    decision,
                    "it was already answered".into(),
                ))
            };
        }
        match self.state {
            v1::TableState::Waiting => {
                return Err(ServiceError::Precondition(
                    Reason::NotStarted,
                    "the match has not started: seats are still open".into(),
                ));
            }
            v1::TableState::Playing => {}
            _ => {
                return Err(ServiceError::Precondition(
                    Reason::MatchOver,
                    "the match is over".into(),
                ));
            }
        }
        if decision > next {
            return Err(ServiceError::Precondition(
                Reason::FutureDecision,
                format!("decision {decision} is not due; the next is {next}"),
            ));
        }
        match self.session.decider() {
            Some(d) if d == seat => {}
            Some(d) => {
                return Err(ServiceError::NotYourTurn(format!("seat {d} decides now")));
            }
            None => return Err(ServiceError::NotYourTurn("no decision is due".into())),
        }
        let ms = match self.take(seat, action, false).await {
            Ok(ms) => ms,
            Err(e) => {
                if matches!(e, ServiceError::Illegal(_)) {
                    self.seats[seat.index()].illegal += 1;
                }
                return Err(e);
            }
        };
        Ok(v1::ActResponse {
            action: Some(convert::action(action, monte.as_ref())),
            duplicate: false,
            thinking_ms: ms,
        })
    }

    pub(super) fn observation(
        &self,
        token: &str,
    ) -> Result<v1::GetObservationResponse, ServiceError> {
        let seat = self.seat_of_token(token)?;
        if self.state == v1::TableState::Waiting {
            return Err(ServiceError::Precondition(
                Reason::NotStarted,
                "the match has not started: seats are still open".into(),
            ));
        }
        Ok(v1::GetObservationResponse {
            observation: self.session.observation(Some(seat)),
            decision: self.taken.len() as u64,
            state: self.state as i32,
        })
    }

    /// What a record says of how its deals were made: the scheme, the commitment and the
    /// contributions while the match is played; the secret too once it is over, except at a
    /// tournament's table, whose secret is withheld until the tournament ends (every seating
    /// of a duplicate deal shares it, and one seating's end must not show the others' later
    /// hands): `GetRecord` fills it in then, from the tournament's revealed secret.
    fn deals_meta(&self, over: bool) -> serde_json::Value {
        let given = self.spec.first_dealer.is_some();
        let dealt = |k: Option<&calabresella_engine::fair::DealKeys>| k.map(|k| k.reveal(given));
        match &self.spec.deals {
            // A seed is a string: JavaScript numbers lose 64-bit ones.
            DealSpec::Seeded(seed) => json!({
                "scheme": calabresella_engine::fair::SEEDED,
                "seed": if over { json!(seed.to_string()) } else { serde_json::Value::Null },
            }),
            DealSpec::Committed { origin, .. } => {
                let keys = self.session.keys().cloned().or_else(|| self.deal_keys());
                let mut d = dealt(keys.as_ref()).unwrap_or_else(|| {
                    json!({"scheme": calabresella_engine::fair::SCHEME,
                           "commitment": self.spec.deals.commitment()})
                });
                if !over || origin.is_some() {
                    d["secret"] = serde_json::Value::Null;
                }
                if self.state == v1::TableState::Waiting {
                    // Contributions are shown once the match starts.
                    d["contributions"] = serde_json::Value::Null;
                }
                if let Some(o) = origin {
                    d["tournament"] = o.json();
                }
                d
            }
        }
    }

    pub(super) fn record(&self) -> v1::GetRecordResponse {
        let over = self.end.is_some();
        let players: Vec<serde_json::Value> = self
            .seats
            .iter()
            .map(|s| {
                let mut p = json!({"name": s.name, "kind": s.kind.as_str_name()});
                if s.guest {
                    p["guest"] = json!(true);
                }
                // Counted in the finished record only: a refused action changes nothing a
                // caller can see while the match is played.
                if over && s.illegal > 0 {
                    p["illegal"] = json!(s.illegal);
                }
                // A submitted bot: which version played, and why it was stopped if it was.
                if let Some(bot) = &s.submitted {
                    p["bot"] = json!(bot);
                }
                if let Some(f) = &s.fault {
                    p["fault"] = json!(f);
                }
                p
            })
            .collect();
        let mut meta = json!({
            "server": "calabresella",
            "table_id": self.id,
            "table_name": self.spec.name,
            "players": players,
            "created_unix_ms": self.created_unix_ms,
        });
        meta["deals"] = self.deals_meta(over);
        if !self.faults.is_empty() {
            meta["faults"] = self
                .faults
                .iter()
                .map(|f| json!({"seat": f.seat, "reason": f.reason, "decision": f.decision}))
                .collect();
        }
        if over {
            if let DealSpec::Seeded(seed) = self.spec.deals {
                meta["seed"] = json!(seed);
            }
            if let Some(f) = self
                .end
                .as_ref()
                .and_then(|e| e.result.as_ref())
                .and_then(|r| r.forfeited_by)
            {
                meta["forfeited_by"] = json!(f);
            }
        }
        let mut record = self.session.record(Some(meta));
        // Attach the seat, thinking time and timeouts to each action.
        let mut taken = self.taken.iter();
        for hand in &mut record.hands {
            for a in &mut hand.actions {
                let Some(t) = taken.next() else { break };
                let mut extra = serde_json::Map::new();
                extra.insert("ms".into(), json!(t.ms));
                if t.timeout {
                    extra.insert("timeout".into(), json!(true));
                }
                *a = calabresella_engine::record::RecordAction::Detailed {
                    seat: t.seat.index() as u8,
                    action: a.text().to_owned(),
                    extra,
                };
            }
        }
        v1::GetRecordResponse {
            hands: record.hands.len() as u32,
            record_json: record.to_json(),
            match_over: over,
        }
    }
}
