//! Command-line arguments and the subcommands they run.

mod analyse;
mod bench;
mod bench_bot;
mod bench_search;
mod bench_store;
mod bots;
mod client;
mod db;
mod deal;
mod dev_certs;
mod duplicate;
mod play;
mod players;
mod records;
mod replay;
mod serve;
mod tournament;
mod values;
mod verify;

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

/// Calabresella: serve, play, replay and benchmark matches of the Italian card games.
/// The version `--version` shows: the release, and the commit the binary was built from.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CALABRESELLA_COMMIT"),
    ")"
);

#[derive(Debug, Parser)]
#[command(name = "calabresella", version = VERSION, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the gRPC game service (tables, seats, streams, bots, clocks, spectators, records).
    Serve(Box<serve::ServeArgs>),
    /// Create a table on a running server and print its id.
    Create(client::CreateArgs),
    /// List the tables on a running server, newest first (all, or those in one state).
    Tables(client::TablesArgs),
    /// Follow a table as a spectator and print the match as it is played.
    Watch(client::WatchArgs),
    /// Take a seat at a table and play it: by hand from standard input, or automatically.
    Sit(client::SitArgs),
    /// Print the game record of one table's completed hands (live, or kept after the match).
    #[command(alias = "record")]
    TableRecord(client::RecordArgs),
    /// List the finished matches a server keeps, filtered by player, game, date and result
    /// (`table-record` prints one of them).
    Records(records::RecordsArgs),
    /// Print a server's results table: matches, wins, points and OpenSkill rating per player.
    Results(records::ResultsArgs),
    /// Play a whole match between built-in bots, print each hand and write the record.
    Play(play::PlayArgs),
    /// Check a game record action by action and print the replay JSON.
    Replay(replay::ReplayArgs),
    /// Random full hands on one thread through the engine's fast path; prints JSON.
    Bench(bench::BenchArgs),
    /// The search bot's parts on positions from heuristic play: the exact solver's time and
    /// nodes per position, the world sampler's rate; prints JSON.
    BenchSearch(bench_search::BenchSearchArgs),
    /// Measure the write-ahead log: actions stored per second and the cost of each; prints JSON.
    BenchStore(bench_store::BenchStoreArgs),
    /// Measure a submitted bot in the sandbox: its start and its round trip per decision;
    /// prints JSON.
    BenchBot(bench_bot::BenchBotArgs),
    /// Compare bots in the duplicate format: every deal in every seat permutation; prints JSON.
    Duplicate(duplicate::DuplicateArgs),
    /// Print the deal a seed gives (hand 0's, as a table of that seed and dealer deals it).
    Deal(deal::DealArgs),
    /// Where each player lost points: every decision of a record scored from the decider's
    /// own information, the chosen action's loss against the best, per-seat figures.
    Analyse(analyse::AnalyseArgs),
    /// Check that records' deals are the ones their scheme committed to (or their seed gives);
    /// exits with 1 naming the first mismatch.
    Verify(verify::VerifyArgs),
    /// Write a throwaway CA and certificates for a TLS server on this machine (tests, local
    /// use): ca.pem, server.pem, server.key, client.pem, client.key.
    DevCerts(dev_certs::DevCertsArgs),
    /// The database: `stats` (what it holds, its size), `vacuum` (retention, then compaction).
    Db(db::DbArgs),
    /// Registered players and their API keys: `add`, `list`, `disable`, `enable`, `rotate`.
    Players(players::PlayersArgs),
    /// Tournaments run by a server: `create` (with the admin key), `list`, `status`,
    /// `standings`, `export`.
    Tournament(tournament::TournamentArgs),
    /// Submit a bot program to a server, which runs it in its sandbox wherever
    /// `submitted:NAME` is seated (docs/SUBMISSIONS.md); prints the version stored.
    Submit(bots::SubmitArgs),
    /// List the bots submitted to a server, with every version.
    Bots(bots::BotsArgs),
    /// Print what your submitted bot wrote to its standard error in one match, and how its
    /// run ended.
    BotLog(bots::BotLogArgs),
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Serve(a) => serve::run(*a),
        Command::Create(a) => client::create(a),
        Command::Tables(a) => client::tables(a),
        Command::Watch(a) => client::watch(a),
        Command::Sit(a) => client::sit(a),
        Command::TableRecord(a) => client::record(a),
        Command::Records(a) => records::records(a),
        Command::Results(a) => records::results(a),
        Command::Play(a) => play::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::BenchSearch(a) => bench_search::run(a),
        Command::BenchStore(a) => bench_store::run(a),
        Command::BenchBot(a) => bench_bot::run(a),
        Command::Duplicate(a) => duplicate::run(a),
        Command::Deal(a) => deal::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::Db(a) => db::run(a),
        Command::Players(a) => players::run(a),
        Command::Tournament(a) => tournament::run(a),
        Command::Submit(a) => bots::submit(a),
        Command::Bots(a) => bots::bots(a),
        Command::BotLog(a) => bots::bot_log(a),
        Command::DevCerts(a) => dev_certs::run(a),
    }
}

/// The rules chosen on the command line (the engine's any-game rules).
pub use calabresella_engine::game::Rules;

/// Rule selection shared by the subcommands that create games.
#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// The game (any registered game).
    #[arg(long, default_value = "calabresella", value_parser = values::game_names(), ignore_case = true)]
    game: String,
    /// Number of players: calabresella 3, or 4 with an idle dealer; tressette 4; in due 2;
    /// tressette-chiamata 5, or 4; briscola-chiamata 5.
    #[arg(long)]
    players: Option<u8>,
    /// A rule option as key=value (repeatable). Calabresella: target=31, match_end=individual,
    /// stramazzo=false, only_chiamo=true, chiamo_threes_only=true, aperta=true, a_due=true,
    /// max_deals=N, preset=terziglio. Tressette: target=31, accusi=false, max_deals=N; in due
    /// also follow_suit_always=true. Tressette con la Chiamata: hands=N, solo_bid=true,
    /// call_threes_only=true, call_own_card=true. Briscola Chiamata: hands=N, auction=points,
    /// two_closes=true, first_lead=caller, bid_multiplier=true.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

impl GameArgs {
    /// The options as key/value pairs.
    fn pairs(&self) -> Result<Vec<(&str, &str)>> {
        self.options
            .iter()
            .map(|kv| {
                kv.split_once('=')
                    .with_context(|| format!("option {kv:?} is not key=value"))
            })
            .collect()
    }

    /// The validated rules of the chosen game.
    pub fn rules(&self) -> Result<Rules> {
        let players = self.players.map(|p| p.to_string());
        let mut pairs = Vec::new();
        if let Some(p) = &players {
            pairs.push(("players", p.as_str()));
        }
        pairs.extend(self.pairs()?);
        Rules::parse(&self.game, pairs).map_err(|e| anyhow::anyhow!("bad options: {e}"))
    }
}

/// A seed from the clock, for commands run without `--seed` (printed so a run can be repeated).
pub fn fresh_seed() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (t as u64) ^ u64::from(std::process::id()).rotate_left(32)
}

/// A file's text (`-`: standard input), or why it cannot be read.
fn read_input(file: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read = if file.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(file)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map(|_| ())
    };
    read.map_err(|e| format!("cannot read it: {e}"))?;
    String::from_utf8(bytes).map_err(|_| "not valid UTF-8 text".to_owned())
}
