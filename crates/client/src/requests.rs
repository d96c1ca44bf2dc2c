//! Requests built from names, as people and programs give them: seat kinds, games, end
//! reasons, table states and record filters. The CLI and the Python package build their calls
//! here, so each name is parsed once, with one message for a wrong one.

use calabresella_engine::game::{Rules, RulesError};
use calabresella_proto::v1::table_service_client::TableServiceClient;
use calabresella_proto::{convert, v1};
use tonic::Status;
use tonic::transport::Channel;

/// A name that names nothing. `Display` says what the name may be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Not a seat kind.
    #[error(
        "unknown seat kind {0:?}: open (or human, player), random (or bot), heuristic, or a \
         search bot: pimc, ismcts or best (the strongest), with parameters after a colon \
         (pimc:ms=50)"
    )]
    SeatKind(String),
    /// A named bot with bad parameters.
    #[error("{0}")]
    Bot(String),
    /// Not a registered game.
    #[error(transparent)]
    Game(#[from] RulesError),
    /// Not an end reason a finished match can have.
    #[error("unknown end reason {0:?}: completed, forfeit or abandoned")]
    EndReason(String),
    /// Not a table state.
    #[error("unknown table state {0:?}: waiting, playing, finished or abandoned")]
    TableState(String),
}

/// Seat kinds by name: the names the CLI's `--seats` and Python's `seats=` take.
pub const SEAT_KINDS: [(&str, v1::SeatKind); 6] = [
    ("open", v1::SeatKind::Open),
    ("human", v1::SeatKind::Open),
    ("player", v1::SeatKind::Open),
    ("random", v1::SeatKind::BotRandom),
    ("bot", v1::SeatKind::BotRandom),
    ("heuristic", v1::SeatKind::BotHeuristic),
];

/// The seat kind named `name` (any case, surrounding blanks ignored).
pub fn seat_kind(name: &str) -> Result<v1::SeatKind, NameError> {
    let key = name.trim().to_ascii_lowercase();
    SEAT_KINDS
        .iter()
        .find(|(n, _)| *n == key)
        .map(|&(_, k)| k)
        .ok_or_else(|| NameError::SeatKind(name.to_owned()))
}

/// A seat as people name it: its kind, and for a named built-in bot (`pimc`, `pimc:ms=50`)
/// the bot's name with its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatChoice {
    /// The seat kind.
    pub kind: v1::SeatKind,
    /// The named bot (`SEAT_KIND_BOT_NAMED`), else empty.
    pub bot: String,
}

impl From<v1::SeatKind> for SeatChoice {
    fn from(kind: v1::SeatKind) -> SeatChoice {
        SeatChoice {
            kind,
            bot: String::new(),
        }
    }
}

/// The seat named `name`: a seat kind (as [`seat_kind`]), or a named built-in bot with its
/// parameters (`pimc`, `pimc:worlds=64:ms=50`, `best`), checked here.
pub fn seat(name: &str) -> Result<SeatChoice, NameError> {
    let key = name.trim().to_ascii_lowercase();
    if key.starts_with("submitted:") {
        // A submitted bot (`submitted:NAME[@VERSION]`): the server checks that it exists.
        return Ok(SeatChoice {
            kind: v1::SeatKind::BotNamed,
            bot: key,
        });
    }
    let base = key.split(':').next().unwrap_or("").trim();
    // A search bot (`pimc`, `ismcts`, `best`) is a named seat; the engine says which bots search.
    if calabresella_engine::bots::BotSpec::parse(base).is_ok_and(|s| s.thinks()) {
        calabresella_engine::bots::BotSpec::parse(&key)
            .map_err(|e| NameError::Bot(e.to_string()))?;
        return Ok(SeatChoice {
            kind: v1::SeatKind::BotNamed,
            bot: key,
        });
    }
    seat_kind(name).map(SeatChoice::from)
}

/// The wire game named `name` (a registered game name, any case); `None` is no filter.
pub fn game(name: Option<&str>) -> Result<v1::Game, NameError> {
    match name {
        None => Ok(v1::Game::Unspecified),
        Some(n) => convert::game_by_name(&n.trim().to_ascii_lowercase())
            .ok_or_else(|| NameError::Game(RulesError::UnknownGame(n.to_owned()))),
    }
}

/// The end reason named `name` (`completed`, `forfeit`, `abandoned`, any case); `None` is no
/// filter.
pub fn end_reason(name: Option<&str>) -> Result<v1::EndReason, NameError> {
    match name {
        None => Ok(v1::EndReason::Unspecified),
        Some(n) => convert::end_reason_by_name(n)
            .filter(|r| *r != v1::EndReason::Shutdown)
            .ok_or_else(|| NameError::EndReason(n.to_owned())),
    }
}

/// The table state named `name` (`waiting`, `playing`, `finished`, `abandoned`, any case);
/// `None` is no filter.
pub fn table_state(name: Option<&str>) -> Result<v1::TableState, NameError> {
    match name {
        None => Ok(v1::TableState::Unspecified),
        Some(n) => {
            v1::TableState::from_str_name(&format!("TABLE_STATE_{}", n.trim().to_ascii_uppercase()))
                .filter(|s| *s != v1::TableState::Unspecified)
                .ok_or_else(|| NameError::TableState(n.to_owned()))
        }
    }
}

/// A table to create, as the CLI's `create` and Python's `create_table` describe it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTable {
    /// The game and its options.
    pub rules: Rules,
    /// Who fills each seat: none (every seat open), one (for every seat), or one per seat.
    /// Seats that are dummies are left open whatever is given, as the server wants them.
    pub seats: Vec<SeatChoice>,
    /// The table's name.
    pub name: String,
    /// A chosen seed (default: the server draws one).
    pub seed: Option<u64>,
    /// The clock (default: the server's).
    pub clock: Option<v1::Clock>,
    /// Pause before each bot decision, in milliseconds.
    pub bot_delay_ms: u32,
}

impl NewTable {
    /// The `CreateTable` request of this table.
    pub fn request(&self) -> v1::CreateTableRequest {
        let n = usize::from(self.rules.seats());
        let mut seats = match self.seats.as_slice() {
            [] => vec![SeatChoice::from(v1::SeatKind::Open); n],
            [one] => vec![one.clone(); n],
            many => many.to_vec(),
        };
        if seats.len() == n {
            for dummy in self.rules.dummy_seats() {
                seats[dummy.index()] = v1::SeatKind::Open.into();
            }
        }
        let named = seats.iter().any(|s| s.kind == v1::SeatKind::BotNamed);
        v1::CreateTableRequest {
            name: self.name.clone(),
            options: Some(convert::rules(&self.rules)),
            seat_bots: if named {
                seats.iter().map(|s| s.bot.clone()).collect()
            } else {
                Vec::new()
            },
            seats: seats.into_iter().map(|s| s.kind as i32).collect(),
            clock: self.clock,
            seed: self.seed,
            bot_delay_ms: self.bot_delay_ms,
            ..v1::CreateTableRequest::default()
        }
    }
}

/// A search of the finished matches a server keeps; unset filters do not filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordQuery {
    /// A player at the table.
    pub player: Option<String>,
    /// A player who won.
    pub winner: Option<String>,
    /// A registered game name.
    pub game: Option<String>,
    /// An end reason name.
    pub reason: Option<String>,
    /// Ended at or after (ms since the Unix epoch).
    pub since_ms: Option<i64>,
    /// Ended before (ms since the Unix epoch).
    pub until_ms: Option<i64>,
    /// Draws only.
    pub draws_only: bool,
    /// At most this many (0: the server's default page).
    pub limit: u32,
}

impl RecordQuery {
    /// The `ListRecords` request of this query.
    pub fn request(&self) -> Result<v1::ListRecordsRequest, NameError> {
        Ok(v1::ListRecordsRequest {
            player_name: self.player.clone().unwrap_or_default(),
            winner_name: self.winner.clone().unwrap_or_default(),
            game: game(self.game.as_deref())? as i32,
            end_reason: end_reason(self.reason.as_deref())? as i32,
            since_unix_ms: self.since_ms.unwrap_or(0),
            until_unix_ms: self.until_ms.unwrap_or(0),
            draws_only: self.draws_only,
            page_size: self.limit,
            page_token: String::new(),
        })
    }
}

/// The `GetResults` request for `game` (a registered name, or every game).
pub fn results_request(
    game_name: Option<&str>,
    people_only: bool,
) -> Result<v1::GetResultsRequest, NameError> {
    Ok(v1::GetResultsRequest {
        game: game(game_name)? as i32,
        people_only,
    })
}

/// Every table in `state` (unspecified: all), newest first, paging through the whole list.
pub async fn list_all_tables(
    client: &mut TableServiceClient<Channel>,
    state: v1::TableState,
) -> Result<Vec<v1::Table>, Status> {
    let mut out = Vec::new();
    let mut token = String::new();
    loop {
        let r = client
            .list_tables(v1::ListTablesRequest {
                state: state as i32,
                page_size: 100,
                page_token: token,
            })
            .await?
            .into_inner();
        out.extend(r.tables);
        if r.next_page_token.is_empty() {
            return Ok(out);
        }
        token = r.next_page_token;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // In tests a panic is the failure report.
mod tests {
    use super::*;

    #[test]
    fn names_parse_in_any_case_and_wrong_names_say_what_is_allowed() {
        assert_eq!(seat_kind(" Human "), Ok(v1::SeatKind::Open));
        assert_eq!(seat_kind("BOT"), Ok(v1::SeatKind::BotRandom));
        assert_eq!(seat_kind("heuristic"), Ok(v1::SeatKind::BotHeuristic));
        let e = seat_kind("robot").unwrap_err().to_string();
        assert!(e.contains("\"robot\"") && e.contains("heuristic"), "{e}");
        for name in calabresella_engine::game::game_names() {
            assert_ne!(game(Some(name)), Ok(v1::Game::Unspecified), "{name}");
        }
        assert_eq!(game(None), Ok(v1::Game::Unspecified));
        assert!(
            game(Some("skat"))
                .unwrap_err()
                .to_string()
                .contains("unknown game")
        );
        assert_eq!(end_reason(Some("Forfeit")), Ok(v1::EndReason::Forfeit));
        assert!(
            end_reason(Some("shutdown")).is_err(),
            "no finished match ends so"
        );
        assert_eq!(table_state(Some("playing")), Ok(v1::TableState::Playing));
        assert!(table_state(Some("unspecified")).is_err());
    }

    #[test]
    fn a_new_table_fills_its_seats_and_leaves_dummies_open() {
        let rules = Rules::parse("calabresella", [("a_due", "true")]).unwrap();
        let t = NewTable {
            rules,
            seats: vec![v1::SeatKind::BotHeuristic.into()],
            name: "t".into(),
            seed: Some(3),
            clock: None,
            bot_delay_ms: 0,
        };
        let r = t.request();
        let h = v1::SeatKind::BotHeuristic as i32;
        assert_eq!(
            r.seats,
            [h, h, v1::SeatKind::Open as i32],
            "seat 2 is the dummy"
        );
        assert_eq!(r.seed, Some(3));
        assert_eq!(
            convert::rules_from_wire(&r.options.unwrap()).unwrap(),
            rules
        );
        let open = NewTable {
            seats: vec![],
            rules: Rules::parse("tressette", []).unwrap(),
            ..t
        };
        assert_eq!(open.request().seats, [v1::SeatKind::Open as i32; 4]);
        assert!(open.request().seat_bots.is_empty());
        let pimc = NewTable {
            seats: vec![seat("heuristic").unwrap(), seat(" PIMC:ms=40 ").unwrap()],
            rules: Rules::parse("tressette-in-due", []).unwrap(),
            ..open
        };
        let r = pimc.request();
        assert_eq!(r.seats, [h, v1::SeatKind::BotNamed as i32]);
        assert_eq!(r.seat_bots, ["", "pimc:ms=40"]);
        assert!(matches!(seat("pimc:depth=3"), Err(NameError::Bot(_))));
        assert!(matches!(seat("alphazero"), Err(NameError::SeatKind(_))));
        for (name, bot) in [
            ("Best", "best"),
            ("best:ms=80", "best:ms=80"),
            ("ismcts", "ismcts"),
            (" ismcts:iterations=500 ", "ismcts:iterations=500"),
        ] {
            assert_eq!(
                seat(name).unwrap(),
                SeatChoice {
                    kind: v1::SeatKind::BotNamed,
                    bot: bot.to_owned()
                }
            );
        }
        assert!(matches!(seat("best:worlds=3"), Err(NameError::Bot(_))));
        assert!(matches!(
            seat("ismcts:iterations=0"),
            Err(NameError::Bot(_))
        ));
    }

    #[test]
    fn a_record_query_becomes_its_request() {
        let q = RecordQuery {
            player: Some("ada".into()),
            game: Some("tressette".into()),
            reason: Some("completed".into()),
            limit: 7,
            ..RecordQuery::default()
        };
        let r = q.request().unwrap();
        assert_eq!(r.player_name, "ada");
        assert_eq!(r.game, v1::Game::Tressette as i32);
        assert_eq!(r.end_reason, v1::EndReason::Completed as i32);
        assert_eq!(r.page_size, 7);
        let bad = RecordQuery {
            reason: Some("resigned".into()),
            ..RecordQuery::default()
        };
        assert!(matches!(bad.request(), Err(NameError::EndReason(_))));
    }
}
