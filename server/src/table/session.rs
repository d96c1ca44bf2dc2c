//! [`Session`]: the table's match, of any registered game, with the wire-facing helpers the
//! table needs. It names no game: everything goes through the engine's [`AnyMatch`]. Hidden
//! cards reach the outside only through [`Session::visible`] and [`Session::observation`],
//! both built on the engine's one visibility filter.

use calabresella_engine::bots::{self, Bot};
use calabresella_engine::fair::DealKeys;
use calabresella_engine::game::{AnyEvent, AnyMatch, Rules, Viewer};
use calabresella_engine::record::Record;
use calabresella_engine::{Action, Card, IllegalAction, Seat};
use calabresella_proto::{convert, v1};

/// An event of the table's game, with nothing hidden yet.
pub type RawEvent = AnyEvent;

/// A built-in bot in a seat: it plays every registered game.
pub type SeatBot = Box<dyn Bot + Send>;

/// A bot by its wire seat kind (and, for a named bot, its name with parameters), seeded
/// (`None` for kinds that are not bots). A search bot's time budget is held to `max_ms`, the
/// server's cap now (a table stored under a larger cap is held to the new one).
pub fn seat_bot(kind: v1::SeatKind, named: &str, seed: u64, max_ms: u32) -> Option<SeatBot> {
    let name = match kind {
        v1::SeatKind::BotRandom => "random",
        v1::SeatKind::BotHeuristic => "heuristic",
        v1::SeatKind::BotNamed => named,
        _ => return None,
    };
    let spec = bots::BotSpec::parse(name).ok()?;
    Some(if spec.thinks() {
        spec.capped(max_ms).build(seed)
    } else {
        spec.build(seed)
    })
}

/// The match of a table, and the keys of its committed deals.
#[derive(Debug, Clone)]
pub struct Session {
    m: AnyMatch,
    /// A committed table's keys: each hand is dealt from them as the last one ends.
    keys: Option<DealKeys>,
}

impl Session {
    /// A seeded match; the seed decides every deal (and the first dealer unless given).
    pub fn seeded(
        rules: &Rules,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<Session, calabresella_engine::game::HandError> {
        AnyMatch::seeded(*rules, seed, first_dealer).map(|m| Session { m, keys: None })
    }

    /// A match not dealt yet: a committed table waiting for its players' contributions.
    pub fn waiting(
        rules: &Rules,
        first_dealer: Option<Seat>,
    ) -> Result<Session, calabresella_engine::game::HandError> {
        AnyMatch::new(*rules, first_dealer.unwrap_or(Seat::ALL[0]))
            .map(|m| Session { m, keys: None })
    }

    /// A match dealt from committed keys, its first hand dealt now.
    pub fn committed(
        rules: &Rules,
        keys: DealKeys,
        first_dealer: Option<Seat>,
    ) -> Result<Session, calabresella_engine::game::HandError> {
        let m = keys.first_match(*rules, first_dealer)?;
        Ok(Session {
            m,
            keys: Some(keys),
        })
    }

    /// The keys of a committed match (`None` when seeded or not dealt yet).
    pub fn keys(&self) -> Option<&DealKeys> {
        self.keys.as_ref()
    }

    /// The seat that must answer now, if any.
    pub fn decider(&self) -> Option<Seat> {
        self.m.decider()
    }

    /// The seat whose decision it is (in a due possibly the dummy).
    pub fn actor(&self) -> Option<Seat> {
        self.m.actor()
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.m.is_over()
    }

    /// How many hands have been dealt (the last may be in play).
    pub fn hands_dealt(&self) -> usize {
        self.m.hands_dealt()
    }

    /// How many hands are over.
    pub fn hands_completed(&self) -> usize {
        self.m.hands_completed()
    }

    /// Whether hand `i` is over.
    pub fn hand_over(&self, i: usize) -> bool {
        self.m.hand_over(i)
    }

    /// The dealer of hand `i`.
    pub fn dealer(&self, i: usize) -> Option<Seat> {
        self.m.dealer(i)
    }

    /// The cards `take` action ids refer to now (the open monte, when public).
    pub fn open_monte(&self) -> Option<[Card; 4]> {
        self.m.id_monte()
    }

    /// Whether `action` is legal now (no allocation: the check runs on every action).
    pub fn is_legal(&self, action: Action) -> bool {
        self.m.is_legal(&action)
    }

    /// Why `seat` may not take `action` now (the engine's reason), or `Ok`; nothing changes.
    pub fn check_as(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.m.check_as(seat, &action)
    }

    /// The legal actions now.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.m.legal_actions().to_vec()
    }

    /// Applies `action` for `seat`; returns the events it caused in the hand it was taken in.
    /// On error nothing changes.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<RawEvent>, IllegalAction> {
        let events = self.m.apply_logged(seat, action)?;
        if let Some(keys) = &self.keys
            && let Err(e) = keys.deal_due(&mut self.m)
        {
            // The engine says when a hand is due and the keys deal a valid one: a refusal
            // here is a bug, and the match then stops where it is.
            tracing::error!(error = %e, "cannot deal the next hand");
        }
        Ok(events)
    }

    /// Every event of hand `i` so far, nothing hidden (a hand's opening events when it is new).
    pub fn events(&self, i: usize) -> Vec<RawEvent> {
        self.m.events(i)
    }

    /// What `viewer` (`None`: the public) may see of `event` of hand `i`.
    pub fn visible(&self, i: usize, event: &RawEvent, viewer: Option<Seat>) -> Option<RawEvent> {
        self.m.visible(i, event, Viewer::of(viewer))
    }

    /// The observation of `viewer` (`None`: the public view) on the wire.
    pub fn observation(&self, viewer: Option<Seat>) -> Option<v1::Observation> {
        self.m
            .observation(Viewer::of(viewer))
            .map(|o| convert::observation(&o))
    }

    /// The observation of `viewer` of hand `i` alone, on the wire.
    pub fn hand_observation(&self, i: usize, viewer: Option<Seat>) -> Option<v1::Observation> {
        self.m
            .hand_observation(i, Viewer::of(viewer))
            .map(|o| convert::observation(&o))
    }

    /// The observation `seat` decides from now, when it has something to decide (what a bot
    /// thinking on another thread takes with it).
    pub fn decision_view(&self, seat: Seat) -> Option<calabresella_engine::game::AnyObservation> {
        self.m
            .observation(Viewer::Seat(seat))
            .filter(|o| !o.legal_actions().is_empty())
    }

    /// The action `bot` chooses for `seat`, from that seat's observation only.
    pub fn bot_action(&self, seat: Seat, bot: &mut SeatBot) -> Option<Action> {
        let obs = self.m.observation(Viewer::Seat(seat))?;
        if obs.legal_actions().is_empty() {
            return None;
        }
        Some(bot.act(&obs))
    }

    /// Match totals in the game's unit (per seat, or per side); negative only in the calling
    /// games.
    pub fn totals(&self) -> Vec<i32> {
        self.m.totals()
    }

    /// Seats that won, and whether it is a draw, once the match is over.
    pub fn result(&self) -> Option<(Vec<u32>, bool)> {
        self.m
            .result()
            .map(|r| (r.winners.iter().map(|s| s.index() as u32).collect(), r.draw))
    }

    /// Every seat that wins when `seat` forfeits.
    pub fn opponents_of(&self, seat: Seat) -> Vec<u32> {
        self.m
            .opponents_of(seat)
            .into_iter()
            .map(|s| s.index() as u32)
            .collect()
    }

    /// The full deal of hand `i`, for spectators once it is over.
    pub fn reveal(&self, i: usize) -> Option<v1::HandRevealed> {
        if !self.m.hand_over(i) {
            return None;
        }
        let dealt = self.m.dealt(i)?;
        Some(v1::HandRevealed {
            hand_number: i as u32,
            hands: Seat::first_n(self.m.seats())
                .map(|s| v1::SeatCards {
                    seat: s.index() as u32,
                    cards: convert::cards(dealt.hands[s]),
                })
                .collect(),
            monte: convert::card_list(&dealt.monte),
            stock: convert::card_list(&dealt.stock),
        })
    }

    /// The record of the completed hands (a hand in play is left out: its deal is secret).
    pub fn record(&self, meta: Option<serde_json::Value>) -> Record {
        let mut r = self.m.record(meta);
        r.hands.truncate(self.hands_completed());
        r
    }
}

/// Fresh random bytes from the operating system (seat tokens, seeds, ids).
pub fn os_random<const N: usize>() -> Result<[u8; N], crate::error::ServiceError> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|e| {
        crate::error::ServiceError::Unavailable(format!("no operating-system randomness: {e}"))
    })?;
    Ok(b)
}
