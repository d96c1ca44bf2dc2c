//! The observation and information-state tensors (encoding version 1), documented in
//! `sdk-python/README.md`. Seats are relative to the viewer (0 = the viewer, 1 = the next seat
//! in play order...), so one network serves every seat.
//!
//! The observation tensor is written from [`Features`], which the batched environment fills
//! straight from the engine's hand (no allocation) and `Observation.tensor()` fills from a
//! [`View`]; a test holds the two equal on every seat of random games.

use calabresella_engine::calabresella::{self, Viewer};
use calabresella_engine::{Card, CardSet, Contract, Seat, tressette};
use calabresella_proto::v1;

use crate::game::{Game, Inner};
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

/// Everything the observation tensor encodes, in absolute seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Seats at the table.
    pub players: u8,
    /// The viewer (`None`: spectator, encoded as seat 0).
    pub viewer: Option<Seat>,
    /// The viewer's cards.
    pub own: CardSet,
    /// Other seats' hands the viewer sees, by absolute seat.
    pub visible: [CardSet; 4],
    /// The current trick's card of each absolute seat.
    pub trick: [Option<Card>; 4],
    /// Cards won in completed tricks (with the monte once the last trick takes it).
    pub played: CardSet,
    /// The called card.
    pub called: Option<Card>,
    /// Phase index (see [`crate::view::PHASES`]).
    pub phase: u8,
    /// The contract.
    pub contract: Option<Contract>,
    /// The highest bid.
    pub highest: Option<(Seat, Contract)>,
    /// The soloist.
    pub soloist: Option<Seat>,
    /// Who decides.
    pub decider: Option<Seat>,
    /// Whose turn it is.
    pub actor: Option<Seat>,
    /// The dealer.
    pub dealer: Seat,
    /// The idle dealer.
    pub idle: Option<Seat>,
    /// Cards held per absolute seat.
    pub hand_sizes: [u8; 4],
    /// Completed tricks.
    pub tricks_done: u8,
    /// Tricks won per side: Calabresella `[soloist, defenders]`, Tressette `[viewer's side,
    /// other side]`.
    pub side_tricks: [u32; 2],
    /// Cards left in the stock.
    pub stock_left: u8,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            players: 0,
            viewer: None,
            own: CardSet::EMPTY,
            visible: [CardSet::EMPTY; 4],
            trick: [None; 4],
            played: CardSet::EMPTY,
            called: None,
            phase: 0,
            contract: None,
            highest: None,
            soloist: None,
            decider: None,
            actor: None,
            dealer: Seat::ALL[0],
            idle: None,
            hand_sizes: [0; 4],
            tricks_done: 0,
            side_tricks: [0; 2],
            stock_left: 0,
        }
    }
}

fn phase_index(p: calabresella::Phase) -> u8 {
    use calabresella::Phase as P;
    match p {
        P::Auction => 0,
        P::Call => 1,
        P::Return => 2,
        P::Discard => 3,
        P::Take => 4,
        P::Play => 5,
        P::Over => 6,
    }
}

impl Features {
    /// The features of `viewer` in a Calabresella hand, read straight from the engine.
    pub fn of_calabresella(h: &calabresella::Hand, viewer: Option<Seat>) -> Features {
        let n = h.options().players;
        let mut f = Features {
            players: n,
            viewer,
            own: viewer.map_or(CardSet::EMPTY, |s| h.hand_of(s)),
            phase: phase_index(h.phase()),
            contract: h.contract(),
            highest: h.highest_bid(),
            soloist: h.soloist(),
            called: h.called(),
            actor: h.actor(),
            decider: h.actor().map(|a| h.controller(a)),
            dealer: h.dealer(),
            idle: h.idle_seat(),
            tricks_done: h.tricks_done(),
            side_tricks: h.side_tricks(),
            ..Features::default()
        };
        for (s, cards) in h.visible_hands(viewer.map_or(Viewer::Spectator, Viewer::Seat)) {
            f.visible[s.index()] = cards;
        }
        let mut seat = h.trick().leader();
        for c in h.trick().cards() {
            f.trick[seat.index()] = Some(c);
            seat = h.next_active(seat);
        }
        for s in Seat::first_n(n) {
            f.hand_sizes[s.index()] = h.hand_of(s).len() as u8;
        }
        let [a, b] = h.piles();
        f.played = a | b;
        f
    }

    /// The features of `viewer` in a Tressette hand.
    pub fn of_tressette(h: &tressette::Hand, viewer: Option<Seat>) -> Features {
        let n = h.players();
        let mut f = Features {
            players: n,
            viewer,
            own: viewer.map_or(CardSet::EMPTY, |s| h.hand_of(s)),
            phase: if h.is_over() { 6 } else { 5 },
            actor: h.actor(),
            decider: h.actor(),
            dealer: h.dealer(),
            tricks_done: h.tricks_done(),
            stock_left: h.stock().len() as u8,
            ..Features::default()
        };
        let t = h.side_tricks();
        let mine = viewer.map_or(0, |v| v.index() % 2);
        f.side_tricks = [t[mine], t[1 - mine]];
        let mut seat = h.trick().leader();
        for c in h.trick().cards() {
            f.trick[seat.index()] = Some(c);
            seat = seat.next(n);
        }
        for s in Seat::first_n(n) {
            f.hand_sizes[s.index()] = h.hand_of(s).len() as u8;
        }
        let [a, b] = h.piles();
        f.played = a | b;
        f
    }

    /// The features of `viewer` in a game's current (or last) hand.
    pub fn of_game(g: &Game, viewer: Option<Seat>) -> Features {
        match &g.inner {
            Inner::Cal(m) => m
                .hands()
                .last()
                .map(|h| Features::of_calabresella(h, viewer))
                .unwrap_or_default(),
            Inner::Tre(m) => m
                .hands()
                .last()
                .map(|h| Features::of_tressette(h, viewer))
                .unwrap_or_default(),
        }
    }

    /// The features of a view.
    pub fn of_view(v: &View) -> Features {
        let mut f = Features {
            players: v.players(),
            viewer: v.viewer,
            own: v.hand,
            phase: v.phase,
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
        if matches!(v.rules, calabresella_proto::convert::Rules::Tressette(_)) {
            // The wire carries no per-side trick counts for Tressette: count the viewer's
            // side's tricks from the history.
            let mine = v.viewer.map_or(0, |s| s.index() % 2);
            let mut t = [0u32; 2];
            for e in &v.history {
                if e.kind == v1::EventKind::TrickWon
                    && let Some(w) = e.seat
                {
                    t[usize::from(w.index() % 2 != mine)] += 1;
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

    /// Writes the observation tensor into `out` (at least [`OBS_SIZE`] long).
    pub fn encode(&self, out: &mut [f32]) {
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
        out[400 + usize::from(self.phase.min(6))] = 1.0;
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
