//! `calabresella duplicate`: bots compared on the same deals in every seat permutation.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use calabresella_engine::Seat;
use calabresella_engine::bots::{self, Bot};
use calabresella_engine::game::{AnyMatch, Viewer};
use calabresella_engine::rng::GameRng;
use serde_json::json;

use super::GameArgs;
use super::values::BotName;

/// Arguments of `duplicate`.
#[derive(Debug, clap::Args)]
pub struct DuplicateArgs {
    /// Number of deals; each is played once per seat permutation.
    #[arg(long, default_value_t = 2000)]
    deals: u64,
    /// One bot per side (a seat, or a partnership), comma-separated; the first is compared
    /// with the rest. Default: heuristic, then random for every other side. Parameters follow
    /// a colon: `pimc:ms=50`.
    #[arg(long, value_delimiter = ',')]
    bots: Option<Vec<BotName>>,
    /// Seed for the deals and the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    game: GameArgs,
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for pos in 0..=p.len() {
            let mut q = p.clone();
            q.insert(pos, n - 1);
            out.push(q);
        }
    }
    out
}

/// Plays the dealt hand of `fresh` with `team_of[seat]`'s bot (permuted by `perm`) deciding
/// for each seat; returns each bot's points.
fn play_hand(
    fresh: &AnyMatch,
    teams: &[Vec<Seat>],
    perm: &[usize],
    bots: &mut [Box<dyn Bot + Send>],
    thinking: &mut [(Duration, u64, Duration)],
) -> Vec<i64> {
    let mut m = fresh.clone();
    let bot_of = |seat: Seat| {
        teams
            .iter()
            .position(|t| t.contains(&seat))
            .map_or(0, |i| perm[i])
    };
    while let Some(decider) = m.decider() {
        let Some(obs) = m.observation(Viewer::Seat(decider)) else {
            break;
        };
        let b = bot_of(decider);
        let start = Instant::now();
        let a = bots[b].act(&obs);
        let spent = start.elapsed();
        thinking[b].0 += spent;
        thinking[b].1 += 1;
        thinking[b].2 = thinking[b].2.max(spent);
        if m.try_apply_as(decider, a).is_err() {
            m.apply_unchecked(obs.legal_actions()[0]);
        }
    }
    let points = m.seat_points(Some(0));
    let mut per_bot = vec![0i64; bots.len()];
    for (i, team) in teams.iter().enumerate() {
        per_bot[perm[i]] += team.first().map_or(0, |&s| i64::from(points[s]));
    }
    per_bot
}

/// The permutations that seat a different bot name on some side: bots of the same name are
/// interchangeable, so one of each such set is played (a deal against four heuristic bots in a
/// five-seat game is played 5 times, not 120). Each kept arrangement stands for the same number
/// of permutations, so means over them equal means over all.
fn arrangements(perms: Vec<Vec<usize>>, names: &[String]) -> Vec<Vec<usize>> {
    let mut seen = std::collections::HashSet::new();
    perms
        .into_iter()
        .filter(|p| seen.insert(p.iter().map(|&b| names[b].clone()).collect::<Vec<_>>()))
        .collect()
}

/// Mean and 95% interval of per-deal margins.
fn summary(margins: &[f64]) -> (f64, [f64; 2]) {
    let n = margins.len().max(1) as f64;
    let mean = margins.iter().sum::<f64>() / n;
    let var = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, [mean - half, mean + half])
}

/// Runs the comparison and prints JSON: every deal is played once per permutation of the bots
/// over the sides, so each bot holds every side equally often. In the calling games every seat
/// is a side of its own (partners are secret and change every hand), so the bots are permuted
/// over all five seats: 120 plays of each deal.
pub fn run(args: DuplicateArgs) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let teams = rules.teams();
    let names: Vec<String> = match &args.bots {
        None => (0..teams.len())
            .map(|i| if i == 0 { "heuristic" } else { "random" }.to_owned())
            .collect(),
        Some(bots) => bots.iter().map(|b| b.name().to_owned()).collect(),
    };
    if names.len() != teams.len() || teams.len() < 2 {
        let sides: Vec<String> = teams.iter().map(|t| format!("{t:?}")).collect();
        bail!(
            "--bots needs one bot per side of {} ({} sides: {}), got {}",
            rules.game_name(),
            teams.len(),
            sides.join(", "),
            names.len()
        );
    }
    let mut bots: Vec<Box<dyn Bot + Send>> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        bots.push(bots::bot_from_spec(
            name,
            args.seed.wrapping_mul(31).wrapping_add(i as u64),
        )?);
    }
    let perms = arrangements(permutations(teams.len()), &names);
    let mut thinking = vec![(Duration::ZERO, 0u64, Duration::ZERO); bots.len()];
    let mut rng = GameRng::from_seed(args.seed);
    let mut totals = vec![0i64; bots.len()];
    let mut margins = Vec::with_capacity(args.deals as usize);
    for d in 0..args.deals {
        let dealer = Seat::ALL[(d % u64::from(rules.seats())) as usize];
        let mut fresh = AnyMatch::new(rules, dealer)?;
        fresh.start_hand_from(dealer, &mut rng)?;
        let mut per_deal = vec![0i64; bots.len()];
        for perm in &perms {
            for (k, pts) in play_hand(&fresh, &teams, perm, &mut bots, &mut thinking)
                .into_iter()
                .enumerate()
            {
                per_deal[k] += pts;
            }
        }
        for (t, p) in totals.iter_mut().zip(&per_deal) {
            *t += p;
        }
        // Each bot name sits every side equally often, so per-hand margins compare like with
        // like; the first bot's name against every other seat's.
        let first: i64 = (0..bots.len())
            .filter(|&k| names[k] == names[0])
            .map(|k| per_deal[k])
            .sum();
        let copies = names.iter().filter(|n| **n == names[0]).count();
        let others = bots.len() - copies;
        let rest = (per_deal.iter().sum::<i64>() - first) as f64 / others.max(1) as f64;
        margins.push((first as f64 / copies as f64 - rest) / perms.len() as f64);
    }
    let (mean, ci) = summary(&margins);
    let hands = args.deals * perms.len() as u64;
    // Per name: bots of one name share their points and their thinking time.
    let per_bot: Vec<_> = names
        .iter()
        .map(|name| {
            let same: Vec<usize> = (0..bots.len()).filter(|&k| names[k] == *name).collect();
            let points: i64 = same.iter().map(|&k| totals[k]).sum();
            let (time, decisions, longest) = same
                .iter()
                .fold((Duration::ZERO, 0u64, Duration::ZERO), |(t, d, m), &k| {
                    (t + thinking[k].0, d + thinking[k].1, m.max(thinking[k].2))
                });
            json!({
                "bot": name,
                "points_per_hand": points as f64 / (hands.max(1) * same.len() as u64) as f64,
                "decisions": decisions,
                "ms_per_decision": time.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
                "ms_longest_decision": longest.as_secs_f64() * 1000.0,
            })
        })
        .collect();
    let out = json!({
        "game": rules.game_name(),
        "deals": args.deals,
        "permutations": perms.len(),
        "hands": hands,
        "options": rules.to_string(),
        "bots": per_bot,
        "margin_per_hand": {
            "first_minus_others": mean,
            "ci95": ci,
        },
    });
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}
