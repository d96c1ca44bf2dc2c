//! [`ServiceError`]: every way a call can fail, and its one mapping to a gRPC status with a
//! machine-readable `google.rpc.ErrorInfo` (domain `calabresella.v1`, reason in upper case).

use calabresella_engine::IllegalAction;
use calabresella_proto::convert::WireError;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::store::StoreError;

/// The `ErrorInfo` domain of every error this service returns.
pub const ERROR_DOMAIN: &str = "calabresella.v1";

/// Every machine-readable reason an error carries in its `google.rpc.ErrorInfo` (`docs/API.md`
/// lists them): one enum, so a reason cannot be misspelt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The forms of an action (notation, id, typed fields) disagree.
    ActionMismatch,
    /// The action does not parse, names no card, or is empty.
    BadAction,
    /// The bot delay is out of range.
    BadBotDelay,
    /// An analysis budget beyond the server's limit.
    BadBudget,
    /// The match is still being played: it cannot be analysed yet.
    MatchInProgress,
    /// The client already runs an analysis.
    TooManyAnalyses,
    /// An analysis took longer than the server allows.
    AnalysisTooLong,
    /// The API key is malformed, unknown or disabled.
    BadKey,
    /// The clock is out of the server's range.
    BadClock,
    /// A record or results filter names no game or end reason, or has negative times.
    BadFilter,
    /// The table metadata is too large or malformed.
    BadMetadata,
    /// A name is empty, too long or malformed.
    BadName,
    /// The game or its rule options are not valid.
    BadOptions,
    /// The page token is not one this server gave.
    BadPageToken,
    /// The seat number is not a seat of the table.
    BadSeat,
    /// The seat kinds do not fit the game.
    BadSeats,
    /// The table-state filter is not a state.
    BadState,
    /// The table id is malformed.
    BadTableId,
    /// The server admits registered players only: the call needs an API key.
    KeyRequired,
    /// The seat token is not one of this table's.
    BadToken,
    /// The decision quoted is not due yet.
    FutureDecision,
    /// The action is not legal now.
    IllegalAction,
    /// The request's body does not decode as the call's message.
    MalformedRequest,
    /// The match is over.
    MatchOver,
    /// The match has not started.
    NotStarted,
    /// Another seat decides now, or no decision is due.
    NotYourTurn,
    /// Every seat is taken.
    NoOpenSeat,
    /// No seat token was given.
    NoToken,
    /// The client calls faster than its budget allows.
    RateLimited,
    /// The request is larger than the server accepts.
    RequestTooLarge,
    /// Too many calls from this address presented a bad API key lately.
    TooManyBadKeys,
    /// The seat is taken.
    SeatTaken,
    /// A stream fell behind and was cut off.
    SlowConsumer,
    /// The decision quoted was answered or timed out.
    StaleDecision,
    /// The store failed; nothing changed.
    StoreFailed,
    /// The store is full; nothing changed.
    StoreFull,
    /// The store is read-only; nothing changed.
    StoreReadOnly,
    /// Another server instance runs the table.
    TableElsewhere,
    /// The table's match is over.
    TableFinished,
    /// The table's action log is at its limit.
    TableLogFull,
    /// No such table.
    TableNotFound,
    /// A replay position beyond the record's end (or a record with no finished hand).
    NoSuchStep,
    /// The table has as many streams open as it allows.
    TooManyStreams,
    /// The client has as many calls in flight as it may.
    TooManyCalls,
    /// A bot submission is malformed: its name, file, archive or entry point.
    BadSubmission,
    /// The submitted bot is another player's.
    NotYourBot,
    /// The server runs no submitted bots (no sandbox).
    NoSandbox,
    /// The player has stored as many bot versions or bytes as it may.
    BotQuota,
    /// No log of that bot at that table and seat.
    BotLogNotFound,
    /// The server has as many tables as it allows.
    TooManyTables,
    /// The client has as many open tables as it may.
    TooManyTablesForClient,
    /// An organiser call came without the admin key.
    AdminKeyRequired,
    /// The admin key presented is not the server's.
    BadAdminKey,
    /// The server was started without an admin key: organiser calls are off.
    NoAdminKey,
    /// A tournament's settings are not valid.
    BadTournament,
    /// No such tournament.
    TournamentNotFound,
    /// No page for that player name.
    PlayerNotFound,
    /// The tournament takes no more entrants.
    RegistrationClosed,
    /// The player already has a seek open.
    AlreadySeeking,
    /// A seek's settings are not valid.
    BadSeek,
    /// A `Compete` request's settings are not valid.
    BadCompete,
    /// The server is shutting down or the table's task is gone.
    Unavailable,
    /// A contribution to the deals is longer than the scheme allows.
    BadEntropy,
    /// A seeded table's seats are its creator's own.
    SeededTable,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 64] = [
        Reason::ActionMismatch,
        Reason::BadAction,
        Reason::BadBotDelay,
        Reason::BadKey,
        Reason::BadClock,
        Reason::BadFilter,
        Reason::BadMetadata,
        Reason::BadName,
        Reason::BadOptions,
        Reason::BadPageToken,
        Reason::BadSeat,
        Reason::BadSeats,
        Reason::BadState,
        Reason::BadTableId,
        Reason::BadToken,
        Reason::KeyRequired,
        Reason::FutureDecision,
        Reason::IllegalAction,
        Reason::MalformedRequest,
        Reason::MatchOver,
        Reason::NotStarted,
        Reason::NotYourTurn,
        Reason::NoOpenSeat,
        Reason::NoToken,
        Reason::NoSuchStep,
        Reason::RateLimited,
        Reason::RequestTooLarge,
        Reason::TooManyBadKeys,
        Reason::SeatTaken,
        Reason::SlowConsumer,
        Reason::StaleDecision,
        Reason::StoreFailed,
        Reason::StoreFull,
        Reason::StoreReadOnly,
        Reason::TableElsewhere,
        Reason::TableFinished,
        Reason::TableLogFull,
        Reason::TableNotFound,
        Reason::TooManyStreams,
        Reason::TooManyCalls,
        Reason::BadSubmission,
        Reason::NotYourBot,
        Reason::NoSandbox,
        Reason::BotQuota,
        Reason::BotLogNotFound,
        Reason::TooManyTables,
        Reason::TooManyTablesForClient,
        Reason::AdminKeyRequired,
        Reason::BadAdminKey,
        Reason::NoAdminKey,
        Reason::BadTournament,
        Reason::TournamentNotFound,
        Reason::PlayerNotFound,
        Reason::RegistrationClosed,
        Reason::AlreadySeeking,
        Reason::BadSeek,
        Reason::BadCompete,
        Reason::Unavailable,
        Reason::BadEntropy,
        Reason::SeededTable,
        Reason::BadBudget,
        Reason::MatchInProgress,
        Reason::TooManyAnalyses,
        Reason::AnalysisTooLong,
    ];

    /// The reason as the wire has it (`BAD_OPTIONS`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::ActionMismatch => "ACTION_MISMATCH",
            Reason::BadAction => "BAD_ACTION",
            Reason::BadBotDelay => "BAD_BOT_DELAY",
            Reason::BadKey => "BAD_KEY",
            Reason::KeyRequired => "KEY_REQUIRED",
            Reason::TooManyBadKeys => "TOO_MANY_BAD_KEYS",
            Reason::BadClock => "BAD_CLOCK",
            Reason::BadFilter => "BAD_FILTER",
            Reason::BadMetadata => "BAD_METADATA",
            Reason::BadName => "BAD_NAME",
            Reason::BadOptions => "BAD_OPTIONS",
            Reason::BadPageToken => "BAD_PAGE_TOKEN",
            Reason::BadSeat => "BAD_SEAT",
            Reason::BadSeats => "BAD_SEATS",
            Reason::BadState => "BAD_STATE",
            Reason::BadTableId => "BAD_TABLE_ID",
            Reason::BadToken => "BAD_TOKEN",
            Reason::FutureDecision => "FUTURE_DECISION",
            Reason::IllegalAction => "ILLEGAL_ACTION",
            Reason::MalformedRequest => "MALFORMED_REQUEST",
            Reason::MatchOver => "MATCH_OVER",
            Reason::NotStarted => "NOT_STARTED",
            Reason::NotYourTurn => "NOT_YOUR_TURN",
            Reason::NoOpenSeat => "NO_OPEN_SEAT",
            Reason::NoToken => "NO_TOKEN",
            Reason::NoSuchStep => "NO_SUCH_STEP",
            Reason::RateLimited => "RATE_LIMITED",
            Reason::RequestTooLarge => "REQUEST_TOO_LARGE",
            Reason::SeatTaken => "SEAT_TAKEN",
            Reason::SlowConsumer => "SLOW_CONSUMER",
            Reason::StaleDecision => "STALE_DECISION",
            Reason::StoreFailed => "STORE_FAILED",
            Reason::StoreFull => "STORE_FULL",
            Reason::StoreReadOnly => "STORE_READ_ONLY",
            Reason::TableElsewhere => "TABLE_ELSEWHERE",
            Reason::TableFinished => "TABLE_FINISHED",
            Reason::TableLogFull => "TABLE_LOG_FULL",
            Reason::TableNotFound => "TABLE_NOT_FOUND",
            Reason::TooManyStreams => "TOO_MANY_STREAMS",
            Reason::BadBudget => "BAD_BUDGET",
            Reason::MatchInProgress => "MATCH_IN_PROGRESS",
            Reason::TooManyAnalyses => "TOO_MANY_ANALYSES",
            Reason::AnalysisTooLong => "ANALYSIS_TOO_LONG",
            Reason::TooManyCalls => "TOO_MANY_CALLS",
            Reason::BadSubmission => "BAD_SUBMISSION",
            Reason::NotYourBot => "NOT_YOUR_BOT",
            Reason::NoSandbox => "NO_SANDBOX",
            Reason::BotQuota => "BOT_QUOTA",
            Reason::BotLogNotFound => "BOT_LOG_NOT_FOUND",
            Reason::TooManyTables => "TOO_MANY_TABLES",
            Reason::TooManyTablesForClient => "TOO_MANY_TABLES_FOR_CLIENT",
            Reason::AdminKeyRequired => "ADMIN_KEY_REQUIRED",
            Reason::BadAdminKey => "BAD_ADMIN_KEY",
            Reason::NoAdminKey => "NO_ADMIN_KEY",
            Reason::BadTournament => "BAD_TOURNAMENT",
            Reason::TournamentNotFound => "TOURNAMENT_NOT_FOUND",
            Reason::PlayerNotFound => "PLAYER_NOT_FOUND",
            Reason::RegistrationClosed => "REGISTRATION_CLOSED",
            Reason::AlreadySeeking => "ALREADY_SEEKING",
            Reason::BadSeek => "BAD_SEEK",
            Reason::BadCompete => "BAD_COMPETE",
            Reason::Unavailable => "UNAVAILABLE",
            Reason::BadEntropy => "BAD_ENTROPY",
            Reason::SeededTable => "SEEDED_TABLE",
        }
    }
}

/// Why a call failed. Messages never name a card the caller may not see.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServiceError {
    /// Malformed input: the reason code and what is wrong.
    #[error("{1}")]
    Invalid(Reason, String),
    /// No seat token given.
    #[error("a seat token is required")]
    NoToken,
    /// The seat token is not one of this table's.
    #[error("the seat token is not valid for this table")]
    BadToken,
    /// Who is calling is not established: reason code and explanation (never the key).
    #[error("{1}")]
    Unauthenticated(Reason, String),
    /// The caller may not do this (another player's bot, say): reason code and explanation.
    #[error("{1}")]
    Denied(Reason, String),
    /// No such table.
    #[error("no table {0:?}")]
    TableNotFound(String),
    /// Something else that does not exist: reason code and explanation.
    #[error("{1}")]
    NotFound(Reason, String),
    /// The action is not legal now (the engine's reason).
    #[error("illegal action: {0}")]
    Illegal(IllegalAction),
    /// Another seat decides now, or no decision is due.
    #[error("not your turn: {0}")]
    NotYourTurn(String),
    /// A state that makes the call impossible: reason code and explanation.
    #[error("{1}")]
    Precondition(Reason, String),
    /// The decision quoted was already answered (differently) or timed out.
    #[error("decision {0} is stale: {1}")]
    Stale(u64, String),
    /// A server limit: reason code and which limit.
    #[error("{1}")]
    Exhausted(Reason, String),
    /// A position or page beyond the end of what exists: reason code and explanation.
    #[error("{1}")]
    OutOfRange(Reason, String),
    /// The server is shutting down or the table's task is gone.
    #[error("the table is unavailable: {0}")]
    Unavailable(String),
    /// Another server instance sharing the database runs the table: id and instance.
    #[error("table {0:?} is run by server instance {1:?}")]
    Elsewhere(String, String),
    /// The store refused a write or a read; nothing changed.
    #[error("{}: nothing was changed", store_message(.0))]
    Store(StoreError),
}

fn store_message(e: &StoreError) -> String {
    match e {
        StoreError::Full(_) => "the server's store is full".into(),
        StoreError::ReadOnly(_) => "the server's store is read-only".into(),
        StoreError::Closed => "the server's store has stopped".into(),
        // Other database errors may quote data: only the kind of failure goes out.
        _ => "the server's store failed".into(),
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        ServiceError::Store(e)
    }
}

impl From<WireError> for ServiceError {
    fn from(e: WireError) -> Self {
        let reason = match e {
            WireError::Mismatch(_) => Reason::ActionMismatch,
            WireError::Options(_) => Reason::BadOptions,
            WireError::Card(_) | WireError::Action(_) => Reason::BadAction,
        };
        ServiceError::Invalid(reason, e.to_string())
    }
}

impl ServiceError {
    /// The status code and the `ErrorInfo` reason.
    pub fn code_and_reason(&self) -> (Code, Reason) {
        match self {
            ServiceError::Invalid(r, _) => (Code::InvalidArgument, *r),
            ServiceError::NoToken => (Code::Unauthenticated, Reason::NoToken),
            ServiceError::BadToken => (Code::PermissionDenied, Reason::BadToken),
            ServiceError::Unauthenticated(r, _) => (Code::Unauthenticated, *r),
            ServiceError::Denied(r, _) => (Code::PermissionDenied, *r),
            ServiceError::TableNotFound(_) => (Code::NotFound, Reason::TableNotFound),
            ServiceError::NotFound(r, _) => (Code::NotFound, *r),
            ServiceError::Elsewhere(..) => (Code::NotFound, Reason::TableElsewhere),
            ServiceError::Illegal(_) => (Code::FailedPrecondition, Reason::IllegalAction),
            ServiceError::NotYourTurn(_) => (Code::FailedPrecondition, Reason::NotYourTurn),
            ServiceError::Precondition(r, _) => (Code::FailedPrecondition, *r),
            ServiceError::Stale(..) => (Code::Aborted, Reason::StaleDecision),
            ServiceError::Exhausted(r, _) => (Code::ResourceExhausted, *r),
            ServiceError::OutOfRange(r, _) => (Code::OutOfRange, *r),
            ServiceError::Unavailable(_) => (Code::Unavailable, Reason::Unavailable),
            ServiceError::Store(StoreError::Full(_)) => {
                (Code::ResourceExhausted, Reason::StoreFull)
            }
            ServiceError::Store(StoreError::ReadOnly(_)) => {
                (Code::Unavailable, Reason::StoreReadOnly)
            }
            ServiceError::Store(_) => (Code::Unavailable, Reason::StoreFailed),
        }
    }
}

impl From<ServiceError> for Status {
    fn from(e: ServiceError) -> Status {
        let (code, reason) = e.code_and_reason();
        crate::metrics::refused(reason.as_str(), matches!(e, ServiceError::Exhausted(..)));
        let mut metadata = std::collections::HashMap::<String, String>::new();
        if let ServiceError::Elsewhere(_, instance) = &e {
            metadata.insert("instance".into(), instance.clone());
        }
        let details = ErrorDetails::with_error_info(reason.as_str(), ERROR_DOMAIN, metadata);
        Status::with_error_details(code, bounded(e.to_string()), details)
    }
}

/// The longest error message sent, in bytes. A message may quote what the caller sent (an
/// action's notation, a name); the whole status travels in HTTP/2 trailers, which clients
/// refuse beyond 8 to 16 KiB, so a long quote would turn a clear refusal into a transport error.
pub const MAX_MESSAGE_BYTES: usize = 512;

/// `message` cut to [`MAX_MESSAGE_BYTES`] at a character boundary, marked when cut.
fn bounded(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let mut end = MAX_MESSAGE_BYTES - '…'.len_utf8();
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &message[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quotes_of_the_callers_input_are_cut_at_a_character_boundary() {
        for quote in ["x".repeat(10_000), "è".repeat(5_000), "a".repeat(511)] {
            let status = Status::from(ServiceError::Invalid(Reason::BadAction, quote.clone()));
            assert!(
                status.message().len() <= MAX_MESSAGE_BYTES,
                "{}",
                status.message().len()
            );
            assert_eq!(status.code(), Code::InvalidArgument);
            assert_eq!(
                status.get_details_error_info().expect("ErrorInfo").reason,
                "BAD_ACTION"
            );
            if quote.len() <= MAX_MESSAGE_BYTES {
                assert_eq!(status.message(), quote, "a short message is kept whole");
            } else {
                assert!(status.message().ends_with('…'));
                assert!(quote.starts_with(status.message().trim_end_matches('…')));
            }
        }
    }

    #[test]
    fn every_error_carries_its_code_and_reason() {
        let cases = [
            (ServiceError::NoToken, Code::Unauthenticated, "NO_TOKEN"),
            (ServiceError::BadToken, Code::PermissionDenied, "BAD_TOKEN"),
            (
                ServiceError::TableNotFound("x".into()),
                Code::NotFound,
                "TABLE_NOT_FOUND",
            ),
            (
                ServiceError::Stale(3, "answered".into()),
                Code::Aborted,
                "STALE_DECISION",
            ),
            (
                ServiceError::Exhausted(Reason::TooManyTables, "limit".into()),
                Code::ResourceExhausted,
                "TOO_MANY_TABLES",
            ),
            (
                StoreError::Full("disk".into()).into(),
                Code::ResourceExhausted,
                "STORE_FULL",
            ),
            (
                StoreError::ReadOnly("ro".into()).into(),
                Code::Unavailable,
                "STORE_READ_ONLY",
            ),
            (
                WireError::Mismatch("x".into()).into(),
                Code::InvalidArgument,
                "ACTION_MISMATCH",
            ),
        ];
        for (e, code, reason) in cases {
            assert_eq!(e.code_and_reason().1.as_str(), reason);
            let status = Status::from(e.clone());
            assert_eq!(status.code(), code, "{e}");
            let info = status.get_details_error_info().expect("ErrorInfo");
            assert_eq!(info.reason, reason);
            assert_eq!(info.domain, ERROR_DOMAIN);
        }
    }

    #[test]
    fn reasons_are_distinct_upper_case_and_documented() {
        let api = include_str!("../../docs/API.md");
        let mut seen = std::collections::HashSet::new();
        for r in Reason::ALL {
            let s = r.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(s.chars().all(|c| c.is_ascii_uppercase() || c == '_'), "{s}");
            assert!(api.contains(&format!("`{s}`")), "{s} is not in docs/API.md");
        }
    }
}
