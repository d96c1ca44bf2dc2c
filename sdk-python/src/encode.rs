//! The observation and information-state tensors (encoding version 1), documented in
//! `sdk-python/README.md`. Seats are relative to the viewer (0 = the viewer, 1 = the next seat
//! in play order...), so one network serves every seat.
//!
//! The observation tensor is written from [`Features`], which the batched environment fills
//! straight from the engine's hand (no allocation) and `Observation.tensor()` fills from a
//! [`View`]; a test holds the two equal on every seat of random games.

use calabresella_engine::game::{Phase, Viewer};
use calabresella_engine::{CardSet, Seat};
use calabresella_proto::v1;

pub use calabresella_engine::game::Features;

use crate::game::Game;
use crate::view::View;

/// Version of the tensor layouts; bumped whenever a layout changes.
pub const ENCODING_VERSION: u32 = 1;

/// Length of the observation tensor (every game).
pub const OBS_SIZE: usize = 457;
/// Length of the information-state tensor (every game).
pub const INFO_SIZE: usize = OBS_SIZE + 160 + 40 + 28 + 40 + 40 + 40 + 160;
/// Length of the legal-action mask: every numeric action id.
pub const MASK_SIZE: usize = calabresella_engine::NUM_ACTION_IDS as usize;

/// Named offsets of the observation tensor, as `(name, offset, length)`.
pub const OBS_LAYOUT: [(&str, usize, usize); 18] = [
    ("hand", 0, 40),
    ("visible_hands", 40, 120),
    ("trick", 160, 160),
    ("played", 320, 40),
    ("called", 360, 40),
    ("phase", 400, 7),
    ("contract", 407, 6),
    ("highest_bid", 413, 6),
    ("soloist", 419, 5),
    ("highest_bidder", 424, 5),
    ("decider", 429, 5),
    ("actor", 434, 5),
    ("dealer", 439, 4),
    ("idle", 444, 5),
    ("hand_sizes", 449, 4),
    ("tricks_done", 453, 1),
    ("side_tricks", 454, 2),
    ("stock_left", 456, 1),
];

/// Named offsets of the information-state tensor's history part (after the observation).
pub const INFO_LAYOUT: [(&str, usize, usize); 7] = [
    ("played_by", OBS_SIZE, 160),
    ("played_in_trick", OBS_SIZE + 160, 40),
    ("bids", OBS_SIZE + 200, 28),
    ("own_discards", OBS_SIZE + 228, 40),
    ("monte_known", OBS_SIZE + 268, 40),
    ("drawn", OBS_SIZE + 308, 40),
    ("accusi", OBS_SIZE + 348, 160),
];

/// Features from the engine's hand (the batched environment's path) and from a [`View`]
/// (`Observation.tensor()`), and the observation tensor written from them.
pub trait Encode: Sized {
    /// The features of `viewer` in a game's current (or last) hand, read straight from the
    /// engine.
    fn of_game(g: &Game, viewer: Option<Seat>) -> Self;
    /// The features of a view.
    fn of_view(v: &View) -> Self;
    /// The seat of `s` relative to the viewer (0 = the viewer).
    fn rel(&self, s: Seat) -> usize;
    /// Writes the observation tensor into `out` (at least [`OBS_SIZE`] long).
    fn encode(&self, out: &mut [f32]);
}

impl Encode for Features {
    fn of_game(g: &Game, viewer: Option<Seat>) -> Features {
        g.inner.features(Viewer::of(viewer))
    }

    fn of_view(v: &View) -> Features {
        let mut f = Features {
            players: v.players(),
            viewer: v.viewer,
            own: v.hand,
            phase: Phase::ALL
                .get(usize::from(v.phase))
                .copied()
                .unwrap_or(Phase::Over),
            contract: v.contract,
            highest: v.highest_bid,
            soloist: v.soloist,
            called: v.called,
            actor: v.actor,
            decider: v.decider,
            dealer: v.dealer,
            idle: v.idle,
            tricks_done: v.tricks_done,
            stock_left: v.stock_left,
            side_tricks: v.side_tricks,
            ..Features::default()
        };
        if !v.has_side_tricks {
            // The wire carries per-side trick counts only in games with a soloist; elsewhere
            // count the tricks of the viewer's side (or team) and of the others from the history.
            let side = |s: Seat| v.rules.total_index(s);
            let mine = side(v.viewer.unwrap_or(Seat::ALL[0]));
            let mut t = [0u32; 2];
            for e in &v.history {
                if e.kind == v1::EventKind::TrickWon
                    && let Some(w) = e.seat
                {
                    t[usize::from(side(w) != mine)] += 1;
                }
            }
            f.side_tricks = t;
        }
        for &(s, c) in &v.visible_hands {
            f.visible[s.index()] = c;
        }
        for &(s, c) in &v.trick {
            f.trick[s.index()] = Some(c);
        }
        for (i, &x) in v.hand_sizes.iter().take(4).enumerate() {
            f.hand_sizes[i] = x;
        }
        f.played = v.played();
        f
    }

    fn rel(&self, s: Seat) -> usize {
        let n = usize::from(self.players.max(1));
        let me = self.viewer.map_or(0, Seat::index);
        (s.index() + n - me) % n
    }

    fn encode(&self, out: &mut [f32]) {
        let out = &mut out[..OBS_SIZE];
        out.fill(0.0);
        set_cards(&mut out[0..40], self.own);
        for s in Seat::first_n(self.players) {
            let r = self.rel(s);
            if r > 0 {
                set_cards(
                    &mut out[40 + 40 * (r - 1)..80 + 40 * (r - 1)],
                    self.visible[s.index()],
                );
            }
            if let Some(c) = self.trick[s.index()] {
                out[160 + 40 * r + usize::from(c.index())] = 1.0;
            }
            out[449 + r] = f32::from(self.hand_sizes[s.index()]) / 16.0;
        }
        set_cards(&mut out[320..360], self.played);
        if let Some(c) = self.called {
            out[360 + usize::from(c.index())] = 1.0;
        }
        out[400 + self.phase.index()] = 1.0;
        out[407 + self.contract.map_or(0, |c| 1 + c.ordinal())] = 1.0;
        out[413 + self.highest.map_or(0, |(_, c)| 1 + c.ordinal())] = 1.0;
        out[419 + self.soloist.map_or(0, |s| 1 + self.rel(s))] = 1.0;
        out[424 + self.highest.map_or(0, |(s, _)| 1 + self.rel(s))] = 1.0;
        out[429 + self.decider.map_or(0, |s| 1 + self.rel(s))] = 1.0;
        out[434 + self.actor.map_or(0, |s| 1 + self.rel(s))] = 1.0;
        out[439 + self.rel(self.dealer)] = 1.0;
        out[444 + self.idle.map_or(0, |s| 1 + self.rel(s))] = 1.0;
        out[453] = f32::from(self.tricks_done) / 20.0;
        out[454] = self.side_tricks[0] as f32 / 20.0;
        out[455] = self.side_tricks[1] as f32 / 20.0;
        out[456] = f32::from(self.stock_left) / 20.0;
    }
}

fn set_cards(out: &mut [f32], cards: CardSet) {
    for c in cards {
        out[usize::from(c.index())] = 1.0;
    }
}

/// Writes the information-state tensor of `v` into `out` (at least [`INFO_SIZE`] long): the
/// observation tensor followed by the public history and what the viewer alone knows.
pub fn encode_info(v: &View, out: &mut [f32]) {
    let f = Features::of_view(v);
    f.encode(out);
    let out = &mut out[OBS_SIZE..INFO_SIZE];
    out.fill(0.0);
    let mine = v.viewer;
    let mut trick_no = 1u32;
    for e in &v.history {
        let rel = |s: Seat| f.rel(s);
        match e.kind {
            v1::EventKind::Played => {
                if let (Some(s), Some(c)) = (e.seat, e.card) {
                    out[40 * rel(s) + usize::from(c.index())] = 1.0;
                    out[160 + usize::from(c.index())] = trick_no as f32 / 20.0;
                }
            }
            v1::EventKind::TrickWon => trick_no = e.number + 1,
            v1::EventKind::Bid => {
                if let Some(s) = e.seat {
                    let slot = 200 + 7 * rel(s);
                    out[slot..slot + 7].fill(0.0);
                    out[slot + e.contract.map_or(1, |c| 2 + c.ordinal())] = 1.0;
                }
            }
            v1::EventKind::Discarded if e.seat == mine => {
                if let Some(c) = e.card {
                    out[228 + usize::from(c.index())] = 1.0;
                }
            }
            v1::EventKind::MonteTaken
            | v1::EventKind::MonteReceived
            | v1::EventKind::MonteShown
            | v1::EventKind::MonteRevealed => set_cards(&mut out[268..308], e.cards),
            v1::EventKind::Drew => {
                if let Some(c) = e.card {
                    out[308 + usize::from(c.index())] = 1.0;
                }
            }
            v1::EventKind::Declared => {
                if let Some(s) = e.seat {
                    let at = 348 + 40 * rel(s);
                    set_cards(&mut out[at..at + 40], e.cards);
                }
            }
            _ => {}
        }
    }
}
