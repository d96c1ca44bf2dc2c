//! [`Game`]: one match of any registered game behind one interface, as the Python `State`, the
//! batched environment and the tournament runner drive it. Pure Rust, no Python types; it
//! names no game (everything goes through the engine's [`AnyMatch`]).

use calabresella_engine::action::ActionIdError;
use calabresella_engine::deals::DealRefused;
use calabresella_engine::game::{AnyMatch, AnyObservation, HandError, Rules, Viewer};
use calabresella_engine::record::{self, Record, RecordError};
use calabresella_engine::{Action, Card, CardSet, IllegalAction, PerSeat, Seat};

use crate::view::View;

/// A match of any game; with `single` set it ends after its first hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The match.
    pub inner: AnyMatch,
    /// Whether the episode is one hand (the state is terminal once the first hand is over).
    pub single: bool,
}

/// Why a game cannot be set up, dealt, read or asked for an action id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The options, the dealer or the deal are not valid.
    #[error(transparent)]
    Setup(#[from] HandError),
    /// The hand cannot be dealt now, or the deal is not one of this game.
    #[error(transparent)]
    Deal(#[from] DealRefused),
    /// The record is malformed or does not replay.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The action has no id now, or the id names no action.
    #[error(transparent)]
    ActionId(#[from] ActionIdError),
    /// No hand is due: one is in play, or the match is over.
    #[error("no hand is due now")]
    NoHandDue,
    /// An explicit deal with the wrong number of hands.
    #[error("a deal has {expected} hands, got {got}")]
    HandCount {
        /// Seats at the table.
        expected: usize,
        /// Hands given.
        got: usize,
    },
    /// A seat's hand names a card twice.
    #[error("seat {0}'s hand repeats a card")]
    RepeatedCard(usize),
    /// Not an episode kind.
    #[error("episode is \"hand\" or \"match\", not {0:?}")]
    Episode(String),
}

/// Whether an `episode` argument (`"hand"` or `"match"`) means single-hand episodes.
pub fn single_hand(episode: &str) -> Result<bool, GameError> {
    match episode {
        "hand" => Ok(true),
        "match" => Ok(false),
        other => Err(GameError::Episode(other.to_owned())),
    }
}

impl Game {
    /// A match dealt from `seed` (first dealer drawn unless given). A single-hand game deals
    /// exactly the first hand of that match and nothing after it.
    pub fn seeded(
        rules: Rules,
        seed: u64,
        dealer: Option<Seat>,
        single: bool,
    ) -> Result<Game, GameError> {
        if single {
            // The same draws as the engine's seeded match: the first dealer, then the deal.
            let mut rng = calabresella_engine::rng::GameRng::from_seed(seed);
            let drawn = Seat::ALL[rng.below(u32::from(rules.seats())) as usize];
            let dealer = dealer.unwrap_or(drawn);
            let mut game = Game::undealt(rules, dealer, true)?;
            game.inner.start_hand_from(dealer, &mut rng)?;
            return Ok(game);
        }
        let inner = AnyMatch::seeded(rules, seed, dealer)?;
        Ok(Game { inner, single })
    }

    /// A match whose hands the caller deals; `dealer` deals first.
    pub fn undealt(rules: Rules, dealer: Seat, single: bool) -> Result<Game, GameError> {
        let inner = AnyMatch::new(rules, dealer)?;
        Ok(Game { inner, single })
    }

    /// The match a record leads to (every deal and action checked).
    pub fn from_record(text: &str) -> Result<Game, GameError> {
        let r = Record::parse(text)?;
        let (inner, _) = record::replay(&r)?;
        Ok(Game {
            inner,
            single: false,
        })
    }

    /// The game as a pickle keeps it: its record, and for a game dealt from a seed the seed
    /// (the deals still to come are drawn from it). JSON text.
    pub fn to_pickle(&self, seed: Option<u64>) -> String {
        serde_json::json!({
            "format": 1,
            "record": self.record(None),
            "seed": seed,
            "single": self.single,
        })
        .to_string()
    }

    /// The game a pickle holds (and its seed): dealt again from the seed and played to the
    /// same point, or replayed from the record alone; every deal and action is checked.
    pub fn from_pickle(text: &str) -> Result<(Game, Option<u64>), GameError> {
        let bad = |why: String| {
            GameError::Record(RecordError {
                hand: None,
                action: None,
                seat: None,
                why: format!("not a State pickle: {why}"),
            })
        };
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if v["format"] != 1 {
            return Err(bad(format!("format {} is not 1", v["format"])));
        }
        let record_text = v["record"].to_string();
        let single = v["single"].as_bool().unwrap_or(false);
        let seed = v["seed"].as_u64();
        let record = Record::parse(&record_text)?;
        let Some(seed) = seed else {
            let (inner, _) = record::replay(&record)?;
            return Ok((Game { inner, single }, None));
        };
        let rules = Rules::from_record(&record.game, record.players, &record.options)
            .map_err(|e| bad(e.to_string()))?;
        let first = record
            .hands
            .first()
            .and_then(|h| Seat::new(h.dealer))
            .ok_or_else(|| bad("no hand".into()))?;
        let mut game = Game::seeded(rules, seed, Some(first), single)?;
        for (h, hand) in record.hands.iter().enumerate() {
            for (a, ra) in hand.actions.iter().enumerate() {
                let action: Action = ra
                    .text()
                    .parse()
                    .map_err(|e| bad(format!("hand {h}, action {a}: {e}")))?;
                game.apply(action)
                    .map_err(|e| bad(format!("hand {h}, action {a}: {e}")))?;
            }
        }
        // The seed must deal exactly the recorded cards.
        if game.record(None).hands != record.hands {
            return Err(bad("the seed does not deal the recorded hands".into()));
        }
        Ok((game, Some(seed)))
    }

    /// The record (format v1) of the match so far.
    pub fn record(&self, meta: Option<serde_json::Value>) -> Record {
        self.inner.record(meta)
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.inner.rules()
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.inner.seats()
    }

    /// Hands started so far.
    pub fn hands_started(&self) -> usize {
        self.inner.hands_dealt()
    }

    /// Whether the episode is over: the match, or in single-hand mode the first hand.
    pub fn is_over(&self) -> bool {
        self.inner.is_over() || (self.single && self.inner.hand_over(0))
    }

    /// Whether the match waits for the caller to deal the next hand.
    pub fn needs_deal(&self) -> bool {
        self.next_dealer().is_some()
    }

    /// Who deals the next hand when one is due.
    pub fn next_dealer(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        self.inner.next_dealer()
    }

    /// Starts the next hand with an explicit deal: one list of cards per seat (the idle dealer's
    /// empty in four-player Calabresella), plus the cards dealt apart in deal order (the monte,
    /// or the stock; empty when the game has none).
    pub fn start_hand(&mut self, hands: &[Vec<Card>], rest: &[Card]) -> Result<(), GameError> {
        let dealer = self.next_dealer().ok_or(GameError::NoHandDue)?;
        let n = self.players() as usize;
        if hands.len() != n {
            return Err(GameError::HandCount {
                expected: n,
                got: hands.len(),
            });
        }
        let mut per = PerSeat::splat(CardSet::EMPTY);
        for (i, h) in hands.iter().enumerate() {
            per[Seat::ALL[i]] = h.iter().copied().collect();
            if per[Seat::ALL[i]].len() != h.len() {
                return Err(GameError::RepeatedCard(i));
            }
        }
        Ok(self.inner.start_hand_cards(dealer, per, rest)?)
    }

    /// The seat whose decision it is (in a due, possibly the dummy's).
    pub fn actor(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        self.inner.actor()
    }

    /// The seat that takes the decision now (the actor, or the person playing the dummy).
    pub fn decider(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        self.inner.decider()
    }

    /// The cards `take` action ids refer to now: the open monte in deal order (public: `take`
    /// is legal only in scegliete, where the monte is shown).
    pub fn monte(&self) -> Option<[Card; 4]> {
        self.inner.id_monte()
    }

    /// The legal actions now, as `(id, action)` in the engine's order.
    pub fn legal(&self, out: &mut Vec<(u16, Action)>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let monte = self.monte();
        for a in self.inner.legal_actions() {
            if let Ok(id) = a.to_id(monte.as_ref()) {
                out.push((id, a));
            }
        }
    }

    /// Writes the legal action ids into `out` (in the engine's order); returns how many.
    pub fn legal_ids(&self, out: &mut [u16]) -> usize {
        if self.is_over() {
            return 0;
        }
        self.inner.legal_ids(out)
    }

    /// Writes the legal-action mask (`mask[id]` set for each legal id); returns how many are
    /// legal.
    pub fn legal_mask(&self, mask: &mut [bool]) -> usize {
        mask.iter_mut().for_each(|m| *m = false);
        if self.is_over() {
            return 0;
        }
        let monte = self.monte();
        let mut n = 0;
        for a in self.inner.legal_actions() {
            if let Ok(id) = a.to_id(monte.as_ref())
                && let Some(m) = mask.get_mut(usize::from(id))
            {
                *m = true;
                n += 1;
            }
        }
        n
    }

    /// The action a numeric id names now.
    pub fn action_from_id(&self, id: u16) -> Result<Action, GameError> {
        Ok(Action::from_id(id, self.monte().as_ref())?)
    }

    /// The numeric id of `action` now.
    pub fn action_id(&self, action: Action) -> Result<u16, GameError> {
        Ok(action.to_id(self.monte().as_ref())?)
    }

    /// Applies `action` for the seat that must decide; on error nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let seat = self.decider().ok_or(IllegalAction::HandOver)?;
        self.apply_as(seat, action)
    }

    /// Applies `action` for `seat`, which must be the one to decide; on error nothing changes.
    pub fn apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::HandOver);
        }
        self.inner.try_apply_as(seat, action)
    }

    /// Applies an action taken from [`Game::legal`] without checking it again (the batched
    /// environment validates every action before it applies any).
    pub fn apply_unchecked(&mut self, action: Action) {
        if !self.is_over() {
            self.inner.apply_unchecked(action);
        }
    }

    /// Points per seat: in single-hand mode the hand's award (a side's points are each of its
    /// seats'), otherwise the match totals so far.
    pub fn returns(&self) -> [f64; Seat::MAX] {
        let points = self.inner.seat_points(self.single.then_some(0));
        let mut out = [0.0; Seat::MAX];
        for s in Seat::first_n(self.players()) {
            out[s.index()] = f64::from(points[s]);
        }
        out
    }

    /// The view of `viewer` (`None`: the public spectator view) of the current (or last) hand.
    pub fn view(&self, viewer: Option<Seat>) -> Option<View> {
        self.observation(viewer).map(|o| View::from_engine(&o))
    }

    /// The engine's observation of `viewer` for a bot.
    pub fn observation(&self, viewer: Option<Seat>) -> Option<AnyObservation> {
        self.inner.observation(Viewer::of(viewer))
    }

    /// The actions of the current (or last) hand so far, as action strings.
    pub fn hand_history(&self) -> Vec<String> {
        let last = self.inner.hands_dealt().saturating_sub(1);
        self.inner
            .hand_actions(last)
            .iter()
            .map(Action::to_string)
            .collect()
    }

    /// The match result: winners and whether it was a draw, once over.
    pub fn winners(&self) -> Option<(Vec<Seat>, bool)> {
        self.inner.result().map(|r| (r.winners, r.draw))
    }

    /// A human-readable dump of the full state (hidden cards included): for debugging.
    pub fn describe(&self) -> String {
        self.inner.describe()
    }
}
