//! `calabresella duplicate`: bots compared on the same deals in every seat permutation.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::Seat;
use calabresella_engine::bots::{self, BOT_NAMES, Bot};
use calabresella_engine::calabresella::{Deal, Hand, Options, Viewer};
use calabresella_engine::rng::GameRng;
use calabresella_engine::tressette;
use serde_json::json;

use super::{GameArgs, Rules};

/// The default `--bots`.
const DEFAULT_BOTS: &str = "heuristic,random,random";

/// Arguments of `duplicate`.
#[derive(Debug, clap::Args)]
pub struct DuplicateArgs {
    /// Number of deals; each is played once per seat permutation.
    #[arg(long, default_value_t = 2000)]
    deals: u64,
    /// One bot per deciding seat, comma-separated; the first is compared with the rest.
    /// Default: heuristic,random,random (calabresella); heuristic,random (tressette).
    #[arg(long, default_value = DEFAULT_BOTS, value_delimiter = ',')]
    bots: Vec<String>,
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

fn play_hand(
    opts: Options,
    dealer: Seat,
    deal: Deal,
    seats: &[Seat],
    perm: &[usize],
    bots: &mut [Box<dyn Bot + Send>],
) -> Vec<u32> {
    let mut hand = Hand::new_unchecked(opts, dealer, deal);
    while let Some(actor) = hand.actor() {
        let decider = hand.controller(actor);
        let k = seats
            .iter()
            .position(|&s| s == decider)
            .map_or(0, |i| perm[i]);
        let obs = hand.observation(Viewer::Seat(decider));
        let a = bots[k].act(&obs);
        if hand.try_apply_as(decider, a).is_err() {
            hand.apply_unchecked(obs.legal_actions[0]);
        }
    }
    let award = hand.outcome().map(|o| o.award()).unwrap_or_default();
    let mut per_bot = vec![0; bots.len()];
    for (i, &s) in seats.iter().enumerate() {
        per_bot[perm[i]] += award[s];
    }
    per_bot
}

/// Runs the comparison and prints JSON.
pub fn run(args: DuplicateArgs) -> Result<ExitCode> {
    match args.game.rules()? {
        Rules::Calabresella(opts) => duplicate_calabresella(&args, opts),
        Rules::Tressette(opts) => duplicate_tressette(&args, opts),
    }
}

/// Mean and 95% interval of per-deal margins.
fn summary(margins: &[f64]) -> (f64, [f64; 2]) {
    let n = margins.len().max(1) as f64;
    let mean = margins.iter().sum::<f64>() / n;
    let var = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, [mean - half, mean + half])
}

/// Tressette: the first bot holds one side's seats and the second the other's; every deal is
/// played twice with the sides swapped.
fn duplicate_tressette(args: &DuplicateArgs, opts: tressette::Options) -> Result<ExitCode> {
    let bots_given: Vec<String> = if args.bots.join(",") == DEFAULT_BOTS {
        vec!["heuristic".into(), "random".into()]
    } else {
        args.bots.clone()
    };
    if bots_given.len() != 2 {
        bail!(
            "--bots needs two bots for {}: the first plays one side, the second the other",
            opts.variant.game()
        );
    }
    let mut pair: Vec<Box<dyn Bot<tressette::Observation> + Send>> = Vec::new();
    for (i, name) in bots_given.iter().enumerate() {
        pair.push(
            bots::by_name(name, args.seed.wrapping_mul(31).wrapping_add(i as u64)).with_context(
                || format!("unknown bot {name:?}; known: {}", BOT_NAMES.join(", ")),
            )?,
        );
    }
    let n = opts.variant.players();
    let mut rng = GameRng::from_seed(args.seed);
    let mut points = [0u64; 2];
    let mut margins = Vec::with_capacity(args.deals as usize);
    for d in 0..args.deals {
        let dealer = Seat::ALL[(d % u64::from(n)) as usize];
        let deal = tressette::Deal::shuffled(&mut rng, opts.variant, dealer);
        let mut margin = 0.0;
        for swap in [0usize, 1] {
            let mut hand = tressette::Hand::new_unchecked(opts, dealer, deal);
            while let Some(seat) = hand.actor() {
                let bot = tressette::side_of(seat) ^ swap;
                let obs = hand.observation(Some(seat));
                let a = pair[bot].act(&obs);
                if hand.try_apply_as(seat, a).is_err() {
                    hand.apply_unchecked(obs.legal_actions[0]);
                }
            }
            let o = hand
                .outcome()
                .copied()
                .context("a played-out hand has an outcome")?;
            let (first, second) = (o.points[swap], o.points[1 - swap]);
            points[0] += u64::from(first);
            points[1] += u64::from(second);
            margin += (f64::from(first) - f64::from(second)) / 2.0;
        }
        margins.push(margin);
    }
    let (mean, ci) = summary(&margins);
    let hands = (args.deals * 2).max(1) as f64;
    let out = json!({
        "game": opts.variant.game(),
        "deals": args.deals,
        "hands": args.deals * 2,
        "options": opts.to_string(),
        "bots": [
            {"bot": bots_given[0], "points_per_hand": points[0] as f64 / hands},
            {"bot": bots_given[1], "points_per_hand": points[1] as f64 / hands},
        ],
        "margin_per_hand": {"first_minus_second": mean, "ci95": ci},
    });
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}

fn duplicate_calabresella(args: &DuplicateArgs, opts: Options) -> Result<ExitCode> {
    let seats: Vec<Seat> = Seat::first_n(opts.players)
        .filter(|&s| !(opts.a_due && s == Options::DUMMY))
        .collect();
    if args.bots.len() != seats.len() {
        bail!(
            "--bots needs one bot per deciding seat ({}), got {}",
            seats.len(),
            args.bots.len()
        );
    }
    let mut bots: Vec<Box<dyn Bot + Send>> = Vec::new();
    for (i, name) in args.bots.iter().enumerate() {
        bots.push(
            bots::by_name(name, args.seed.wrapping_mul(31).wrapping_add(i as u64)).with_context(
                || format!("unknown bot {name:?}; known: {}", BOT_NAMES.join(", ")),
            )?,
        );
    }
    let perms = permutations(seats.len());
    let mut rng = GameRng::from_seed(args.seed);
    let mut totals = vec![0u64; bots.len()];
    let mut margins = Vec::with_capacity(args.deals as usize);
    for d in 0..args.deals {
        let dealer = Seat::ALL[(d % u64::from(opts.players)) as usize];
        let deal = Deal::shuffled(&mut rng, opts.players, dealer);
        let mut per_deal = vec![0u64; bots.len()];
        for perm in &perms {
            for (k, pts) in play_hand(opts, dealer, deal, &seats, perm, &mut bots)
                .into_iter()
                .enumerate()
            {
                per_deal[k] += u64::from(pts);
            }
        }
        for (t, p) in totals.iter_mut().zip(&per_deal) {
            *t += p;
        }
        // Each bot sits every seat equally often, so per-hand margins compare like with like.
        let first = per_deal[0] as f64;
        let rest = per_deal[1..].iter().sum::<u64>() as f64 / (bots.len() - 1).max(1) as f64;
        margins.push((first - rest) / perms.len() as f64);
    }
    let (mean, ci) = summary(&margins);
    let hands = args.deals * perms.len() as u64;
    let per_bot: Vec<_> = args
        .bots
        .iter()
        .zip(&totals)
        .map(|(name, t)| json!({"bot": name, "award_per_hand": *t as f64 / hands.max(1) as f64}))
        .collect();
    let out = json!({
        "deals": args.deals,
        "permutations": perms.len(),
        "hands": hands,
        "options": opts.to_string(),
        "bots": per_bot,
        "margin_per_hand": {
            "first_minus_others": mean,
            "ci95": ci,
        },
    });
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}
