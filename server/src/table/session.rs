//! [`Session`]: one match of any game behind one interface, so the table task does not care
//! which game it runs. Hidden cards reach the outside only through [`Session::visible`] and
//! [`Session::observation`], both built on the engine's one visibility filter.

use calabresella_engine::Contract;
use calabresella_engine::bots::{Bot, HeuristicBot, RandomBot};
use calabresella_engine::calabresella::{self, Viewer};
use calabresella_engine::record::Record;
use calabresella_engine::tressette;
use calabresella_engine::{Action, Card, IllegalAction, Seat};
use calabresella_proto::convert::{self, Rules};
use calabresella_proto::v1;

/// An event of either game, with nothing hidden yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawEvent {
    /// A Calabresella event.
    Calabresella(calabresella::Event),
    /// A Tressette event.
    Tressette(tressette::Event),
}

/// A built-in bot of either kind; each plays both games.
#[derive(Debug)]
pub enum SeatBot {
    /// The random bot.
    Random(RandomBot),
    /// The heuristic bot.
    Heuristic(HeuristicBot),
}

/// A match of one of the games.
#[derive(Debug, Clone)]
pub enum Session {
    /// Calabresella.
    Calabresella(calabresella::Match),
    /// Tressette or Tressette in Due.
    Tressette(tressette::Match),
}

impl Session {
    /// A seeded match; the seed decides every deal (and the first dealer unless given).
    pub fn new(rules: &Rules, seed: u64, first_dealer: Option<Seat>) -> Result<Session, String> {
        match rules {
            Rules::Calabresella(o) => calabresella::Match::seeded(*o, seed, first_dealer)
                .map(Session::Calabresella)
                .map_err(|e| e.to_string()),
            Rules::Tressette(o) => tressette::Match::seeded(*o, seed, first_dealer)
                .map(Session::Tressette)
                .map_err(|e| e.to_string()),
        }
    }

    /// The seat that must answer now, if any.
    pub fn decider(&self) -> Option<Seat> {
        match self {
            Session::Calabresella(m) => m.decider(),
            Session::Tressette(m) => m.actor(),
        }
    }

    /// The seat whose decision it is (in a due possibly the dummy).
    pub fn actor(&self) -> Option<Seat> {
        match self {
            Session::Calabresella(m) => m.actor(),
            Session::Tressette(m) => m.actor(),
        }
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        match self {
            Session::Calabresella(m) => m.is_over(),
            Session::Tressette(m) => m.is_over(),
        }
    }

    /// How many hands have been dealt (the last may be in play).
    pub fn hands_dealt(&self) -> usize {
        match self {
            Session::Calabresella(m) => m.hands().len(),
            Session::Tressette(m) => m.hands().len(),
        }
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
        match self {
            Session::Calabresella(m) => m.hands().get(i).is_some_and(|h| h.is_over()),
            Session::Tressette(m) => m.hands().get(i).is_some_and(|h| h.is_over()),
        }
    }

    /// The dealer of hand `i`.
    pub fn dealer(&self, i: usize) -> Option<Seat> {
        match self {
            Session::Calabresella(m) => m.hands().get(i).map(|h| h.dealer()),
            Session::Tressette(m) => m.hands().get(i).map(|h| h.dealer()),
        }
    }

    /// The monte of the current hand when it is public (scegliete), for `take` ids.
    pub fn open_monte(&self) -> Option<[Card; 4]> {
        match self {
            Session::Calabresella(m) => m
                .current()
                .filter(|h| h.contract() == Some(Contract::Scegliete))
                .map(|h| h.deal().monte),
            Session::Tressette(_) => None,
        }
    }

    /// Whether `action` is legal now (no allocation: the check runs on every action).
    pub fn is_legal(&self, action: Action) -> bool {
        match self {
            Session::Calabresella(m) => m.legal_actions().contains(&action),
            Session::Tressette(m) => m.legal_actions().contains(&action),
        }
    }

    /// The legal actions now.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self {
            Session::Calabresella(m) => m.legal_actions().to_vec(),
            Session::Tressette(m) => m.legal_actions().to_vec(),
        }
    }

    /// Applies `action` for `seat`; returns the events it caused in the hand it was taken in.
    /// On error nothing changes.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<RawEvent>, IllegalAction> {
        match self {
            Session::Calabresella(m) => {
                let mut log = Vec::with_capacity(4);
                m.try_apply_logged(seat, action, &mut log)?;
                Ok(log.into_iter().map(RawEvent::Calabresella).collect())
            }
            Session::Tressette(m) => {
                let mut log = Vec::with_capacity(4);
                m.try_apply_logged(seat, action, &mut log)?;
                Ok(log.into_iter().map(RawEvent::Tressette).collect())
            }
        }
    }

    /// Every event of hand `i` so far, nothing hidden (a hand's opening events when it is new).
    pub fn hand_events(&self, i: usize) -> Vec<RawEvent> {
        match self {
            Session::Calabresella(m) => m.hands().get(i).map_or_else(Vec::new, |h| {
                h.events().into_iter().map(RawEvent::Calabresella).collect()
            }),
            Session::Tressette(m) => m.hands().get(i).map_or_else(Vec::new, |h| {
                h.events().into_iter().map(RawEvent::Tressette).collect()
            }),
        }
    }

    /// What `viewer` (`None`: the public) may see of `event` of hand `i`.
    pub fn visible(&self, i: usize, event: &RawEvent, viewer: Option<Seat>) -> Option<RawEvent> {
        match (self, event) {
            (Session::Calabresella(m), RawEvent::Calabresella(e)) => {
                let v = viewer.map_or(Viewer::Spectator, Viewer::Seat);
                m.hands()
                    .get(i)?
                    .visible_to(e, v)
                    .map(RawEvent::Calabresella)
            }
            (Session::Tressette(m), RawEvent::Tressette(e)) => m
                .hands()
                .get(i)?
                .visible_to(e, viewer)
                .map(RawEvent::Tressette),
            _ => None,
        }
    }

    /// The observation of `viewer` (`None`: the public view) on the wire.
    pub fn observation(&self, viewer: Option<Seat>) -> Option<v1::Observation> {
        match self {
            Session::Calabresella(m) => m
                .observation(viewer.map_or(Viewer::Spectator, Viewer::Seat))
                .map(|o| convert::calabresella_observation(&o)),
            Session::Tressette(m) => m
                .observation(viewer)
                .map(|o| convert::tressette_observation(&o)),
        }
    }

    /// The action `bot` chooses for `seat`, from that seat's observation only.
    pub fn bot_action(&self, seat: Seat, bot: &mut SeatBot) -> Option<Action> {
        match self {
            Session::Calabresella(m) => {
                let obs = m.observation(Viewer::Seat(seat))?;
                if obs.legal_actions.is_empty() {
                    return None;
                }
                Some(match bot {
                    SeatBot::Random(b) => Bot::<calabresella::Observation>::act(b, &obs),
                    SeatBot::Heuristic(b) => Bot::<calabresella::Observation>::act(b, &obs),
                })
            }
            Session::Tressette(m) => {
                let obs = m.observation(Some(seat))?;
                if obs.legal_actions.is_empty() {
                    return None;
                }
                Some(match bot {
                    SeatBot::Random(b) => Bot::<tressette::Observation>::act(b, &obs),
                    SeatBot::Heuristic(b) => Bot::<tressette::Observation>::act(b, &obs),
                })
            }
        }
    }

    /// Match totals: per seat in Calabresella, per side in Tressette.
    pub fn totals(&self) -> Vec<u32> {
        match self {
            Session::Calabresella(m) => m.totals().first_n(m.options().players).to_vec(),
            Session::Tressette(m) => m.totals().to_vec(),
        }
    }

    /// Seats that won, and whether it is a draw, once the match is over.
    pub fn result(&self) -> Option<(Vec<u32>, bool)> {
        match self {
            Session::Calabresella(m) => m
                .result()
                .map(|r| (r.winners.iter().map(|s| s.index() as u32).collect(), r.draw)),
            Session::Tressette(m) => m.result().map(|r| match r {
                tressette::MatchResult::Won(side) => (
                    (0..m.options().variant.players() as usize)
                        .filter(|s| s % 2 == side)
                        .map(|s| s as u32)
                        .collect(),
                    false,
                ),
                tressette::MatchResult::Draw => (Vec::new(), true),
            }),
        }
    }

    /// Every seat except `seat`'s side: who wins when `seat` forfeits.
    pub fn opponents_of(&self, seat: Seat, seats: u8) -> Vec<u32> {
        let all = (0..u32::from(seats)).filter(|&s| s != seat.index() as u32);
        match self {
            Session::Calabresella(m) if m.options().a_due => {
                // A due: the dummy is nobody's; the other person wins.
                all.filter(|&s| s != calabresella::Options::DUMMY.index() as u32)
                    .collect()
            }
            Session::Calabresella(_) => all.collect(),
            Session::Tressette(_) => all.filter(|&s| s % 2 != seat.index() as u32 % 2).collect(),
        }
    }

    /// The full deal of hand `i`, for spectators once it is over.
    pub fn reveal(&self, i: usize) -> Option<v1::HandRevealed> {
        let hand_number = i as u32;
        let seat_cards = |hands: &calabresella_engine::PerSeat<calabresella_engine::CardSet>,
                          n: u8| {
            (0..n)
                .map(|s| v1::SeatCards {
                    seat: u32::from(s),
                    cards: convert::cards(hands.0[s as usize]),
                })
                .collect()
        };
        match self {
            Session::Calabresella(m) => {
                let h = m.hands().get(i).filter(|h| h.is_over())?;
                Some(v1::HandRevealed {
                    hand_number,
                    hands: seat_cards(&h.deal().hands, m.options().players),
                    monte: convert::card_list(&h.deal().monte),
                    stock: Vec::new(),
                })
            }
            Session::Tressette(m) => {
                let h = m.hands().get(i).filter(|h| h.is_over())?;
                Some(v1::HandRevealed {
                    hand_number,
                    hands: seat_cards(&h.deal().hands, m.options().variant.players()),
                    monte: Vec::new(),
                    stock: h
                        .deal()
                        .stock
                        .map(|s| convert::card_list(&s))
                        .unwrap_or_default(),
                })
            }
        }
    }

    /// The record of the completed hands (a hand in play is left out: its deal is secret).
    pub fn record(&self, meta: Option<serde_json::Value>) -> Record {
        let mut r = match self {
            Session::Calabresella(m) => Record::from_match(m, meta),
            Session::Tressette(m) => Record::from_tressette(m, meta),
        };
        r.hands.truncate(self.hands_completed());
        r
    }
}

impl SeatBot {
    /// A bot by wire kind, seeded.
    pub fn new(kind: v1::SeatKind, seed: u64) -> Option<SeatBot> {
        match kind {
            v1::SeatKind::BotRandom => Some(SeatBot::Random(RandomBot::new(seed))),
            v1::SeatKind::BotHeuristic => Some(SeatBot::Heuristic(HeuristicBot::new(seed))),
            _ => None,
        }
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
