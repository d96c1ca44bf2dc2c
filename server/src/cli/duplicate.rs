//! `calabresella duplicate`: bots compared on the same deals in every seat permutation.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::Seat;
use calabresella_engine::bots::{self, BOT_NAMES, Bot};
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
    /// with the rest. Default: heuristic, then random for every other side.
    #[arg(long, value_enum, value_delimiter = ',')]
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
        let a = bots[bot_of(decider)].act(&obs);
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
        bots.push(
            bots::by_name(name, args.seed.wrapping_mul(31).wrapping_add(i as u64)).with_context(
                || format!("unknown bot {name:?}; known: {}", BOT_NAMES.join(", ")),
            )?,
        );
    }
    let perms = permutations(teams.len());
    let mut rng = GameRng::from_seed(args.seed);
    let mut totals = vec![0i64; bots.len()];
    let mut margins = Vec::with_capacity(args.deals as usize);
    for d in 0..args.deals {
        let dealer = Seat::ALL[(d % u64::from(rules.seats())) as usize];
        let mut fresh = AnyMatch::new(rules, dealer)?;
        fresh.start_hand_from(dealer, &mut rng)?;
        let mut per_deal = vec![0i64; bots.len()];
        for perm in &perms {
            for (k, pts) in play_hand(&fresh, &teams, perm, &mut bots)
                .into_iter()
                .enumerate()
            {
                per_deal[k] += pts;
            }
        }
        for (t, p) in totals.iter_mut().zip(&per_deal) {
            *t += p;
        }
        // Each bot sits every side equally often, so per-hand margins compare like with like.
        let first = per_deal[0] as f64;
        let rest = per_deal[1..].iter().sum::<i64>() as f64 / (bots.len() - 1).max(1) as f64;
        margins.push((first - rest) / perms.len() as f64);
    }
    let (mean, ci) = summary(&margins);
    let hands = args.deals * perms.len() as u64;
    let per_bot: Vec<_> = names
        .iter()
        .zip(&totals)
        .map(|(name, t)| json!({"bot": name, "points_per_hand": *t as f64 / hands.max(1) as f64}))
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
