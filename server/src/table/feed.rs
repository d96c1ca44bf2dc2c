//! [`Feed`]: the ordered updates of one viewer (a seat, or the public), numbered, buffered for
//! resumes, and fanned out to that viewer's live streams without ever waiting on them.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use calabresella_engine::{Action, Card};
use calabresella_proto::{convert, v1};
use tokio::sync::mpsc;
use tokio_stream::Stream;
use tonic::Status;

use super::session::RawEvent;
use crate::error::{Reason, ServiceError};

/// A decision that is due, as buffered.
#[derive(Debug, Clone)]
pub struct TurnItem {
    /// Decision number.
    pub decision: u64,
    /// The actor.
    pub actor: u32,
    /// Who answers.
    pub decider: u32,
    /// The legal actions, on the decider's feed only.
    pub legal: Option<Box<[Action]>>,
    /// The open monte, for `take` ids.
    pub monte: Option<[Card; 4]>,
    /// Deadline, ms since the epoch (0: none).
    pub deadline_unix_ms: i64,
    /// Time left when the turn began.
    pub remaining_ms: u32,
}

impl TurnItem {
    /// The wire turn.
    pub fn to_wire(&self) -> v1::Turn {
        v1::Turn {
            decision: self.decision,
            actor: self.actor,
            decider: self.decider,
            legal_actions: self
                .legal
                .iter()
                .flat_map(|l| l.iter())
                .map(|&a| convert::action(a, self.monte.as_ref()))
                .collect(),
            deadline_unix_ms: self.deadline_unix_ms,
            remaining_ms: self.remaining_ms,
        }
    }
}

/// One buffered update, kept in engine terms (smaller than wire messages) and converted when
/// sent. Events are already filtered for the feed's viewer.
#[derive(Debug, Clone)]
pub enum Item {
    /// A hand was dealt.
    HandStarted {
        /// 0-based hand number.
        hand: u32,
        /// Its dealer.
        dealer: u32,
    },
    /// A hand event, as the viewer may see it.
    Event {
        /// 0-based hand number.
        hand: u32,
        /// The filtered event.
        event: RawEvent,
    },
    /// A decision is due (when no other update of the step can carry it).
    Turn(Box<TurnItem>),
    /// A clock ran out.
    TimedOut(v1::TimedOut),
    /// A finished hand's deal (public feed only).
    HandRevealed(Box<v1::HandRevealed>),
    /// A seat changed.
    SeatChanged(Box<v1::SeatInfo>),
    /// The match is over.
    MatchEnded(Box<v1::MatchEnded>),
}

impl Item {
    /// The wire update with sequence number `seq`, carrying `turn` if given.
    pub fn to_update(&self, seq: u64, epoch: &str, turn: Option<&TurnItem>) -> v1::Update {
        use v1::update::Kind;
        let kind = match self {
            Item::HandStarted { hand, dealer } => Kind::HandStarted(v1::HandStarted {
                hand_number: *hand,
                dealer: *dealer,
            }),
            Item::Event { hand, event } => Kind::Event(convert::event(*hand, event)),
            Item::Turn(t) => Kind::Turn(t.to_wire()),
            Item::TimedOut(t) => Kind::TimedOut(*t),
            Item::HandRevealed(r) => Kind::HandRevealed(r.clone()),
            Item::SeatChanged(s) => Kind::SeatChanged(Box::new(v1::SeatChanged {
                seat: Some(s.as_ref().clone()),
            })),
            Item::MatchEnded(m) => Kind::MatchEnded(m.clone()),
        };
        v1::Update {
            seq,
            stream_epoch: epoch.to_owned(),
            kind: Some(kind),
            next_turn: turn.map(|t| Box::new(t.to_wire())),
        }
    }
}

/// What a stream receives.
/// Boxed: a channel's slots are allocated 32 at a time, so a small slot keeps idle streams cheap.
pub type StreamItem = Result<Box<v1::Update>, Status>;

struct Subscriber {
    tx: mpsc::Sender<StreamItem>,
    lagged: Arc<AtomicBool>,
}

/// A buffered update and the turn it carries.
struct Entry {
    seq: u64,
    item: Item,
    turn: Option<Box<TurnItem>>,
}

/// One viewer's numbered updates. The table stages a step's updates with [`Feed::push`] and
/// ends the step with [`Feed::flush`], which attaches the decision now due to the last one.
pub struct Feed {
    last_seq: u64,
    ring: VecDeque<Entry>,
    cap: usize,
    subs: Vec<Subscriber>,
    staged: Option<Item>,
    /// Whether updates are kept for resumes; a lazy feed starts keeping them at its first
    /// stream (before that nobody can resume, so a first stream gets a snapshot anyway).
    buffering: bool,
}

impl Feed {
    /// An empty feed that keeps the last `cap` updates for resumes.
    pub fn new(cap: usize) -> Feed {
        Feed {
            last_seq: 0,
            ring: VecDeque::new(),
            cap: cap.max(1),
            subs: Vec::new(),
            staged: None,
            buffering: true,
        }
    }

    /// A feed that keeps nothing for resumes until its first stream opens (the public feed:
    /// most tables are never watched).
    pub fn lazy(cap: usize) -> Feed {
        Feed {
            buffering: false,
            ..Feed::new(cap)
        }
    }

    /// The number of the last update.
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// Live streams now.
    pub fn streams(&mut self) -> usize {
        self.subs.retain(|s| !s.tx.is_closed());
        self.subs.len()
    }

    /// Stages an update of the current step (the previous staged one is sent).
    pub fn push(&mut self, item: Item, epoch: &str) {
        if let Some(prev) = self.staged.replace(item) {
            self.emit(prev, None, epoch);
        }
    }

    /// Ends a step: sends the staged update with `turn` attached, or `turn` alone.
    pub fn flush(&mut self, turn: Option<Box<TurnItem>>, epoch: &str) {
        match (self.staged.take(), turn) {
            (Some(item), turn) => self.emit(item, turn, epoch),
            (None, Some(turn)) => self.emit(Item::Turn(turn), None, epoch),
            (None, None) => {}
        }
    }

    /// Numbers an update, sends it to every live stream and buffers it. A stream whose buffer
    /// is full is cut off (it will end with `SLOW_CONSUMER`); the table never waits.
    fn emit(&mut self, item: Item, turn: Option<Box<TurnItem>>, epoch: &str) {
        self.last_seq += 1;
        let seq = self.last_seq;
        if !self.subs.is_empty() {
            let update = Box::new(item.to_update(seq, epoch, turn.as_deref()));
            let last = self.subs.len() - 1;
            let mut i = 0;
            let mut update = Some(update);
            self.subs.retain(|s| {
                // The last stream takes the update itself; the others get copies.
                let u = if i == last {
                    update.take()
                } else {
                    update.clone()
                };
                i += 1;
                let Some(u) = u else { return false };
                match s.tx.try_send(Ok(u)) {
                    Ok(()) => true,
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        s.lagged.store(true, Ordering::Release);
                        crate::metrics::slow_consumer();
                        false
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => false,
                }
            });
        }
        if !self.buffering {
            return;
        }
        if self.ring.len() == self.cap {
            self.ring.pop_front();
        }
        self.ring.push_back(Entry { seq, item, turn });
    }

    /// The buffered updates after `after`, if the buffer still holds all of them.
    pub fn since(&self, after: u64, epoch: &str) -> Option<Vec<v1::Update>> {
        if after > self.last_seq {
            return None;
        }
        if after == self.last_seq {
            return Some(Vec::new());
        }
        let first = self.ring.front()?.seq;
        (first <= after + 1).then(|| {
            self.ring
                .iter()
                .filter(|e| e.seq > after)
                .map(|e| e.item.to_update(e.seq, epoch, e.turn.as_deref()))
                .collect()
        })
    }

    /// Opens a stream that first receives `opening` and then every later update. Fails when
    /// the opening does not fit the stream buffer.
    pub fn subscribe(
        &mut self,
        opening: Vec<v1::Update>,
        buffer: usize,
        open: bool,
    ) -> Result<UpdateStream, ServiceError> {
        let (tx, rx) = mpsc::channel(buffer.max(opening.len()).max(1));
        for u in opening {
            tx.try_send(Ok(Box::new(u))).map_err(|_| {
                ServiceError::Exhausted(Reason::SlowConsumer, "stream buffer too small".into())
            })?;
        }
        let lagged = Arc::new(AtomicBool::new(false));
        self.buffering = true;
        if open {
            self.subs.push(Subscriber {
                tx,
                lagged: lagged.clone(),
            });
        }
        Ok(UpdateStream {
            rx,
            lagged,
            done: false,
        })
    }

    /// Ends every stream with `status` (the server is stopping and viewers should reconnect).
    pub fn interrupt(&mut self, status: &Status) {
        for s in self.subs.drain(..) {
            let _ = s.tx.try_send(Err(status.clone()));
        }
    }

    /// Sends what is staged, then ends every stream.
    pub fn close(&mut self, epoch: &str) {
        self.flush(None, epoch);
        self.subs.clear();
    }
}

/// A viewer's stream: the updates, then, if it was cut off for being slow, one
/// `RESOURCE_EXHAUSTED` status.
pub struct UpdateStream {
    rx: mpsc::Receiver<StreamItem>,
    lagged: Arc<AtomicBool>,
    done: bool,
}

impl UpdateStream {
    /// A stream of `updates` that then ends, fed by no table: what a finished table that has
    /// left memory shows.
    pub fn ended(updates: Vec<v1::Update>) -> UpdateStream {
        let (tx, rx) = mpsc::channel(updates.len().max(1));
        for u in updates {
            // The channel holds them all: it was made as large.
            let _ = tx.try_send(Ok(Box::new(u)));
        }
        UpdateStream {
            rx,
            lagged: Arc::new(AtomicBool::new(false)),
            done: false,
        }
    }
}

impl Stream for UpdateStream {
    type Item = StreamItem;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<StreamItem>> {
        if self.done {
            return Poll::Ready(None);
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(None) => {
                self.done = true;
                if self.lagged.load(Ordering::Acquire) {
                    let e = ServiceError::Exhausted(
                        Reason::SlowConsumer,
                        "the stream fell behind its buffer; reconnect with resume_after".into(),
                    );
                    Poll::Ready(Some(Err(e.into())))
                } else {
                    Poll::Ready(None)
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_stream::StreamExt;

    fn item(n: u32) -> Item {
        Item::HandStarted { hand: n, dealer: 0 }
    }

    #[tokio::test]
    async fn a_slow_stream_is_cut_off_with_resource_exhausted_and_the_feed_goes_on() {
        let mut feed = Feed::new(8);
        let mut stream = feed.subscribe(Vec::new(), 3, true).expect("subscribe");
        for n in 0..5 {
            feed.push(item(n), "e");
            feed.flush(None, "e");
        }
        assert_eq!(feed.last_seq(), 5);
        let mut got = Vec::new();
        while let Some(x) = stream.next().await {
            got.push(x);
        }
        assert_eq!(got.len(), 4, "three buffered updates, then the error");
        assert!(got[..3].iter().all(Result::is_ok));
        let err = got[3].as_ref().expect_err("cut off");
        assert_eq!(err.code(), tonic::Code::ResourceExhausted);
        // The seat can resume from its buffer after the last update it read.
        let rest = feed.since(3, "e").expect("buffered");
        assert_eq!(rest.iter().map(|u| u.seq).collect::<Vec<_>>(), vec![4, 5]);
    }

    #[test]
    fn a_turn_rides_on_the_last_update_of_a_step_or_goes_alone() {
        let turn = || {
            Box::new(TurnItem {
                decision: 7,
                actor: 1,
                decider: 1,
                legal: None,
                monte: None,
                deadline_unix_ms: 0,
                remaining_ms: 0,
            })
        };
        let mut feed = Feed::new(8);
        feed.push(item(0), "e");
        feed.push(item(1), "e");
        feed.flush(Some(turn()), "e");
        feed.flush(Some(turn()), "e");
        let got = feed.since(0, "e").expect("buffered");
        assert_eq!(got.len(), 3);
        assert!(got[0].next_turn.is_none());
        assert_eq!(got[1].next_turn.as_ref().map(|t| t.decision), Some(7));
        assert!(matches!(got[2].kind, Some(v1::update::Kind::Turn(_))));
    }

    #[test]
    fn a_lazy_feed_numbers_everything_but_keeps_updates_only_once_watched() {
        let mut feed = Feed::lazy(8);
        feed.push(item(0), "e");
        feed.flush(None, "e");
        assert_eq!(feed.last_seq(), 1);
        assert!(
            feed.since(0, "e").is_none(),
            "nothing kept: a snapshot is needed"
        );
        let _stream = feed.subscribe(Vec::new(), 8, true).expect("subscribe");
        feed.push(item(1), "e");
        feed.flush(None, "e");
        assert_eq!(feed.since(1, "e").map(|v| v.len()), Some(1));
    }

    #[test]
    fn resume_points_outside_the_buffer_need_a_snapshot() {
        let mut feed = Feed::new(4);
        for n in 0..10 {
            feed.push(item(n), "e");
            feed.flush(None, "e");
        }
        assert!(
            feed.since(5, "e").is_none(),
            "6 was dropped from the buffer"
        );
        assert_eq!(feed.since(6, "e").map(|v| v.len()), Some(4));
        assert_eq!(feed.since(10, "e").map(|v| v.len()), Some(0));
        assert!(feed.since(11, "e").is_none(), "a number never sent");
    }
}
#[cfg(test)]
mod sizes {
    /// Streams queue many updates: an update must stay small (large kinds are boxed).
    #[test]
    fn queued_values_stay_small() {
        assert!(std::mem::size_of::<super::StreamItem>() <= 16);
        let update = std::mem::size_of::<calabresella_proto::v1::Update>();
        assert!(update <= 256, "an Update takes {update} bytes");
        assert!(std::mem::size_of::<super::Item>() <= 64);
        assert!(std::mem::size_of::<super::Entry>() <= 96);
    }
}
