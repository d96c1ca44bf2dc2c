//! [`Game`]: one match of either game behind one interface, as the Python `State`, the batched
//! environment and the tournament runner drive it. Pure Rust, no Python types.

use calabresella_engine::calabresella::{self, Viewer};
use calabresella_engine::record::{self, Record};
use calabresella_engine::{Action, Card, CardSet, IllegalAction, Seat, tressette};
use calabresella_proto::convert::Rules;

use crate::view::View;

/// A match of Calabresella or Tressette; with `single` set it ends after its first hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The match.
    pub inner: Inner,
    /// Whether the episode is one hand (the state is terminal once the first hand is over).
    pub single: bool,
}

/// The engine's match of each game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inner {
    /// Calabresella.
    Cal(calabresella::Match),
    /// Tressette or Tressette in Due.
    Tre(tressette::Match),
}

/// Whether an `episode` argument (`"hand"` or `"match"`) means single-hand episodes.
pub fn single_hand(episode: &str) -> Result<bool, String> {
    match episode {
        "hand" => Ok(true),
        "match" => Ok(false),
        other => Err(format!("episode is \"hand\" or \"match\", not {other:?}")),
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
    ) -> Result<Game, String> {
        if single {
            // The same draws as the engine's seeded match: the first dealer, then the deal.
            let mut rng = calabresella_engine::rng::GameRng::from_seed(seed);
            let drawn = Seat::ALL[rng.below(u32::from(rules.seats())) as usize];
            let dealer = dealer.unwrap_or(drawn);
            let mut game = Game::undealt(rules, dealer, true)?;
            match &mut game.inner {
                Inner::Cal(m) => m
                    .start_hand(
                        dealer,
                        calabresella::Deal::shuffled(&mut rng, rules.seats(), dealer),
                    )
                    .map_err(|e| e.to_string())?,
                Inner::Tre(m) => {
                    let Rules::Tressette(o) = rules else {
                        return Err("rules and game disagree".into());
                    };
                    m.start_hand(
                        dealer,
                        tressette::Deal::shuffled(&mut rng, o.variant, dealer),
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
            return Ok(game);
        }
        let inner = match rules {
            Rules::Calabresella(o) => {
                Inner::Cal(calabresella::Match::seeded(o, seed, dealer).map_err(|e| e.to_string())?)
            }
            Rules::Tressette(o) => {
                Inner::Tre(tressette::Match::seeded(o, seed, dealer).map_err(|e| e.to_string())?)
            }
        };
        Ok(Game { inner, single })
    }

    /// A match whose hands the caller deals; `dealer` deals first.
    pub fn undealt(rules: Rules, dealer: Seat, single: bool) -> Result<Game, String> {
        let inner = match rules {
            Rules::Calabresella(o) => {
                Inner::Cal(calabresella::Match::new(o, dealer).map_err(|e| e.to_string())?)
            }
            Rules::Tressette(o) => {
                Inner::Tre(tressette::Match::new(o, dealer).map_err(|e| e.to_string())?)
            }
        };
        Ok(Game { inner, single })
    }

    /// The match a record leads to (every deal and action checked).
    pub fn from_record(text: &str) -> Result<Game, String> {
        let r = Record::parse(text).map_err(|e| e.to_string())?;
        let inner = if r.game == "calabresella" {
            Inner::Cal(record::replay(&r).map_err(|e| e.to_string())?.0)
        } else {
            Inner::Tre(record::replay_tressette(&r).map_err(|e| e.to_string())?.0)
        };
        Ok(Game {
            inner,
            single: false,
        })
    }

    /// The record (format v1) of the match so far.
    pub fn record(&self, meta: Option<serde_json::Value>) -> Record {
        match &self.inner {
            Inner::Cal(m) => Record::from_match(m, meta),
            Inner::Tre(m) => Record::from_tressette(m, meta),
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        match &self.inner {
            Inner::Cal(m) => Rules::Calabresella(*m.options()),
            Inner::Tre(m) => Rules::Tressette(*m.options()),
        }
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.rules().seats()
    }

    /// Hands started so far.
    pub fn hands_started(&self) -> usize {
        match &self.inner {
            Inner::Cal(m) => m.hands().len(),
            Inner::Tre(m) => m.hands().len(),
        }
    }

    /// Whether the episode is over: the match, or in single-hand mode the first hand.
    pub fn is_over(&self) -> bool {
        match &self.inner {
            Inner::Cal(m) => {
                m.is_over() || (self.single && m.hands().first().is_some_and(|h| h.is_over()))
            }
            Inner::Tre(m) => {
                m.is_over() || (self.single && m.hands().first().is_some_and(|h| h.is_over()))
            }
        }
    }

    /// Whether the match waits for the caller to deal the next hand.
    pub fn needs_deal(&self) -> bool {
        !self.is_over()
            && match &self.inner {
                Inner::Cal(m) => m.needs_deal(),
                Inner::Tre(m) => m.next_dealer().is_some(),
            }
    }

    /// Who deals the next hand when one is due.
    pub fn next_dealer(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        match &self.inner {
            Inner::Cal(m) => m.next_dealer(),
            Inner::Tre(m) => m.next_dealer(),
        }
    }

    /// Starts the next hand with an explicit deal: one list of cards per seat (the idle dealer's
    /// empty in four-player Calabresella), plus the monte (Calabresella) or stock (Tressette in
    /// Due) in deal order.
    pub fn start_hand(&mut self, hands: &[Vec<Card>], rest: &[Card]) -> Result<(), String> {
        let dealer = self.next_dealer().ok_or("no hand is due now")?;
        let n = self.players() as usize;
        if hands.len() != n {
            return Err(format!("a deal has {n} hands, got {}", hands.len()));
        }
        let mut per = calabresella_engine::PerSeat::splat(CardSet::EMPTY);
        for (i, h) in hands.iter().enumerate() {
            per[Seat::ALL[i]] = h.iter().copied().collect();
            if per[Seat::ALL[i]].len() != h.len() {
                return Err(format!("seat {i}'s hand repeats a card"));
            }
        }
        match &mut self.inner {
            Inner::Cal(m) => {
                let monte: [Card; 4] = rest
                    .try_into()
                    .map_err(|_| format!("the monte has 4 cards, got {}", rest.len()))?;
                m.start_hand(dealer, calabresella::Deal { hands: per, monte })
                    .map_err(|e| e.to_string())
            }
            Inner::Tre(m) => {
                let stock = if rest.is_empty() {
                    None
                } else {
                    Some(
                        <[Card; 20]>::try_from(rest)
                            .map_err(|_| format!("the stock has 20 cards, got {}", rest.len()))?,
                    )
                };
                m.start_hand(dealer, tressette::Deal { hands: per, stock })
                    .map_err(|e| e.to_string())
            }
        }
    }

    /// The seat whose decision it is (in a due, possibly the dummy's).
    pub fn actor(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        match &self.inner {
            Inner::Cal(m) => m.actor(),
            Inner::Tre(m) => m.actor(),
        }
    }

    /// The seat that takes the decision now (the actor, or the person playing the dummy).
    pub fn decider(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        match &self.inner {
            Inner::Cal(m) => m.decider(),
            Inner::Tre(m) => m.actor(),
        }
    }

    /// The open monte in deal order, which `take` action ids refer to (the deal's monte: the
    /// only hand where `take` is legal is scegliete, where it is public).
    pub fn monte(&self) -> Option<[Card; 4]> {
        match &self.inner {
            Inner::Cal(m) => m.hands().last().map(|h| h.deal().monte),
            Inner::Tre(_) => None,
        }
    }

    /// The legal actions now, as `(id, action)` in the engine's order.
    pub fn legal(&self, out: &mut Vec<(u16, Action)>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let monte = self.monte();
        let mut push = |a: Action| {
            if let Ok(id) = a.to_id(monte.as_ref()) {
                out.push((id, a));
            }
        };
        match &self.inner {
            Inner::Cal(m) => m.legal_actions().into_iter().for_each(&mut push),
            Inner::Tre(m) => m.legal_actions().into_iter().for_each(&mut push),
        }
    }

    /// Writes the legal action ids into `out` (in the engine's order); returns how many.
    pub fn legal_ids(&self, out: &mut [u16]) -> usize {
        if self.is_over() {
            return 0;
        }
        let monte = self.monte();
        let mut n = 0;
        let mut push = |a: Action| {
            if let (Ok(id), Some(slot)) = (a.to_id(monte.as_ref()), out.get_mut(n)) {
                *slot = id;
                n += 1;
            }
        };
        match &self.inner {
            Inner::Cal(m) => m.legal_actions().into_iter().for_each(&mut push),
            Inner::Tre(m) => m.legal_actions().into_iter().for_each(&mut push),
        }
        n
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
        let mut set = |a: Action| {
            if let Ok(id) = a.to_id(monte.as_ref())
                && let Some(m) = mask.get_mut(usize::from(id))
            {
                *m = true;
                n += 1;
            }
        };
        match &self.inner {
            Inner::Cal(m) => m.legal_actions().into_iter().for_each(&mut set),
            Inner::Tre(m) => m.legal_actions().into_iter().for_each(&mut set),
        }
        n
    }

    /// The action a numeric id names now.
    pub fn action_from_id(&self, id: u16) -> Result<Action, String> {
        Action::from_id(id, self.monte().as_ref()).map_err(|e| e.to_string())
    }

    /// The numeric id of `action` now.
    pub fn action_id(&self, action: Action) -> Result<u16, String> {
        action
            .to_id(self.monte().as_ref())
            .map_err(|e| e.to_string())
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
        match &mut self.inner {
            Inner::Cal(m) => m.try_apply_as(seat, action),
            Inner::Tre(m) => m.try_apply_as(seat, action),
        }
    }

    /// Applies an action taken from [`Game::legal`] without checking it again (the batched
    /// environment validates every action before it applies any).
    pub fn apply_unchecked(&mut self, action: Action) {
        if self.is_over() {
            return;
        }
        match &mut self.inner {
            Inner::Cal(m) => m.apply_unchecked(action),
            Inner::Tre(m) => m.apply_unchecked(action),
        }
    }

    /// Points per seat: in single-hand mode the hand's award (Tressette: the side's points,
    /// in whole points), otherwise the match totals so far.
    pub fn returns(&self) -> [f64; 4] {
        let mut out = [0.0; 4];
        match &self.inner {
            Inner::Cal(m) => {
                let award = if self.single {
                    m.outcomes().first().map(|o| o.award()).unwrap_or_default()
                } else {
                    m.totals()
                };
                for (o, a) in out.iter_mut().zip(award.0) {
                    *o = f64::from(a);
                }
            }
            Inner::Tre(m) => {
                let sides = if self.single {
                    m.outcomes().first().map_or([0, 0], |o| o.points)
                } else {
                    m.totals()
                };
                let n = m.options().variant.players();
                for s in Seat::first_n(n) {
                    out[s.index()] = f64::from(sides[s.index() % 2]);
                }
            }
        }
        out
    }

    /// The view of `viewer` (`None`: the public spectator view) of the current (or last) hand.
    pub fn view(&self, viewer: Option<Seat>) -> Option<View> {
        match &self.inner {
            Inner::Cal(m) => m
                .observation(viewer.map_or(Viewer::Spectator, Viewer::Seat))
                .map(|o| View::from_calabresella(&o)),
            Inner::Tre(m) => m.observation(viewer).map(|o| View::from_tressette(&o)),
        }
    }

    /// The engine's observation of `viewer` for a bot.
    pub fn observation(&self, viewer: Option<Seat>) -> Option<crate::view::EngineObs> {
        match &self.inner {
            Inner::Cal(m) => m
                .observation(viewer.map_or(Viewer::Spectator, Viewer::Seat))
                .map(crate::view::EngineObs::Cal),
            Inner::Tre(m) => m.observation(viewer).map(crate::view::EngineObs::Tre),
        }
    }

    /// The actions of the current (or last) hand so far, as action strings.
    pub fn hand_history(&self) -> Vec<String> {
        match &self.inner {
            Inner::Cal(m) => m
                .hands()
                .last()
                .map(|h| h.actions().map(|a| a.to_string()).collect())
                .unwrap_or_default(),
            Inner::Tre(m) => m
                .hands()
                .last()
                .map(|h| h.actions().map(|a| a.to_string()).collect())
                .unwrap_or_default(),
        }
    }

    /// The match result: winners and whether it was a draw, once over.
    pub fn winners(&self) -> Option<(Vec<Seat>, bool)> {
        match &self.inner {
            Inner::Cal(m) => m.result().map(|r| (r.winners.clone(), r.draw)),
            Inner::Tre(m) => m.result().map(|r| match r {
                tressette::MatchResult::Won(side) => (
                    Seat::first_n(m.options().variant.players())
                        .filter(|s| s.index() % 2 == side)
                        .collect(),
                    false,
                ),
                tressette::MatchResult::Draw => (Vec::new(), true),
            }),
        }
    }

    /// A human-readable dump of the full state (hidden cards included): for debugging.
    pub fn describe(&self) -> String {
        let mut out = format!("{} ", self.rules().game_name());
        match &self.inner {
            Inner::Cal(m) => {
                if let Some(h) = m.hands().last() {
                    out += &format!("hand {} phase {:?}", m.hands().len() - 1, h.phase());
                    for s in Seat::first_n(m.options().players) {
                        out += &format!("\n  seat {s}: {}", h.hand_of(s));
                    }
                    out += &format!(
                        "\n  trick: {:?}",
                        h.trick().cards().map(|c| c.to_string()).collect::<Vec<_>>()
                    );
                }
                out += &format!("\n  totals: {:?}", m.totals().first_n(m.options().players));
            }
            Inner::Tre(m) => {
                if let Some(h) = m.hands().last() {
                    out += &format!("hand {}", m.hands().len() - 1);
                    for s in Seat::first_n(m.options().variant.players()) {
                        out += &format!("\n  seat {s}: {}", h.hand_of(s));
                    }
                    out += &format!(
                        "\n  trick: {:?}",
                        h.trick().cards().map(|c| c.to_string()).collect::<Vec<_>>()
                    );
                }
                out += &format!("\n  totals: {:?}", m.totals());
            }
        }
        out
    }
}
