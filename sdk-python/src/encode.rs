//! The observation and information-state tensors (encoding version 1), documented in
//! `sdk-python/README.md`. Seats are relative to the viewer (0 = the viewer, 1 = the next seat
//! in play order...), so one network serves every seat.
//!
//! The observation tensor is written from [`Features`], which the batched environment fills
//! straight from the engine's hand (no allocation) and `Observation.tensor()` fills from a
//! [`View`]; a test holds the two equal on every seat of random games. The information-state
//! tensor's history part is written from [`Fact`]s: the engine's events for in-process
//! observations, the parsed events of a `View` otherwise (`crate::history`).

use calabresella_engine::game::{AnyObservation, Phase, Viewer};
use calabresella_engine::{CardSet, Seat};
use calabresella_proto::v1;

pub use calabresella_engine::game::Features;

use crate::game::Game;
use crate::history::{self, Fact};
use crate::view::View;

/// Version of the tensor layouts; bumped whenever a layout changes (2: five seats and the
/// calling games' public facts).
pub const ENCODING_VERSION: u32 = 2;

/// Relative seats a tensor has room for: the viewer and up to four others.
const SEATS: usize = Seat::MAX;

/// Length of the observation tensor (every game).
pub const OBS_SIZE: usize = 563;
/// Length of the information-state tensor (every game).
pub const INFO_SIZE: usize = OBS_SIZE + 40 * SEATS + 40 + 8 * SEATS + 40 + 40 + 40 + 40 * SEATS;
/// Length of the legal-action mask: every numeric action id.
pub const MASK_SIZE: usize = calabresella_engine::NUM_ACTION_IDS as usize;

/// Named offsets of the observation tensor, as `(name, offset, length)`.
pub const OBS_LAYOUT: [(&str, usize, usize); 25] = [
    ("hand", 0, 40),
    ("visible_hands", 40, 160),
    ("trick", 200, 200),
    ("played", 400, 40),
    ("called", 440, 40),
    ("phase", 480, 7),
    ("contract", 487, 6),
    ("highest_bid", 493, 6),
    ("soloist", 499, 6),
    ("highest_bidder", 505, 6),
    ("decider", 511, 6),
    ("actor", 517, 6),
    ("dealer", 523, 5),
    ("idle", 528, 6),
    ("hand_sizes", 534, 5),
    ("tricks_done", 539, 1),
    ("side_tricks", 540, 2),
    ("stock_left", 542, 1),
    ("trump", 543, 5),
    ("partner", 548, 6),
    ("alone", 554, 1),
    ("target", 555, 1),
    ("seat_points", 556, 5),
    ("highest_promise", 561, 1),
    ("promise", 562, 1),
];

/// Named offsets of the information-state tensor's history part (after the observation).
pub const INFO_LAYOUT: [(&str, usize, usize); 7] = [
    ("played_by", OBS_SIZE, 200),
    ("played_in_trick", OBS_SIZE + 200, 40),
    ("bids", OBS_SIZE + 240, 40),
    ("own_discards", OBS_SIZE + 280, 40),
    ("monte_known", OBS_SIZE + 320, 40),
    ("drawn", OBS_SIZE + 360, 40),
    ("accusi", OBS_SIZE + 400, 200),
];

/// A Briscola Chiamata bid as one number in (0, 1]: its step on the rank ladder (`bid A` the
/// lowest, `bid 2 120` the highest), or its points in the points auction.
fn promise_level(p: calabresella_engine::Promise) -> f32 {
    match p {
        calabresella_engine::Promise::Points(n) => f32::from(n) / 120.0,
        other => f32::from(other.step() + 1) / 69.0,
    }
}

/// All the points a hand holds, in the unit the calling games count seat points in: 35 thirds
/// (Tressette con la Chiamata) or 120 card points (Briscola Chiamata).
fn hand_points(f: &Features) -> f32 {
    if f.trump.is_some() || f.promise.is_some() || f.highest_promise.is_some() {
        120.0
    } else {
        35.0
    }
}

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
            trump: v.trump,
            partner: v.partner,
            alone: v.alone,
            target: v.target,
            highest_promise: v.highest_promise,
            promise: v.promise,
            ..Features::default()
        };
        for (i, &p) in v.seat_points.iter().take(SEATS).enumerate() {
            f.seat_points[i] = p;
        }
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
        for (i, &x) in v.hand_sizes.iter().take(SEATS).enumerate() {
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
        // The card blocks (480 of the 563 entries) are written whole, zeros included, from
        // their bit masks: cheaper than clearing them and setting their cards one by one.
        let (cards, rest) = out.split_at_mut(CARD_BLOCKS);
        let mut visible = [CardSet::EMPTY; SEATS - 1];
        let mut trick = [CardSet::EMPTY; SEATS];
        for s in Seat::first_n(self.players) {
            let r = self.rel(s);
            if r > 0 {
                visible[r - 1] = self.visible[s.index()];
            }
            if let Some(c) = self.trick[s.index()] {
                trick[r] = CardSet::single(c);
            }
        }
        let mut blocks = cards.chunks_exact_mut(40);
        let called = self.called.map_or(CardSet::EMPTY, CardSet::single);
        let all = [self.own]
            .into_iter()
            .chain(visible)
            .chain(trick)
            .chain([self.played, called]);
        for (block, set) in (&mut blocks).zip(all) {
            write_block(block, set);
        }
        rest.fill(0.0);
        visit_scalars(self, |i, x| rest[i - CARD_BLOCKS] = x);
    }
}

/// Entries of the observation tensor's card blocks: the hand, four visible hands, five trick
/// slots, the cards played and the called card, 40 each.
const CARD_BLOCKS: usize = 480;

/// The eight tensor entries of each byte of a card mask.
static BYTE_ENTRIES: [[f32; 8]; 256] = {
    let mut t = [[0.0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b][i] = 1.0;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Writes the 40-entry block of `cards`: 1 for each card held, 0 elsewhere, eight entries at a
/// time from a table.
#[inline]
fn write_block(out: &mut [f32], cards: CardSet) {
    let bits = cards.bits();
    for (k, chunk) in out[..40].chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&BYTE_ENTRIES[((bits >> (8 * k)) & 0xff) as usize]);
    }
}

/// Calls `set(index, value)` for every entry after the card blocks of `f`'s observation tensor
/// that may be nonzero (every other entry is zero): the layout's scalar part, in one place.
#[inline]
fn visit_scalars(f: &Features, mut set: impl FnMut(usize, f32)) {
    let points = hand_points(f);
    for s in Seat::first_n(f.players) {
        let r = f.rel(s);
        set(534 + r, f32::from(f.hand_sizes[s.index()]) / 16.0);
        set(556 + r, f.seat_points[s.index()] as f32 / points);
    }
    set(480 + f.phase.index(), 1.0);
    set(487 + f.contract.map_or(0, |c| 1 + c.ordinal()), 1.0);
    set(493 + f.highest.map_or(0, |(_, c)| 1 + c.ordinal()), 1.0);
    set(499 + f.soloist.map_or(0, |s| 1 + f.rel(s)), 1.0);
    let bidder = f
        .highest
        .map(|(s, _)| s)
        .or(f.highest_promise.map(|(s, _)| s));
    set(505 + bidder.map_or(0, |s| 1 + f.rel(s)), 1.0);
    set(511 + f.decider.map_or(0, |s| 1 + f.rel(s)), 1.0);
    set(517 + f.actor.map_or(0, |s| 1 + f.rel(s)), 1.0);
    set(523 + f.rel(f.dealer), 1.0);
    set(528 + f.idle.map_or(0, |s| 1 + f.rel(s)), 1.0);
    set(539, f32::from(f.tricks_done) / 20.0);
    set(540, f.side_tricks[0] as f32 / 20.0);
    set(541, f.side_tricks[1] as f32 / 20.0);
    set(542, f32::from(f.stock_left) / 20.0);
    set(543 + f.trump.map_or(0, |t| 1 + t.index()), 1.0);
    set(548 + f.partner.map_or(0, |s| 1 + f.rel(s)), 1.0);
    set(554, f32::from(u8::from(f.alone)));
    set(
        555,
        f.target as f32 / if points > 100.0 { 120.0 } else { 11.0 },
    );
    set(
        561,
        f.highest_promise.map_or(0.0, |(_, p)| promise_level(p)),
    );
    set(562, f.promise.map_or(0.0, promise_level));
}

fn fill_cards(out: &mut [f32], cards: CardSet) {
    for c in cards {
        out[usize::from(c.index())] = 1.0;
    }
}

/// Writes the information-state tensor of `v` into `out` (at least [`INFO_SIZE`] long): the
/// observation tensor followed by the public history and what the viewer alone knows.
pub fn encode_info(v: &View, out: &mut [f32]) {
    let f = Features::of_view(v);
    let mut h = History::start(&f, out);
    for fact in v.history.iter().filter_map(history::fact_of_pub) {
        h.push(fact);
    }
}

/// Writes the information-state tensor of the engine's observation `o` into `out` (at least
/// [`INFO_SIZE`] long), straight from the engine's events; `f` must be the features of the same
/// viewer in the same state (the observation part and the relative seats come from it).
pub fn encode_info_engine(f: &Features, o: &AnyObservation, out: &mut [f32]) {
    let mut h = History::start(f, out);
    history::facts(o, |fact| h.push(fact));
}

/// The information-state tensor being written: the observation part done, the history part
/// filled one [`Fact`] at a time.
struct History<'a> {
    /// The features (for relative seats and the viewer).
    f: &'a Features,
    /// The history part of the tensor.
    out: &'a mut [f32],
    /// The trick being played, 1-based.
    trick_no: u32,
}

impl<'a> History<'a> {
    /// Writes the observation part of `f` and clears the history part.
    fn start(f: &'a Features, out: &'a mut [f32]) -> History<'a> {
        f.encode(out);
        let out = &mut out[OBS_SIZE..INFO_SIZE];
        out.fill(0.0);
        History {
            f,
            out,
            trick_no: 1,
        }
    }

    /// Adds one event of the hand's history.
    fn push(&mut self, fact: Fact) {
        let out = &mut *self.out;
        let rel = |s: Seat| self.f.rel(s);
        match fact {
            Fact::Played(s, c) => {
                out[40 * rel(s) + usize::from(c.index())] = 1.0;
                out[200 + usize::from(c.index())] = self.trick_no as f32 / 20.0;
            }
            Fact::TrickWon(n) => self.trick_no = n + 1,
            Fact::Bid(s, contract, promise) => {
                // Per seat: spoke, then pass or a contract one-hot, then a Briscola bid's level.
                let slot = 240 + 8 * rel(s);
                out[slot..slot + 8].fill(0.0);
                out[slot] = 1.0;
                match promise {
                    Some(p) => out[slot + 7] = promise_level(p),
                    None => out[slot + 1 + contract.map_or(0, |c| 1 + c.ordinal())] = 1.0,
                }
            }
            Fact::Discarded(s, c) if Some(s) == self.f.viewer => {
                out[280 + usize::from(c.index())] = 1.0;
            }
            Fact::Discarded(..) => {}
            Fact::MonteSeen(cards) => fill_cards(&mut out[320..360], cards),
            Fact::Drew(c) => out[360 + usize::from(c.index())] = 1.0,
            Fact::Declared(s, cards) => {
                let at = 400 + 40 * rel(s);
                fill_cards(&mut out[at..at + 40], cards);
            }
        }
    }
}
