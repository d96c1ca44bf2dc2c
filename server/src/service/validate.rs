//! Request checks that need no table: names, seats, clocks and options.

use std::time::Duration;

use calabresella_engine::Seat;
use calabresella_engine::bots::BotSpec;
use calabresella_engine::game::Rules;
use calabresella_engine::search::Finish;
use calabresella_proto::convert;
use calabresella_proto::v1;

use crate::config::ServerConfig;
use crate::error::{Reason, ServiceError};
use crate::table::TableSpec;
use crate::table::session::os_random;

const MAX_NAME: usize = 100;
const MAX_PLAYER_NAME: usize = 64;
const MAX_METADATA: usize = 16;
const MAX_BOT_DELAY_MS: u32 = 10_000;

/// Bounds a table's action log, and so its record, before the match starts: a table stores at
/// most `limit` actions (`--max-actions-per-table`). Rules whose longest match could take more
/// get their safety cap on deals lowered when `max_deals` is the game's default (the cap ends
/// the match as a draw, a proper end, where the log would otherwise fill and abandon it), and
/// are refused when the caller chose another cap, or when a fixed number of hands is too long
/// by itself.
fn fit_to_log(rules: Rules, limit: u64) -> Result<Rules, ServiceError> {
    if limit == 0 || rules.max_actions() <= limit {
        return Ok(rules);
    }
    // Clients that send every option send the default cap too: only a cap other than the
    // game's default counts as the caller's choice.
    let explicit = rules.non_default().contains_key("max_deals");
    let fitted = rules.fit_actions(limit);
    match fitted {
        Some(f) if !explicit => Ok(f),
        _ => {
            let advice = match fitted
                .as_ref()
                .and_then(|f| f.non_default().get("max_deals").cloned())
            {
                Some(most) => format!("ask for max_deals at most {most}"),
                // Only the calling games fix their number of hands.
                None if rules.clone().set("hands", "1").is_ok() => "ask for fewer hands".into(),
                None => "it cannot hold one hand of this game".into(),
            };
            Err(ServiceError::Invalid(
                Reason::BadOptions,
                format!(
                    "a match under these options could take {} actions, more than the {limit} \
                     a table stores on this server: {advice}",
                    rules.max_actions()
                ),
            ))
        }
    }
}

use crate::names::printable;

/// Refuses a contribution to the deals longer than the scheme takes (`BAD_ENTROPY`).
pub fn entropy(entropy: &[u8]) -> Result<(), ServiceError> {
    let max = calabresella_engine::fair::MAX_CONTRIBUTION;
    if entropy.len() > max {
        return Err(ServiceError::Invalid(
            Reason::BadEntropy,
            format!("entropy holds {} bytes, at most {max}", entropy.len()),
        ));
    }
    Ok(())
}

/// A player's name: 1 to 64 characters, trimmed, none of them control or invisible formatting
/// characters, and not one of the server's own players' names in any form.
pub fn player_name(name: &str) -> Result<String, ServiceError> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > MAX_PLAYER_NAME || !printable(n) {
        return Err(ServiceError::Invalid(
            Reason::BadName,
            format!(
                "player_name must be 1 to {MAX_PLAYER_NAME} characters, with no control or \
                 invisible formatting characters (such as bidi overrides)"
            ),
        ));
    }
    if crate::names::reserved(n) {
        return Err(ServiceError::Invalid(
            Reason::BadName,
            "that name belongs to a built-in bot or to the server: choose another".into(),
        ));
    }
    Ok(n.to_owned())
}

/// The most tricks a server's search bot may solve exactly.
const MAX_SOLVE_TRICKS: u32 = 6;
/// The most work per decision a server's search bot may ask for.
const MAX_WORK: u32 = 48_000;
/// The most worlds per decision a server's search bot may ask for.
const MAX_WORLDS: u32 = 1_000;

/// The longest bot name with its parameters.
const MAX_BOT_NAME: usize = 64;

/// The most tree-search iterations per decision a server's `ismcts` bot may ask for.
const MAX_ITERATIONS: u32 = 50_000;
/// The most worlds in an inferring `ismcts` bot's pool a server takes.
const MAX_POOL: u32 = 4_096;

/// Whether `spec` (a built-in bot's name with its parameters) names a bot a server seats:
/// every built-in bot, since the server caps and paces the thinking of each that searches.
pub fn server_bot(spec: &str) -> bool {
    BotSpec::parse(spec).is_ok()
}

/// A search bot's budget beyond its time: refused when a decision's work is out of proportion
/// to the server's cap on time (the solver grows about tenfold per trick). The cap stops the
/// search too, but a budget that can only ever be cut short is refused with a reason.
fn search_limits(spec: &BotSpec, params: &str) -> Result<(), String> {
    match spec {
        BotSpec::Pimc(b)
            if b.solve.is_some_and(|s| s > MAX_SOLVE_TRICKS)
                || (params.contains("work") && b.work > MAX_WORK)
                || (params.contains("worlds") && b.worlds > MAX_WORLDS) =>
        {
            Err(format!(
                "pimc on this server takes solve at most {MAX_SOLVE_TRICKS}, work at most \
                 {MAX_WORK} and worlds at most {MAX_WORLDS}"
            ))
        }
        BotSpec::Ismcts(b)
            if b.solve.is_some_and(|s| s > MAX_SOLVE_TRICKS)
                || matches!(b.finish, Some(Finish::Tricks(t)) if t > MAX_SOLVE_TRICKS)
                || b.iterations > MAX_ITERATIONS
                || b.pool > MAX_POOL =>
        {
            Err(format!(
                "ismcts on this server takes solve and finish at most {MAX_SOLVE_TRICKS}, \
                 iterations at most {MAX_ITERATIONS} and pool at most {MAX_POOL}"
            ))
        }
        _ => Ok(()),
    }
}

/// A search bot's name with the server's cap on time written in: `max_ms` where it gives no
/// time. `pimc` also gets its default worlds, since a time budget alone would have it think
/// for the whole cap every decision.
fn with_time_cap(spec: &BotSpec, params: &str, max_ms: u32) -> String {
    let worlds = match spec {
        BotSpec::Pimc(b) if !params.contains("worlds") => format!("worlds={}:", b.worlds),
        _ => String::new(),
    };
    let rest = if params.is_empty() {
        String::new()
    } else {
        format!("{params}:")
    };
    format!("{}:{worlds}{rest}ms={max_ms}", spec.name())
}

/// The bot of each `BotNamed` seat, checked and with the server's cap on thinking time: a
/// search bot (`pimc`, `ismcts`, `best`) without a time budget gets `max_bot_ms`, one with a
/// larger budget is refused.
fn seat_bots(
    r: &v1::CreateTableRequest,
    seats: &[v1::SeatKind],
    config: &ServerConfig,
) -> Result<Vec<String>, ServiceError> {
    let bad = |why: String| ServiceError::Invalid(Reason::BadSeats, why);
    if !r.seat_bots.is_empty() && r.seat_bots.len() != seats.len() {
        return Err(bad(format!(
            "{} seat bots given; give none or one per seat ({})",
            r.seat_bots.len(),
            seats.len()
        )));
    }
    seats
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let given = r.seat_bots.get(i).map_or("", |s| s.trim());
            if *kind != v1::SeatKind::BotNamed {
                return if given.is_empty() {
                    Ok(String::new())
                } else {
                    Err(bad(format!(
                        "seat {i} names a bot but is not SEAT_KIND_BOT_NAMED"
                    )))
                };
            }
            if given.is_empty() {
                return Err(bad(format!(
                    "seat {i} is SEAT_KIND_BOT_NAMED but names no bot"
                )));
            }
            if given.chars().count() > MAX_BOT_NAME || !printable(given) {
                return Err(bad(format!(
                    "seat {i}: a bot name is at most {MAX_BOT_NAME} printable characters"
                )));
            }
            let name = given.to_ascii_lowercase();
            if crate::bot_spec::is_submitted(&name) {
                // Its version is pinned (and its existence checked) by the service, which
                // reads the store.
                return crate::bot_spec::parse_spec(&name).map(|_| name.clone()).ok_or_else(|| {
                    bad(format!(
                        "seat {i}: {given:?} is not `submitted:NAME` or `submitted:NAME@VERSION`"
                    ))
                });
            }
            let spec = BotSpec::parse(&name).map_err(|e| bad(format!("seat {i}: {e}")))?;
            if !spec.thinks() {
                return Ok(name);
            }
            let params = name.split_once(':').map_or("", |(_, p)| p.trim());
            // One spelling per bot (`pimc :ms=50` is `pimc:ms=50`): the stored name is the
            // player in the results.
            let name = if params.is_empty() {
                spec.name().to_owned()
            } else {
                format!("{}:{params}", spec.name())
            };
            search_limits(&spec, params).map_err(|e| bad(format!("seat {i}: {e}")))?;
            match spec.ms() {
                None => Ok(with_time_cap(&spec, params, config.max_bot_ms)),
                Some(ms) if ms > config.max_bot_ms => Err(bad(format!(
                    "seat {i}: {} thinks at most {} ms per decision on this server, asked {ms}",
                    spec.name(),
                    config.max_bot_ms
                ))),
                Some(_) => Ok(name),
            }
        })
        .collect()
}

/// The table a `CreateTable` request asks for, with defaults filled and every limit checked.
pub fn table_spec(
    r: &v1::CreateTableRequest,
    config: &ServerConfig,
) -> Result<TableSpec, ServiceError> {
    let name = r.name.trim();
    if name.chars().count() > MAX_NAME || !printable(name) {
        return Err(ServiceError::Invalid(
            Reason::BadName,
            format!("name must be at most {MAX_NAME} printable characters"),
        ));
    }
    if r.metadata.len() > MAX_METADATA
        || r.metadata
            .iter()
            .any(|(k, v)| k.chars().count() > MAX_NAME || v.chars().count() > MAX_NAME)
    {
        return Err(ServiceError::Invalid(
            Reason::BadMetadata,
            format!("metadata: at most {MAX_METADATA} entries of at most {MAX_NAME} characters"),
        ));
    }
    let options = r.options.as_ref().ok_or_else(|| {
        ServiceError::Invalid(
            Reason::BadOptions,
            "options (with the game) are required".into(),
        )
    })?;
    let rules = fit_to_log(
        convert::rules_from_wire(options)?,
        config.max_actions_per_table as u64,
    )?;
    let n = rules.seats();
    let mut seats = if r.seats.is_empty() {
        vec![v1::SeatKind::Open; n as usize]
    } else if r.seats.len() != n as usize {
        return Err(ServiceError::Invalid(
            Reason::BadSeats,
            format!("{} seat kinds given; the game has {n} seats", r.seats.len()),
        ));
    } else {
        r.seats
            .iter()
            .map(|&k| match v1::SeatKind::try_from(k) {
                Ok(v1::SeatKind::Unspecified) => Ok(v1::SeatKind::Open),
                Ok(k) => Ok(k),
                Err(_) => Err(ServiceError::Invalid(
                    Reason::BadSeats,
                    format!("seat kind {k}"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    for dummy in rules.dummy_seats() {
        // A dummy never decides: another seat plays it.
        let dummy = dummy.index();
        if seats[dummy] != v1::SeatKind::Open {
            return Err(ServiceError::Invalid(
                Reason::BadSeats,
                format!(
                    "seat {dummy} is a dummy (another seat plays it) and takes no player or bot"
                ),
            ));
        }
        seats[dummy] = v1::SeatKind::Unspecified;
    }
    let mut bots = seat_bots(r, &seats, config)?;
    // A named `random` or `heuristic` is that bot's own kind: one name per bot on the wire.
    for (kind, bot) in seats.iter_mut().zip(bots.iter_mut()) {
        let plain = match bot.as_str() {
            "random" => Some(v1::SeatKind::BotRandom),
            "heuristic" => Some(v1::SeatKind::BotHeuristic),
            _ => None,
        };
        if let Some(k) = plain {
            *kind = k;
            bot.clear();
        }
    }
    let clock = r.clock.unwrap_or_default();
    let move_ms = match clock.move_ms {
        0 => config.default_move.as_millis() as u32,
        ms => ms,
    };
    if Duration::from_millis(u64::from(move_ms)) > config.max_move
        || Duration::from_millis(u64::from(clock.bank_ms)) > config.max_bank
    {
        return Err(ServiceError::Invalid(
            Reason::BadClock,
            format!(
                "move_ms at most {} and bank_ms at most {}",
                config.max_move.as_millis(),
                config.max_bank.as_millis()
            ),
        ));
    }
    let on_timeout = match v1::TimeoutPolicy::try_from(clock.on_timeout) {
        Ok(v1::TimeoutPolicy::Unspecified) => v1::TimeoutPolicy::Bot,
        Ok(p) => p,
        Err(_) => {
            return Err(ServiceError::Invalid(
                Reason::BadClock,
                format!("on_timeout {}", clock.on_timeout),
            ));
        }
    };
    let first_dealer = match r.first_dealer {
        None => None,
        Some(d) => Some(convert::seat_from_wire(d, n).ok_or_else(|| {
            ServiceError::Invalid(
                Reason::BadOptions,
                format!("first_dealer {d}: the game has {n} seats"),
            )
        })?),
    };
    if r.bot_delay_ms > MAX_BOT_DELAY_MS {
        return Err(ServiceError::Invalid(
            Reason::BadBotDelay,
            format!("bot_delay_ms at most {MAX_BOT_DELAY_MS}"),
        ));
    }
    // A creator's seed is for simulation (its seats are the creator's own); every other table
    // deals from a fresh committed secret.
    // A seeded table is a reproducible simulation, its bots included; elsewhere the bots draw
    // from the OS so that nothing about them follows from what a player can see.
    let (deals, bot_seed) = match r.seed {
        Some(s) => (crate::table::DealSpec::Seeded(s), s),
        None => (
            crate::table::DealSpec::fresh()?,
            u64::from_le_bytes(os_random::<8>()?),
        ),
    };
    Ok(TableSpec {
        name: name.to_owned(),
        metadata: r.metadata.clone(),
        rules,
        seats,
        bots,
        clock: v1::Clock {
            move_ms,
            bank_ms: clock.bank_ms,
            on_timeout: on_timeout as i32,
        },
        deals,
        bot_seed,
        first_dealer: first_dealer.map(|s: Seat| s),
        bot_delay: Duration::from_millis(u64::from(r.bot_delay_ms)),
        // Set by CreateTable for a seeded table with open seats (it returns the key).
        creator_key: None,
    })
}

/// A page's offset (from its token) and size (default 50, at most 500).
pub fn page(size: u32, token: &str) -> Result<(usize, usize), ServiceError> {
    let size = match size {
        0 => 50,
        n => n.min(500) as usize,
    };
    // The tokens this server gives are offsets into a list far shorter than 2^32: anything
    // else (an overflowing number included) is not one of them.
    let offset = if token.is_empty() {
        0
    } else {
        token.parse::<u32>().map(|o| o as usize).map_err(|_| {
            ServiceError::Invalid(
                Reason::BadPageToken,
                "page_token is not one this server gave".into(),
            )
        })?
    };
    Ok((offset, size))
}

/// The longest table id accepted (the server's ids are 18 characters); a longer one is refused
/// before any message could echo it.
pub const MAX_TABLE_ID: usize = 64;

/// A table id as given, trimmed: refused when empty or too long.
pub fn table_id(id: &str) -> Result<&str, ServiceError> {
    let id = id.trim();
    if id.is_empty() {
        return Err(ServiceError::Invalid(
            Reason::BadTableId,
            "table_id is empty".into(),
        ));
    }
    if id.len() > MAX_TABLE_ID {
        return Err(ServiceError::Invalid(
            Reason::BadTableId,
            format!("table_id is longer than {MAX_TABLE_ID} bytes"),
        ));
    }
    Ok(id)
}
