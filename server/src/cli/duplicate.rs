//! `calabresella duplicate`: bots compared on the same deals in every seat permutation.

use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use calabresella_engine::Seat;
use calabresella_engine::bots::{self, Bot, BotSpec};
use calabresella_engine::game::{AnyMatch, Viewer};
use calabresella_engine::rng::GameRng;
use calabresella_engine::search::Budget;
use calabresella_engine::search::analysis::{self, AnalysisOptions};
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
    /// with the rest. Default: heuristic, then random for every other side. Bots: random,
    /// heuristic, pimc, ismcts, best (the strongest of each game); parameters follow a colon:
    /// `pimc:ms=50`.
    #[arg(long, value_delimiter = ',')]
    bots: Option<Vec<BotName>>,
    /// Seed for the deals and the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also analyse every hand played (docs/ANALYSIS.md) and report each bot's mean loss per
    /// decision with its 95% interval: a strength measure that separates bots in far fewer
    /// deals than their points do.
    #[arg(long)]
    analyse: bool,
    /// The analysis's search per decision, as `pimc` parameters (default: the analysis
    /// default, `worlds=24:work=3000`).
    #[arg(long, value_name = "SPEC", requires = "analyse")]
    analyse_budget: Option<String>,
    /// Deals played at once, each thread with its own copy of the bots (at most one per
    /// core, or the time per decision is the machine's, not the bot's). The heuristic and the
    /// search bots decide from their seed and what they see, so the result is the same for
    /// any number (a bot or `--analyse-budget` in ms excepted, as on one thread); not with
    /// `random`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
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

/// The bot (permuted by `perm`) that decides for `seat`.
fn bot_of(teams: &[Vec<Seat>], perm: &[usize], seat: Seat) -> usize {
    teams
        .iter()
        .position(|t| t.contains(&seat))
        .map_or(0, |i| perm[i])
}

/// Plays the dealt hand of `fresh` with `team_of[seat]`'s bot (permuted by `perm`) deciding
/// for each seat; returns each bot's points and the hand played.
fn play_hand(
    fresh: &AnyMatch,
    teams: &[Vec<Seat>],
    perm: &[usize],
    bots: &mut [Box<dyn Bot + Send>],
    thinking: &mut [Thinking],
) -> (Vec<i64>, AnyMatch) {
    let mut m = fresh.clone();
    let bot_of = |seat: Seat| bot_of(teams, perm, seat);
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
    (per_bot, m)
}

/// Time spent deciding by one bot: total, decisions, longest.
type Thinking = (Duration, u64, Duration);

/// One bot per side, in the order of `--bots`.
type Bots = Vec<Box<dyn Bot + Send>>;

/// What one thread played: each deal's index and result, and its bots' thinking.
type ThreadResult = Result<(Vec<(usize, DealResult)>, Vec<Thinking>)>;

/// What one deal gave each bot: its points over every arrangement, and its summed loss and
/// decisions when analysed.
struct DealResult {
    points: Vec<i64>,
    lost: Vec<(f64, u64)>,
}

/// Plays deal `fresh` once per arrangement in `perms` (and analyses each hand with
/// `analysis`, if given).
fn play_deal(
    fresh: &AnyMatch,
    teams: &[Vec<Seat>],
    perms: &[Vec<usize>],
    bots: &mut [Box<dyn Bot + Send>],
    thinking: &mut [Thinking],
    analysis: Option<&AnalysisOptions>,
) -> DealResult {
    let mut points = vec![0i64; bots.len()];
    let mut lost = vec![(0.0f64, 0u64); bots.len()];
    for perm in perms {
        let (pts, played) = play_hand(fresh, teams, perm, bots, thinking);
        for (k, p) in pts.into_iter().enumerate() {
            points[k] += p;
        }
        if let Some(analysis) = analysis {
            for d in analysis::analyse_match(&played, analysis) {
                let seat = Seat::ALL[d.seat];
                let b = bot_of(teams, perm, seat);
                lost[b].0 += d.loss;
                lost[b].1 += 1;
            }
        }
    }
    DealResult { points, lost }
}

/// Sets the flag when dropped before its thread has played its last deal (an error or a
/// panic), so that the others stop taking deals.
struct StopUnlessDone<'a> {
    stop: &'a AtomicBool,
    done: bool,
}

impl Drop for StopUnlessDone<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Plays `count` deals on `jobs` threads, each with bots built by `build`; the results in deal
/// order and each bot's thinking summed over the threads. The deals come one at a time from
/// `deal` and one stream seeded by `seed`, handed to whichever thread asks: the same deals for
/// any number of threads, and only those in play held in memory.
fn play_deals<D, B, P>(
    count: u64,
    seed: u64,
    jobs: u32,
    deal: &D,
    build: &B,
    play: &P,
) -> Result<(Vec<DealResult>, Vec<Thinking>)>
where
    D: Fn(u64, &mut GameRng) -> Result<AnyMatch> + Sync,
    B: Fn() -> Result<Bots> + Sync,
    P: Fn(&AnyMatch, &mut [Box<dyn Bot + Send>], &mut [Thinking]) -> DealResult + Sync,
{
    let count = usize::try_from(count)
        .map_err(|_| anyhow::anyhow!("--deals {count}: more than this machine can count"))?;
    let dealer = Mutex::new((0usize, GameRng::from_seed(seed)));
    // Set when a thread fails or panics: the others stop rather than play on for nothing.
    let stop = AtomicBool::new(false);
    let work = || -> ThreadResult {
        let mut guard = StopUnlessDone {
            stop: &stop,
            done: false,
        };
        let mut bots = build()?;
        let mut thinking = vec![(Duration::ZERO, 0, Duration::ZERO); bots.len()];
        let mut done = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let (d, fresh) = {
                let mut next = dealer
                    .lock()
                    .map_err(|_| anyhow::anyhow!("a duplicate thread failed"))?;
                let d = next.0;
                if d >= count {
                    break;
                }
                next.0 += 1;
                (d, deal(d as u64, &mut next.1)?)
            };
            done.push((d, play(&fresh, &mut bots, &mut thinking)));
        }
        guard.done = true;
        Ok((done, thinking))
    };
    let threads = (jobs as usize).clamp(1, count.max(1));
    let per_thread: Vec<ThreadResult> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a duplicate thread failed")))
            })
            .collect()
    });
    let mut results: Vec<Option<DealResult>> = (0..count).map(|_| None).collect();
    let mut thinking: Vec<Thinking> = Vec::new();
    for r in per_thread {
        let (done, t) = r?;
        for (d, result) in done {
            results[d] = Some(result);
        }
        if thinking.is_empty() {
            thinking = t;
        } else {
            for (sum, (time, n, longest)) in thinking.iter_mut().zip(t) {
                *sum = (sum.0 + time, sum.1 + n, sum.2.max(longest));
            }
        }
    }
    // Every thread finished, so every deal was played.
    let results = results
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| anyhow::anyhow!("a deal was not played"))?;
    Ok((results, thinking))
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

/// For each pair of bot names, the per-deal margins between them in points per hand and in
/// mean loss per decision, each with its 95% interval and the deals it needs to tell the two
/// apart (its interval clear of 0): `(1.96 sd / mean)^2`, from the margins measured.
fn pairs(
    names: &[String],
    points: &[Vec<f64>],
    losses: &[Vec<Option<f64>>],
) -> Vec<serde_json::Value> {
    let distinct: Vec<usize> = (0..names.len())
        .filter(|&i| !names[..i].contains(&names[i]))
        .collect();
    let margin = |xs: Vec<f64>| {
        let (mean, ci) = summary(&xs);
        let n = xs.len().max(1) as f64;
        let sd = (ci[1] - mean) / 1.96 * n.sqrt();
        let needed = if mean == 0.0 {
            f64::INFINITY
        } else {
            (1.96 * sd / mean).powi(2).ceil()
        };
        json!({
            "mean": mean,
            "ci95": ci,
            "separated": ci[0] > 0.0 || ci[1] < 0.0,
            "deals_to_separate": if needed.is_finite() { json!(needed) } else { json!(null) },
        })
    };
    let mut out = Vec::new();
    for (k, &a) in distinct.iter().enumerate() {
        for &b in &distinct[k + 1..] {
            let points_margin: Vec<f64> = points[a]
                .iter()
                .zip(&points[b])
                .map(|(x, y)| x - y)
                .collect();
            // The loss margin, the other way round: the stronger bot loses less.
            let loss_margin: Vec<f64> = losses[a]
                .iter()
                .zip(&losses[b])
                .filter_map(|(x, y)| Some((*y)? - (*x)?))
                .collect();
            out.push(json!({
                "bots": [names[a], names[b]],
                "points_margin_per_hand": margin(points_margin),
                "loss_margin_per_decision": margin(loss_margin),
            }));
        }
    }
    out
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
    // Every thread's bots alike: the same specs and seeds.
    let build = || -> Result<Bots> {
        let mut bots: Bots = Vec::new();
        for (i, name) in names.iter().enumerate() {
            bots.push(bots::bot_from_spec(
                name,
                args.seed.wrapping_mul(31).wrapping_add(i as u64),
            )?);
        }
        Ok(bots)
    };
    build()?; // every spec builds before any deal is played
    let n_bots = names.len();
    // `random` draws from one stream over its life, so on several threads its choices would
    // depend on which thread played which deal; the search bots decide from their seed and
    // what they see.
    if args.jobs > 1
        && names
            .iter()
            .any(|n| BotSpec::parse(n).is_ok_and(|s| s.name() == "random"))
    {
        let which = if args.bots.is_none() {
            "the default bots include random"
        } else {
            "a random bot"
        };
        bail!(
            "--jobs {}: {which}, whose choices would depend on the threads; use --jobs 1 or \
             --bots without random",
            args.jobs
        );
    }
    let analysis = match &args.analyse_budget {
        Some(spec) => AnalysisOptions {
            budget: Budget::parse(spec).map_err(|e| anyhow::anyhow!("--analyse-budget: {e}"))?,
            seed: args.seed,
            ..AnalysisOptions::default()
        },
        None => AnalysisOptions {
            seed: args.seed,
            ..AnalysisOptions::default()
        },
    };
    // Per bot name, per deal: its mean loss per decision and its points per hand.
    let mut losses: Vec<Vec<Option<f64>>> = vec![Vec::new(); names.len()];
    let mut deal_points: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let perms = arrangements(permutations(teams.len()), &names);
    // Deal `d`, dealt by each seat in turn, from the one stream of deals.
    let deal = |d: u64, rng: &mut GameRng| -> Result<AnyMatch> {
        let dealer = Seat::ALL[(d % u64::from(rules.seats())) as usize];
        let mut fresh = AnyMatch::new(rules, dealer)?;
        fresh.start_hand_from(dealer, rng)?;
        Ok(fresh)
    };
    let analyse = args.analyse.then_some(&analysis);
    let (results, thinking) = play_deals(
        args.deals,
        args.seed,
        args.jobs,
        &deal,
        &build,
        &|fresh, bots, thinking| play_deal(fresh, &teams, &perms, bots, thinking, analyse),
    )?;
    let mut totals = vec![0i64; n_bots];
    let mut margins = Vec::with_capacity(results.len());
    for DealResult {
        points: per_deal,
        lost,
    } in results
    {
        for (i, name) in names.iter().enumerate() {
            // The first bot of each name speaks for all of that name.
            if names[..i].contains(name) {
                continue;
            }
            let same = (0..n_bots).filter(|&k| names[k] == *name);
            let (sum, n, pts) = same.fold((0.0, 0, 0), |(s, n, p), k| {
                (s + lost[k].0, n + lost[k].1, p + per_deal[k])
            });
            let copies = names.iter().filter(|x| *x == name).count();
            deal_points[i].push(pts as f64 / (perms.len() * copies) as f64);
            losses[i].push((n > 0).then(|| sum / n as f64));
        }
        for (t, p) in totals.iter_mut().zip(&per_deal) {
            *t += p;
        }
        // Each bot name sits every side equally often, so per-hand margins compare like with
        // like; the first bot's name against every other seat's.
        let first: i64 = (0..n_bots)
            .filter(|&k| names[k] == names[0])
            .map(|k| per_deal[k])
            .sum();
        let copies = names.iter().filter(|n| **n == names[0]).count();
        let others = n_bots - copies;
        let rest = (per_deal.iter().sum::<i64>() - first) as f64 / others.max(1) as f64;
        margins.push((first as f64 / copies as f64 - rest) / perms.len() as f64);
    }
    let (mean, ci) = summary(&margins);
    let hands = args.deals.saturating_mul(perms.len() as u64);
    // Per name: bots of one name share their points and their thinking time.
    let per_bot: Vec<_> = names
        .iter()
        .map(|name| {
            let same: Vec<usize> = (0..n_bots).filter(|&k| names[k] == *name).collect();
            let points: i64 = same.iter().map(|&k| totals[k]).sum();
            let (time, decisions, longest) = same
                .iter()
                .fold((Duration::ZERO, 0u64, Duration::ZERO), |(t, d, m), &k| {
                    (t + thinking[k].0, d + thinking[k].1, m.max(thinking[k].2))
                });
            let i = names.iter().position(|x| x == name).unwrap_or(0);
            let (_, points_ci) = summary(&deal_points[i]);
            let mut row = json!({
                "bot": name,
                "points_per_hand": points as f64 / (hands.max(1).saturating_mul(same.len() as u64)) as f64,
                "points_per_hand_ci95": points_ci,
                "decisions": decisions,
                "ms_per_decision": time.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
                "ms_longest_decision": longest.as_secs_f64() * 1000.0,
            });
            if args.analyse {
                let mine: Vec<f64> = losses[i].iter().flatten().copied().collect();
                let (mean, ci) = summary(&mine);
                row["mean_loss_per_decision"] = json!({
                    "mean": mean,
                    "ci95": ci,
                    "deals": mine.len(),
                });
            }
            row
        })
        .collect();
    let mut out = json!({
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
    if args.analyse {
        out["analysis"] = json!({
            "budget": analysis::budget_text(&analysis.budget),
            "seed": analysis.seed,
            "pairs": pairs(&names, &deal_points, &losses),
        });
    }
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // In tests a panic is the failure report.
mod tests {
    use super::*;
    use calabresella_engine::game::Rules;

    /// Deal `d` of one stream, and a fingerprint of its cards.
    fn dealt(d: u64, rng: &mut GameRng) -> Result<AnyMatch> {
        let rules = Rules::parse("tressette-in-due", []).unwrap();
        let mut m = AnyMatch::new(rules, Seat::ALL[(d % 2) as usize])?;
        m.start_hand_from(Seat::ALL[(d % 2) as usize], rng)?;
        Ok(m)
    }

    fn fingerprint(m: &AnyMatch) -> i64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{m:?}").hash(&mut h);
        h.finish() as i64
    }

    #[test]
    fn deals_come_back_in_order_whatever_thread_played_them() {
        let run = |jobs: u32| {
            let (results, thinking) = play_deals(
                7,
                3,
                jobs,
                &dealt,
                &|| Ok(Vec::new()),
                &|m: &AnyMatch, _: &mut [Box<dyn Bot + Send>], _: &mut [Thinking]| DealResult {
                    points: vec![fingerprint(m)],
                    lost: Vec::new(),
                },
            )
            .unwrap();
            assert!(thinking.is_empty());
            results.into_iter().map(|r| r.points[0]).collect::<Vec<_>>()
        };
        let one = run(1);
        assert_eq!(one.len(), 7);
        let distinct: std::collections::HashSet<_> = one.iter().collect();
        assert_eq!(distinct.len(), 7, "seven different deals");
        // More threads than deals, and a few: the same deals in the same order.
        assert_eq!(run(3), one);
        assert_eq!(run(12), one);
    }

    #[test]
    fn a_failed_deal_fails_the_run() {
        let failing = |d: u64, rng: &mut GameRng| {
            if d == 4 {
                bail!("deal 4 failed")
            }
            dealt(d, rng)
        };
        for jobs in [1, 3] {
            let err = play_deals(
                50,
                3,
                jobs,
                &failing,
                &|| Ok(Vec::new()),
                &|_: &AnyMatch, _: &mut [Box<dyn Bot + Send>], _: &mut [Thinking]| DealResult {
                    points: Vec::new(),
                    lost: Vec::new(),
                },
            )
            .err()
            .unwrap();
            assert!(err.to_string().contains("deal 4 failed"), "{err}");
        }
    }
}
