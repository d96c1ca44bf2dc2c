//! [`ServerConfig`]: limits and defaults of the service, set by `calabresella serve` flags.

use std::time::Duration;

/// Limits and defaults. `Default` gives the embedded defaults of `calabresella serve`.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Clock: per-decision time when a table does not set one.
    pub default_move: Duration,
    /// Clock: the longest per-decision time a table may ask for.
    pub max_move: Duration,
    /// Clock: the largest time bank a table may ask for.
    pub max_bank: Duration,
    /// Most unfinished tables at once (waiting or playing). A finished table takes no slot:
    /// its record is in the store.
    pub max_tables: usize,
    /// Most finished tables kept in memory for their time to live; beyond it the oldest
    /// leave early (GetTable and GetRecord still find them in the store).
    pub max_finished_tables: usize,
    /// Most tables one client address may create in a minute (0: no limit).
    pub max_creates_per_client_per_minute: usize,
    /// Most unfinished all-bot tables one client address may have (0: no limit): they play
    /// at server speed on the server's own time.
    pub max_bot_tables_per_client: usize,
    /// How long the store keeps a table abandoned before its first hand (nobody came): after
    /// it the table and its empty record are deleted (zero: kept for ever).
    pub abandoned_retention: Duration,
    /// Updates each seat keeps for resumes.
    pub seat_buffer: usize,
    /// Updates a stream may have in flight before it is cut off as a slow consumer.
    pub stream_buffer: usize,
    /// Most spectator streams open on one table. Seats have their own budget
    /// ([`ServerConfig::max_streams_per_seat`]), so spectators can never lock a player out.
    pub max_streams_per_table: usize,
    /// Most streams open on one seat (its player's program, reconnecting or watching twice).
    pub max_streams_per_seat: usize,
    /// Most spectator streams one client address may have open on the whole server (0: no
    /// limit).
    pub max_spectators_per_client: usize,
    /// A table whose seats are not all taken within this time is abandoned.
    pub waiting_timeout: Duration,
    /// A finished table (and its record) is kept this long.
    pub finished_ttl: Duration,
    /// Most actions one table stores (0: no limit). CreateTable fits a match's deal cap to it
    /// (or refuses the table), so only a table restored under a lowered limit can reach it.
    pub max_actions_per_table: usize,
    /// Most unfinished tables one client address may have created (0: no limit).
    pub max_open_tables_per_client: usize,
    /// Names this server run: stream sequence numbers are only resumable within one epoch.
    pub epoch: String,
    /// Longest time a named built-in bot (`pimc`) may think per decision, in milliseconds: a
    /// table's bot without a time budget gets this one, and a larger budget is refused.
    pub max_bot_ms: u32,
    /// Analyses (`AnalyseRecord`) run at once on the server; more wait their turn. Each takes
    /// one core while it runs.
    pub analysis_workers: usize,
    /// Longest search per decision an analysis may ask for, in milliseconds.
    pub analysis_max_ms: u32,
    /// Analyses one client address may have running or waiting (0: no limit).
    pub max_analyses_per_client: usize,
    /// Longest time one analysis may take, in seconds: a longer one is given up.
    pub analysis_max_s: u64,
    /// Whether people without an API key may take seats (as guests).
    pub guests: bool,
    /// Calls with a bad API key an address may make per minute before it is refused for a
    /// while (0: no limit).
    pub max_bad_keys_per_client_per_minute: u32,
    /// SHA-256 (hex) of the admin key that organiser calls present; `None`: organiser calls
    /// are refused.
    pub admin_key_sha256: Option<String>,
    /// Whether a client's address tells clients apart. Behind a reverse proxy every call
    /// comes from the proxy's address, so a seeded table's seats then go only to the holder
    /// of its creator key.
    pub trust_client_addresses: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            default_move: Duration::from_secs(60),
            max_move: Duration::from_secs(3600),
            max_bank: Duration::from_secs(3 * 3600),
            max_tables: 10_000,
            max_finished_tables: 2_000,
            max_creates_per_client_per_minute: 120,
            max_bot_tables_per_client: 16,
            abandoned_retention: Duration::from_secs(24 * 3600),
            seat_buffer: 16,
            stream_buffer: 256,
            max_streams_per_table: 32,
            max_streams_per_seat: 8,
            max_spectators_per_client: 64,
            waiting_timeout: Duration::from_secs(15 * 60),
            finished_ttl: Duration::from_secs(60 * 60),
            max_actions_per_table: 20_000,
            max_open_tables_per_client: 5_000,
            epoch: String::new(),
            max_bot_ms: 100,
            analysis_workers: 1,
            analysis_max_ms: 50,
            max_analyses_per_client: 1,
            analysis_max_s: 60,
            guests: true,
            max_bad_keys_per_client_per_minute: 10,
            admin_key_sha256: None,
            trust_client_addresses: true,
        }
    }
}
