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
use crate::error::ServiceError;

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
    /// A decision is due.
    Turn {
        /// Decision number.
        decision: u64,
        /// The actor.
        actor: u32,
        /// Who answers.
        decider: u32,
        /// The legal actions, on the decider's feed only.
        legal: Option<Box<[Action]>>,
        /// The open monte, for `take` ids.
        monte: Option<[Card; 4]>,
        /// Deadline, ms since the epoch (0: none).
        deadline_unix_ms: i64,
        /// Time left when the turn began.
        remaining_ms: u32,
    },
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
    /// The wire update with sequence number `seq`.
    pub fn to_update(&self, seq: u64, epoch: &str) -> v1::Update {
        use v1::update::Kind;
        let kind = match self {
            Item::HandStarted { hand, dealer } => Kind::HandStarted(v1::HandStarted {
                hand_number: *hand,
                dealer: *dealer,
            }),
            Item::Event { hand, event } => Kind::Event(match event {
                RawEvent::Calabresella(e) => convert::calabresella_event(*hand, e),
                RawEvent::Tressette(e) => convert::tressette_event(*hand, e),
            }),
            Item::Turn {
                decision,
                actor,
                decider,
                legal,
                monte,
                deadline_unix_ms,
                remaining_ms,
            } => Kind::Turn(v1::Turn {
                decision: *decision,
                actor: *actor,
                decider: *decider,
                legal_actions: legal
                    .iter()
                    .flat_map(|l| l.iter())
                    .map(|&a| convert::action(a, monte.as_ref()))
                    .collect(),
                deadline_unix_ms: *deadline_unix_ms,
                remaining_ms: *remaining_ms,
            }),
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

/// One viewer's numbered updates.
pub struct Feed {
    last_seq: u64,
    ring: VecDeque<(u64, Item)>,
    cap: usize,
    subs: Vec<Subscriber>,
}

impl Feed {
    /// An empty feed that keeps the last `cap` updates for resumes.
    pub fn new(cap: usize) -> Feed {
        Feed {
            last_seq: 0,
            ring: VecDeque::new(),
            cap: cap.max(1),
            subs: Vec::new(),
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

    /// Appends an update and sends it to every live stream. A stream whose buffer is full is
    /// cut off (it will end with `SLOW_CONSUMER`); the table never waits.
    pub fn push(&mut self, item: Item, epoch: &str) {
        self.last_seq += 1;
        let seq = self.last_seq;
        if !self.subs.is_empty() {
            let update = Box::new(item.to_update(seq, epoch));
            self.subs
                .retain(|s| match s.tx.try_send(Ok(update.clone())) {
                    Ok(()) => true,
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        s.lagged.store(true, Ordering::Release);
                        false
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => false,
                });
        }
        if self.ring.len() == self.cap {
            self.ring.pop_front();
        }
        self.ring.push_back((seq, item));
    }

    /// The buffered updates after `after`, if the buffer still holds all of them.
    pub fn since(&self, after: u64, epoch: &str) -> Option<Vec<v1::Update>> {
        if after > self.last_seq {
            return None;
        }
        if after == self.last_seq {
            return Some(Vec::new());
        }
        let first = self.ring.front()?.0;
        (first <= after + 1).then(|| {
            self.ring
                .iter()
                .filter(|(s, _)| *s > after)
                .map(|(s, i)| i.to_update(*s, epoch))
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
                ServiceError::Exhausted("SLOW_CONSUMER", "stream buffer too small".into())
            })?;
        }
        let lagged = Arc::new(AtomicBool::new(false));
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

    /// Ends every stream (after the last update).
    pub fn close(&mut self) {
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
                        "SLOW_CONSUMER",
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
    fn resume_points_outside_the_buffer_need_a_snapshot() {
        let mut feed = Feed::new(4);
        for n in 0..10 {
            feed.push(item(n), "e");
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
        assert!(std::mem::size_of::<calabresella_proto::v1::Update>() <= 256);
        assert!(std::mem::size_of::<super::Item>() <= 64);
    }
}
