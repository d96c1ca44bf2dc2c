//! The registry: every game by name, once ([`for_each_game!`]), and the any-game types built
//! from it: [`Rules`] (a game and its options), [`AnyMatch`], [`AnyObservation`] and
//! [`AnyEvent`]. Surfaces hold these and never name a game.

use crate::action::{Action, LEAD_SIGNALS};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::DealRefused;
use crate::error::IllegalAction;
use crate::rng::GameRng;
use crate::seat::{PerSeat, Seat};

use super::features::{Features, HistoryFact};
use super::option_spec::OptionDescription;
use super::traits::{Game, GameHand, Rollout, View};
use super::vocab::{
    ActionList, CardPlaces, DealtCards, GameFacts, HandError, MatchResult, OptionError, Viewer,
};

/// The list of games, the one place a game is registered. Calls `$callback! { Variant =>
/// module, ... }`, where `module` is the game's module in this crate (whose `Match` implements
/// [`Game`]) and `Variant` names it in the any-game enums. Crates that map every game (the wire
/// conversions) use it the same way, so a new game that lacks a mapping does not compile.
#[macro_export]
macro_rules! for_each_game {
    ($callback:ident) => {
        $callback! {
            Calabresella => calabresella,
            Tressette => tressette,
            Chiamata => chiamata,
        }
    };
}

/// Declares the any-game types over the registered games.
macro_rules! define_registry {
    ($($V:ident => $m:ident),* $(,)?) => {
        /// The rules of a table: a registered game and its validated options.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Rules {
            $(
                #[doc = concat!("The options of `", stringify!($m), "`.")]
                $V(<$crate::$m::Match as Game>::Options),
            )*
        }

        /// A match of any registered game.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum AnyMatch {
            $(
                #[doc = concat!("A match of `", stringify!($m), "`.")]
                $V($crate::$m::Match),
            )*
        }

        /// An observation of any registered game.
        #[derive(Debug, Clone, PartialEq)]
        pub enum AnyObservation {
            $(
                #[doc = concat!("An observation of `", stringify!($m), "`.")]
                $V(<$crate::$m::Match as Game>::Observation),
            )*
        }

        /// An event of any registered game, nothing hidden until it passes
        /// [`AnyMatch::visible`].
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum AnyEvent {
            $(
                #[doc = concat!("An event of `", stringify!($m), "`.")]
                $V(<$crate::$m::Match as Game>::Event),
            )*
        }

        $(
            impl From<$crate::$m::Match> for AnyMatch {
                fn from(m: $crate::$m::Match) -> AnyMatch {
                    AnyMatch::$V(m)
                }
            }

            impl From<<$crate::$m::Match as Game>::Observation> for AnyObservation {
                fn from(o: <$crate::$m::Match as Game>::Observation) -> AnyObservation {
                    AnyObservation::$V(o)
                }
            }

            impl From<<$crate::$m::Match as Game>::Event> for AnyEvent {
                fn from(e: <$crate::$m::Match as Game>::Event) -> AnyEvent {
                    AnyEvent::$V(e)
                }
            }

            impl Registered for $crate::$m::Match {
                fn rules(opts: Self::Options) -> Rules {
                    Rules::$V(opts)
                }
                fn event_of(e: &AnyEvent) -> Option<&Self::Event> {
                    match e {
                        AnyEvent::$V(e) => Some(e),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )*

        /// Every combination of rule options worth playing, of every registered game.
        pub fn every_option_set() -> Vec<Rules> {
            let mut sets = Vec::new();
            $(sets.extend(
                <$crate::$m::Match as Game>::option_sets().into_iter().map(Rules::$V),
            );)*
            sets
        }

        /// Every registered game name, in registration order.
        pub fn game_names() -> Vec<&'static str> {
            let mut names = Vec::new();
            $(names.extend_from_slice(<$crate::$m::Match as Game>::NAMES);)*
            names
        }

        impl Rules {
            /// The default rules of the game registered as `name`.
            pub fn defaults(name: &str) -> Option<Rules> {
                $(
                    if let Some(o) = <$crate::$m::Match as Game>::default_options(name) {
                        return Some(Rules::$V(o));
                    }
                )*
                None
            }
        }

        /// Runs `$body` with `$g` bound to the value inside any of the any-game enums
        /// (`AnyMatch`, `Rules`, `AnyObservation`, `AnyEvent`): one arm per registered game.
        macro_rules! each {
            ($Enum:ident, $s:expr, $g:ident => $body:expr) => {
                match $s { $($Enum::$V($g) => $body,)* }
            };
        }
    };
}

/// What the registry adds to every registered game: its place in the any-game enums.
pub(crate) trait Registered: Game<Event: Into<AnyEvent>> + Into<AnyMatch> {
    /// The rules of these options.
    fn rules(opts: Self::Options) -> Rules;
    /// This game's event inside an [`AnyEvent`], if it is one.
    fn event_of(e: &AnyEvent) -> Option<&Self::Event>;
}

/// The game whose options are `O`, for building a match from [`Rules`].
pub(crate) trait OptionsOf {
    /// The game.
    type Game: Registered<Options = Self>;
}

macro_rules! define_options_of {
    ($($V:ident => $m:ident),* $(,)?) => {
        $(impl OptionsOf for <$crate::$m::Match as Game>::Options {
            type Game = $crate::$m::Match;
        })*
    };
}

for_each_game!(define_registry);
for_each_game!(define_options_of);

/// Why `Rules::parse` refused a game name or an option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// No game is registered under this name.
    #[error("unknown game {0:?}: {names}", names = names_text())]
    UnknownGame(String),
    /// An option is unknown, has a bad value, or conflicts with another.
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// The registered names as prose: `a, b or c`.
fn names_text() -> String {
    let names = game_names();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_owned(),
        None => String::new(),
    }
}

impl Rules {
    /// The validated rules of the game registered as `game`, with rule options as key/value
    /// pairs (`players=4`, `target=31`, `aperta=true`...), as the CLI's `--option` flags and
    /// the Python package's keyword arguments give them.
    pub fn parse<'a>(
        game: &str,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Rules, RulesError> {
        let game = game.trim().to_ascii_lowercase();
        let mut rules = Rules::defaults(&game).ok_or(RulesError::UnknownGame(game))?;
        for (k, v) in pairs {
            rules.set(k, v)?;
        }
        rules.validate()?;
        Ok(rules)
    }

    /// Sets one option from `key=value` text.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        each!(Rules, self, o => set_of(o, key, value))
    }

    /// Checks that the options make a playable game.
    pub fn validate(&self) -> Result<(), OptionError> {
        each!(Rules, self, o => validate_of(o))
    }

    /// The registered name of the game these rules play (a record's `game`).
    pub fn game_name(&self) -> &'static str {
        each!(Rules, self, o => name_of(o))
    }

    /// How many seats the game has.
    pub fn seats(&self) -> u8 {
        each!(Rules, self, o => seats_of(o))
    }

    /// Which entry of the match totals is `seat`'s: its own, or its side's.
    pub fn total_index(&self, seat: Seat) -> usize {
        each!(Rules, self, o => total_index_of(o, seat))
    }

    /// Seats that no player or bot takes: a dummy, played by another seat.
    pub fn dummy_seats(&self) -> Vec<Seat> {
        each!(Rules, self, o => dummy_seats_of(o))
    }

    /// The scoring units: each seat alone, or the partnerships (dummies left out).
    pub fn teams(&self) -> Vec<Vec<Seat>> {
        each!(Rules, self, o => teams_of(o))
    }

    /// Every option of this game's variant, with its value under these rules (see
    /// [`Game::describe_options`]).
    pub fn describe_options(&self) -> Vec<OptionDescription> {
        each!(Rules, self, o => describe_options_of(o))
    }

    /// What the game declares of itself under these rules (see [`Game::facts`]).
    pub fn facts(&self) -> GameFacts {
        each!(Rules, self, o => facts_of(o))
    }

    /// The most actions a whole match under these rules can take (see [`Game::max_actions`]).
    pub fn max_actions(&self) -> u64 {
        each!(Rules, self, o => max_actions_of(o))
    }

    /// These rules with the safety cap on deals lowered, where needed, so that a whole match
    /// takes at most `limit` actions; `None` when no cap is low enough.
    pub fn fit_actions(&self, limit: u64) -> Option<Rules> {
        each!(Rules, self, o => fit_actions_of(o, limit))
    }

    /// The options that differ from the defaults, as a record's `options` object.
    pub fn non_default(&self) -> serde_json::Map<String, serde_json::Value> {
        each!(Rules, self, o => non_default_of(o))
    }

    /// The rules of a record's `game`, `players` and `options`.
    pub fn from_record(
        game: &str,
        players: u8,
        options: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Rules, RulesError> {
        let defaults = Rules::defaults(game).ok_or_else(|| RulesError::UnknownGame(game.into()))?;
        Ok(each!(Rules, defaults, o => from_record_of(&o, game, players, options)?))
    }
}

fn set_of<O: OptionsOf>(o: &mut O, key: &str, value: &str) -> Result<(), OptionError> {
    O::Game::set_option(o, key, value)
}
fn validate_of<O: OptionsOf>(o: &O) -> Result<(), OptionError> {
    O::Game::validate(o)
}
fn rules_of_options<O: OptionsOf>(o: O) -> Rules {
    O::Game::rules(o)
}
fn name_of<O: OptionsOf>(o: &O) -> &'static str {
    O::Game::name(o)
}
fn seats_of<O: OptionsOf>(o: &O) -> u8 {
    O::Game::seats(o)
}
fn total_index_of<O: OptionsOf>(o: &O, seat: Seat) -> usize {
    O::Game::total_index(o, seat)
}
fn dummy_seats_of<O: OptionsOf>(o: &O) -> Vec<Seat> {
    O::Game::dummy_seats(o)
}
fn teams_of<O: OptionsOf>(o: &O) -> Vec<Vec<Seat>> {
    O::Game::teams(o)
}
fn describe_options_of<O: OptionsOf>(o: &O) -> Vec<OptionDescription> {
    O::Game::describe_options(o)
}
fn facts_of<O: OptionsOf>(o: &O) -> GameFacts {
    O::Game::facts(o)
}
fn max_actions_of<O: OptionsOf>(o: &O) -> u64 {
    O::Game::max_actions(o)
}
fn fit_actions_of<O: OptionsOf>(o: &O, limit: u64) -> Option<Rules> {
    O::Game::fit_actions(o, limit).map(O::Game::rules)
}
impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        each!(Rules, self, o => o.fmt(f))
    }
}
fn non_default_of<O: OptionsOf>(o: &O) -> serde_json::Map<String, serde_json::Value> {
    O::Game::non_default(o)
}
fn from_record_of<O: OptionsOf>(
    _: &O,
    game: &str,
    players: u8,
    options: &serde_json::Map<String, serde_json::Value>,
) -> Result<Rules, OptionError> {
    O::Game::options_from_record(game, players, options).map(O::Game::rules)
}
fn new_of<O: OptionsOf>(o: O, first_dealer: Seat) -> Result<AnyMatch, HandError> {
    O::Game::new(o, first_dealer).map(Into::into)
}
fn seeded_of<O: OptionsOf>(
    o: O,
    seed: u64,
    first_dealer: Option<Seat>,
) -> Result<AnyMatch, HandError> {
    O::Game::seeded(o, seed, first_dealer).map(Into::into)
}
fn rules_of<G: Registered>(m: &G) -> Rules {
    G::rules(*m.options())
}
fn visible_of<G: Registered>(m: &G, i: usize, e: &AnyEvent, viewer: Viewer) -> Option<AnyEvent> {
    let e = G::event_of(e)?;
    m.hands().get(i)?.visible(e, viewer).map(Into::into)
}
fn start_cards_of<G: Game>(
    m: &mut G,
    dealer: Seat,
    hands: PerSeat<CardSet>,
    rest: &[Card],
) -> Result<(), DealRefused> {
    let deal = G::deal_from_cards(m.options(), hands, rest).map_err(HandError::Deal)?;
    m.start_hand(dealer, deal)
}
fn start_recorded_of<G: Game>(
    m: &mut G,
    h: usize,
    dealer: Seat,
    deal: &crate::record::RecordDeal,
) -> Result<(), crate::record::RecordError> {
    let deal = G::deal_from_record(m.options(), h, deal)?;
    m.start_hand(dealer, deal)
        .map_err(|e| crate::record::in_hand(h, e.to_string()))
}
fn start_rng_of<G: Game>(m: &mut G, dealer: Seat, rng: &mut GameRng) -> Result<(), DealRefused> {
    let deal = G::shuffled_deal(m.options(), dealer, rng);
    m.start_hand(dealer, deal)
}
fn logged_of<G: Game>(m: &mut G, seat: Seat, action: Action) -> Result<Vec<AnyEvent>, IllegalAction>
where
    G::Event: Into<AnyEvent>,
{
    let mut raw = Vec::with_capacity(4);
    m.try_apply_logged(seat, action, &mut raw)?;
    Ok(raw.into_iter().map(Into::into).collect())
}
fn current_of<G: Game>(m: &G) -> Option<&G::Hand> {
    m.hands().last().filter(|h| !h.is_over())
}
fn play_out_of<G: Game>(
    m: &mut G,
    one_hand: bool,
    choose: &mut impl FnMut(Seat, usize) -> usize,
) -> u64 {
    let hand = m.hands().len();
    let mut actions = 0;
    while !(one_hand && m.hands().len() != hand) {
        let (Some(seat), Some(h)) = (m.decider(), current_of(m)) else {
            break;
        };
        // Card plays, most steps, are taken from the playable set here, inline, rather than
        // through the hand's general `legal_action` (the same order: cards by index, each plain
        // then signalled; `every_game.rs` holds `legal_ids` to it).
        let a = match h.legal_plays() {
            Some((cards, false)) => cards
                .nth(choose(seat, cards.len()))
                .map(|c| Action::Play(c, None)),
            Some((cards, true)) => {
                let i = choose(seat, 4 * cards.len());
                cards
                    .nth(i / 4)
                    .map(|c| Action::Play(c, LEAD_SIGNALS[i % 4]))
            }
            None => h.legal_action(choose(seat, h.num_legal_actions())),
        };
        let Some(a) = a else {
            break;
        };
        m.apply_unchecked(a);
        actions += 1;
    }
    actions
}
fn describe_of<G: Game>(m: &G) -> String {
    let n = G::seats(m.options());
    let mut out = format!("{} ", G::name(m.options()));
    if let Some(h) = m.hands().last() {
        out += &format!("hand {}", m.hands().len() - 1);
        if let Some(phase) = h.phase_text() {
            out += &format!(" phase {phase}");
        }
        for s in Seat::first_n(n) {
            out += &format!("\n  seat {s}: {}", h.hand_of(s));
        }
        let trick: Vec<String> = h.trick_cards().iter().map(Card::to_string).collect();
        out += &format!("\n  trick: {trick:?}");
    }
    out += &format!("\n  totals: {:?}", m.totals());
    out
}

impl AnyMatch {
    /// A match of `rules` whose hands the caller deals; `first_dealer` deals first.
    pub fn new(rules: Rules, first_dealer: Seat) -> Result<AnyMatch, HandError> {
        each!(Rules, rules, o => new_of(o, first_dealer))
    }

    /// A match of `rules` dealt from `seed` (the first dealer drawn first unless given).
    pub fn seeded(
        rules: Rules,
        seed: u64,
        first_dealer: Option<Seat>,
    ) -> Result<AnyMatch, HandError> {
        each!(Rules, rules, o => seeded_of(o, seed, first_dealer))
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        each!(AnyMatch, self, m => rules_of(m))
    }

    /// The registered name of the game (a record's `game`).
    pub fn game_name(&self) -> &'static str {
        self.rules().game_name()
    }

    /// Seats at the table.
    pub fn seats(&self) -> u8 {
        self.rules().seats()
    }

    /// The first dealer.
    pub fn first_dealer(&self) -> Seat {
        each!(AnyMatch, self, m => Game::first_dealer(m))
    }

    /// How many hands have been dealt (the last may be in play).
    pub fn hands_dealt(&self) -> usize {
        each!(AnyMatch, self, m => Game::hands(m).len())
    }

    /// How many hands are over.
    pub fn hands_completed(&self) -> usize {
        let n = self.hands_dealt();
        if n > 0 && !self.hand_over(n - 1) {
            n - 1
        } else {
            n
        }
    }

    /// Whether hand `i` is over.
    pub fn hand_over(&self, i: usize) -> bool {
        each!(AnyMatch, self, m => Game::hands(m).get(i).is_some_and(|h| h.is_over()))
    }

    /// The dealer of hand `i`.
    pub fn dealer(&self, i: usize) -> Option<Seat> {
        each!(AnyMatch, self, m => Game::hands(m).get(i).map(GameHand::dealer))
    }

    /// The cards of hand `i` as dealt (hidden information: reveal only once it is over).
    pub fn dealt(&self, i: usize) -> Option<DealtCards> {
        each!(AnyMatch, self, m => Game::hands(m).get(i).map(GameHand::dealt))
    }

    /// The actions of hand `i` so far.
    pub fn hand_actions(&self, i: usize) -> Vec<Action> {
        each!(AnyMatch, self, m => Game::hands(m).get(i).map(GameHand::action_list).unwrap_or_default())
    }

    /// Every event of hand `i` so far, nothing hidden (a hand's opening events when it is new).
    pub fn events(&self, i: usize) -> Vec<AnyEvent> {
        each!(AnyMatch, self, m => Game::hands(m).get(i).map_or_else(Vec::new, |h| {
            h.events().into_iter().map(Into::into).collect()
        }))
    }

    /// What `viewer` may see of `event`, an event of hand `i`: the engine's one filter.
    pub fn visible(&self, i: usize, event: &AnyEvent, viewer: Viewer) -> Option<AnyEvent> {
        each!(AnyMatch, self, m => visible_of(m, i, event, viewer))
    }

    /// Who deals the next hand, when the match waits for one.
    pub fn next_dealer(&self) -> Option<Seat> {
        each!(AnyMatch, self, m => Game::next_dealer(m))
    }

    /// Starts the next hand from explicit cards: one set per seat, and the monte or stock in
    /// order (empty when the game has none).
    pub fn start_hand_cards(
        &mut self,
        dealer: Seat,
        hands: PerSeat<CardSet>,
        rest: &[Card],
    ) -> Result<(), DealRefused> {
        each!(AnyMatch, self, m => start_cards_of(m, dealer, hands, rest))
    }

    /// Starts recorded hand `h`, with the record's one-line errors.
    pub(crate) fn start_recorded_hand(
        &mut self,
        h: usize,
        dealer: Seat,
        deal: &crate::record::RecordDeal,
    ) -> Result<(), crate::record::RecordError> {
        each!(AnyMatch, self, m => start_recorded_of(m, h, dealer, deal))
    }

    /// Starts the next hand with the seeded deal drawn from `rng`.
    pub fn start_hand_from(&mut self, dealer: Seat, rng: &mut GameRng) -> Result<(), DealRefused> {
        each!(AnyMatch, self, m => start_rng_of(m, dealer, rng))
    }

    /// The seat whose decision it is (in Calabresella a due possibly the dummy).
    pub fn actor(&self) -> Option<Seat> {
        each!(AnyMatch, self, m => Game::actor(m))
    }

    /// The seat that takes the decision now.
    pub fn decider(&self) -> Option<Seat> {
        each!(AnyMatch, self, m => Game::decider(m))
    }

    /// The legal actions now.
    pub fn legal_actions(&self) -> ActionList {
        each!(AnyMatch, self, m => Game::legal_actions(m))
    }

    /// How many legal actions there are now (the fast path: no list is built).
    pub fn num_legal_actions(&self) -> usize {
        each!(AnyMatch, self, m => current_of(m).map_or(0, Rollout::num_legal_actions))
    }

    /// The `i`-th legal action now, in the order of [`AnyMatch::legal_actions`] (the fast path).
    pub fn legal_action(&self, i: usize) -> Option<Action> {
        each!(AnyMatch, self, m => current_of(m).and_then(|h| h.legal_action(i)))
    }

    /// Plays on while someone decides, taking the legal action of index
    /// `choose(decider, count)` each time (an index out of range stops the loop); with
    /// `one_hand`, stops once another hand has been dealt (a match whose next hand waits to be
    /// dealt stops anyway: nobody decides). The per-action loop of random bots, with
    /// the game dispatched once rather than at every call. Returns how many actions it played.
    pub fn play_out(
        &mut self,
        one_hand: bool,
        mut choose: impl FnMut(Seat, usize) -> usize,
    ) -> u64 {
        each!(AnyMatch, self, m => play_out_of(m, one_hand, &mut choose))
    }

    /// Why `seat` may not take `action` now, or `Ok` when it may (nothing is applied).
    pub fn check_as(&self, seat: Seat, action: &Action) -> Result<(), IllegalAction> {
        each!(AnyMatch, self, m => Game::check_as(m, seat, action))
    }

    /// Whether `action` is legal now (no allocation).
    pub fn is_legal(&self, action: &Action) -> bool {
        each!(AnyMatch, self, m => Game::is_legal(m, action))
    }

    /// The cards that `take` action ids refer to now (the open monte, when public).
    pub fn id_monte(&self) -> Option<[Card; 4]> {
        each!(AnyMatch, self, m => Game::id_monte(m))
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        each!(AnyMatch, self, m => Game::is_over(m))
    }

    /// The result once over: winning seats, or a draw.
    pub fn result(&self) -> Option<MatchResult> {
        each!(AnyMatch, self, m => Game::result(m))
    }

    /// Match totals in the game's unit (per seat, or per side).
    pub fn totals(&self) -> Vec<i32> {
        each!(AnyMatch, self, m => Game::totals(m))
    }

    /// Points per seat: hand `hand`'s award, or the match totals with `None`.
    pub fn seat_points(&self, hand: Option<usize>) -> PerSeat<i32> {
        each!(AnyMatch, self, m => Game::seat_points(m, hand))
    }

    /// Every seat that wins when `seat` forfeits.
    pub fn opponents_of(&self, seat: Seat) -> Vec<Seat> {
        each!(AnyMatch, self, m => Game::opponents_of(m, seat))
    }

    /// Applies `action` for `seat`; on error nothing changes.
    pub fn try_apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        each!(AnyMatch, self, m => Game::try_apply_as(m, seat, action))
    }

    /// Applies `action` for `seat` and returns the raw events it caused in the hand it was
    /// taken in (a new hand's opening events are in [`AnyMatch::events`]); on error
    /// nothing changes.
    pub fn apply_logged(
        &mut self,
        seat: Seat,
        action: Action,
    ) -> Result<Vec<AnyEvent>, IllegalAction> {
        each!(AnyMatch, self, m => logged_of(m, seat, action))
    }

    /// Applies a legal action without checking it.
    pub fn apply_unchecked(&mut self, action: Action) {
        each!(AnyMatch, self, m => Game::apply_unchecked(m, action))
    }

    /// The view of `viewer`.
    pub fn observation(&self, viewer: Viewer) -> Option<AnyObservation> {
        each!(AnyMatch, self, m => Game::observation(m, viewer).map(Into::into))
    }

    /// Where every card of hand `i` is now (hidden information: for referees and tests).
    pub fn card_places(&self, i: usize) -> Option<CardPlaces> {
        each!(AnyMatch, self, m => Game::hands(m).get(i).map(GameHand::card_places))
    }

    /// The view of `viewer` of hand `i` alone (no match totals or earlier results).
    pub fn hand_observation(&self, i: usize, viewer: Viewer) -> Option<AnyObservation> {
        each!(AnyMatch, self, m => Game::hand_observation(m, i, viewer).map(Into::into))
    }

    /// When every legal action now is a card play: the playable cards and whether the lead
    /// signals are offered with them ([`Rollout::legal_plays`]).
    pub fn legal_plays(&self) -> Option<(CardSet, bool)> {
        each!(AnyMatch, self, m => current_of(m).and_then(Rollout::legal_plays))
    }

    /// Writes the ids of the legal actions now into `out`, in the order of
    /// [`AnyMatch::legal_actions`] (as many as fit); returns how many it wrote. Card plays, most
    /// steps, are listed from the playable set without building the actions.
    pub fn legal_ids(&self, out: &mut [u16]) -> usize {
        let mut n = 0;
        let mut put = |id: u16| {
            if let Some(slot) = out.get_mut(n) {
                *slot = id;
                n += 1;
            }
        };
        if let Some((cards, signals)) = self.legal_plays() {
            for c in cards {
                put(Action::play_id(c, None));
                if signals {
                    for s in &LEAD_SIGNALS[1..] {
                        put(Action::play_id(c, *s));
                    }
                }
            }
        } else if !self.is_over() {
            let monte = self.id_monte();
            for a in self.legal_actions() {
                if let Ok(id) = a.to_id(monte.as_ref()) {
                    put(id);
                }
            }
        }
        n
    }

    /// What `viewer` may know of the current (or last) hand, without allocating.
    pub fn features(&self, viewer: Viewer) -> Features {
        each!(AnyMatch, self, m => Game::hands(m).last().map(|h| h.features(viewer)).unwrap_or_default())
    }

    /// A dump of the full state, hidden cards included: for debugging only.
    pub fn describe(&self) -> String {
        each!(AnyMatch, self, m => describe_of(m))
    }

    /// A one-line summary of finished hand `i` for people, or `None` while it is in play.
    pub fn hand_summary(&self, i: usize) -> Option<String> {
        each!(AnyMatch, self, m => Game::hand_summary(m, i))
    }

    /// Hand `i`'s line of the replay output.
    pub(crate) fn replay_hand(&self, i: usize) -> serde_json::Value {
        each!(AnyMatch, self, m => Game::replay_hand(m, i))
    }

    /// The replay output's winners.
    pub(crate) fn replay_winners(&self) -> Vec<usize> {
        each!(AnyMatch, self, m => Game::replay_winners(m))
    }
}

impl View for AnyObservation {
    fn legal_actions(&self) -> &[Action] {
        each!(AnyObservation, self, o => o.legal_actions())
    }
    fn history(&self, visit: &mut dyn FnMut(HistoryFact)) {
        each!(AnyObservation, self, o => o.history(visit))
    }
}

impl AnyObservation {
    /// The viewer's legal actions.
    pub fn legal_actions(&self) -> &[Action] {
        View::legal_actions(self)
    }

    /// The rules of the game this observation is of.
    pub fn rules(&self) -> Rules {
        each!(AnyObservation, self, o => rules_of_options(o.options))
    }
}

impl std::fmt::Display for AnyEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        each!(AnyEvent, self, e => e.fmt(f))
    }
}
