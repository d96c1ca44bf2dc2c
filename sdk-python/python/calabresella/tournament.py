"""Headless tournaments: many matches in-process, duplicate format, leagues of more bots than
seats, confidence intervals, ratings, every fault, records, JSON and CSV export."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calabresella import _core, analysis
from calabresella.bots import BotLike


@dataclass
class BotResult:
    """One bot's results over the tournament."""

    name: str
    """The bot's name."""
    matches: int = 0
    """Matches it sat in."""
    wins: int = 0
    """Matches its seat (or one of its seats) won under the game's rules, a shared win
    included: a Calabresella defender wins with the other defender, a Tressette player with
    its partner."""
    wins_alone: int = 0
    """Matches it won alone: every winning seat was its own (a win shared with another bot,
    a partner or a co-defender, does not count)."""
    points: float = 0.0
    """Points scored in all (per match: the mean over the seats it held)."""
    mean: float = 0.0
    """Mean points per match."""
    ci95: tuple[float, float] = (0.0, 0.0)
    """95% confidence interval of the mean (over deals in duplicate: permutations averaged
    first, which removes the luck of the cards)."""
    win_rate: float = 0.0
    """Share of its matches won (``wins``)."""
    win_rate_alone: float = 0.0
    """Share of its matches won alone (``wins_alone``): the measure to rank bots by wins."""
    faults: int = 0
    """Answers replaced by the first legal action (illegal, unparsable or raised)."""
    errors: list[str] = field(default_factory=list)
    """Every fault, in match order: ``"match M, seat S, action A: what went wrong"``."""
    forfeits: int = 0
    """Matches it lost by answering over ``move_limit_ms`` with ``on_slow="forfeit"``."""
    rating_mu: float | None = None
    """OpenSkill (Plackett-Luce) rating mean, when openskill is installed."""
    rating_sigma: float | None = None
    """Its uncertainty."""
    rating: float | None = None
    """The conservative ordinal ``mu - 3 sigma``."""
    mean_loss: float | None = None
    """With ``analyse=True``: its mean loss per decision in points (docs/ANALYSIS.md), the
    strength measure that separates bots in far fewer deals than points do."""
    mean_loss_ci95: tuple[float, float] | None = None
    """Its 95% confidence interval (over deals: each deal's loss per decision is one value)."""
    decisions: int = 0
    """With ``analyse=True``: its decisions with a choice, all analysed."""


@dataclass
class TournamentResult:
    """What :func:`tournament` returns."""

    game: str
    """The game played."""
    deals: int
    """Deals (match seeds) used."""
    duplicate: bool
    """Whether each deal was played through every seat permutation."""
    bots: list[BotResult]
    """Per bot, in the order given."""
    first_error: str | None = None
    """The first bot fault seen, with its traceback, for debugging."""
    errors: list[tuple[int, int, int, str]] = field(default_factory=list)
    """Every bot fault: (match, seat, action index in the match, message with traceback)."""
    seeds: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))
    """Per match: the deal seed."""
    seatings: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    """Per match and seat: the index of the bot sitting there."""
    returns: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    """Per match and seat: points (match totals, or the hand's award)."""
    won: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    """Per match and seat: whether the seat won."""
    hands: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))
    """Per match: hands played (void deals included)."""
    actions: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))
    """Per match: actions taken."""
    records: list[str] | None = None
    """Per match: the record (format v1 JSON text), with ``keep_records=True``."""

    def table(self) -> str:
        """The results as a text table, best mean first."""
        rows = sorted(self.bots, key=lambda b: -b.mean)
        out = [
            f"{'bot':<16} {'matches':>7} {'alone':>6} {'alone%':>6} {'mean':>8} "
            f"{'95% CI':>17} {'rating':>7} {'faults':>6}"
        ]
        for b in rows:
            rating = "-" if b.rating is None else f"{b.rating:7.2f}"
            out.append(
                f"{b.name:<16} {b.matches:>7} {b.wins_alone:>6} {100 * b.win_rate_alone:>5.1f}% "
                f"{b.mean:>8.3f} [{b.ci95[0]:>7.3f},{b.ci95[1]:>7.3f}] {rating:>7} {b.faults:>6}"
            )
        return "\n".join(out)

    @property
    def num_matches(self) -> int:
        """Matches played."""
        return int(self.hands.shape[0])

    def to_json(self) -> str:
        """The summary per bot, every match (seed, who sat where, points, winners) and every
        fault, as JSON; records are saved apart (``records=``)."""
        return json.dumps(
            {
                "game": self.game,
                "deals": self.deals,
                "duplicate": self.duplicate,
                "matches": self.num_matches,
                "bots": [asdict(b) for b in self.bots],
                "first_error": self.first_error,
                "match_rows": self._match_rows(),
            },
            indent=2,
        )

    def _match_rows(self) -> list[dict[str, Any]]:
        names = [b.name for b in self.bots]
        return [
            {
                "match": j,
                "seed": int(self.seeds[j]),
                "seats": [names[int(k)] for k in self.seatings[j]],
                "points": [float(x) for x in self.returns[j]],
                "won": [bool(x) for x in self.won[j]],
                "hands": int(self.hands[j]),
                "actions": int(self.actions[j]),
            }
            for j in range(self.num_matches)
        ]

    def to_csv(self) -> str:
        """The summary per bot as CSV, one row per bot (best mean first), with a header."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(
            [
                "bot", "matches", "wins", "wins_alone", "win_rate", "win_rate_alone",
                "points", "mean", "ci95_low", "ci95_high", "rating", "rating_mu",
                "rating_sigma", "faults", "forfeits", "mean_loss", "mean_loss_ci95_low",
                "mean_loss_ci95_high",
            ]
        )  # fmt: skip
        for b in sorted(self.bots, key=lambda b: -b.mean):
            w.writerow(
                [
                    b.name, b.matches, b.wins, b.wins_alone, b.win_rate, b.win_rate_alone,
                    b.points, b.mean, b.ci95[0], b.ci95[1], b.rating, b.rating_mu,
                    b.rating_sigma, b.faults, b.forfeits, b.mean_loss,
                    b.mean_loss_ci95[0] if b.mean_loss_ci95 else None,
                    b.mean_loss_ci95[1] if b.mean_loss_ci95 else None,
                ]
            )  # fmt: skip
        return buf.getvalue()

    def matches_csv(self) -> str:
        """Every match as CSV, one row per match and seat: the seed, the bot there, its
        points and whether it won; then the match's hands and actions."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["match", "seed", "seat", "bot", "points", "won", "hands", "actions"])
        for row in self._match_rows():
            for seat, (bot, pts, won) in enumerate(
                zip(row["seats"], row["points"], row["won"], strict=True)
            ):
                w.writerow(
                    [row["match"], row["seed"], seat, bot, pts, int(won), row["hands"],
                     row["actions"]]
                )  # fmt: skip
        return buf.getvalue()

    def __str__(self) -> str:
        return self.table()


def _seatings(n_bots: int, seats: int, deal: int, duplicate: bool) -> list[tuple[int, ...]]:
    if n_bots > seats:
        # A league: every ordered choice of distinct bots for the seats; without duplicate,
        # one per deal in turn.
        every = list(itertools.permutations(range(n_bots), seats))
        return every if duplicate else [every[deal % len(every)]]
    base = [i % n_bots for i in range(seats)]
    if duplicate:
        # Every distinct assignment of the bots to the seats, in a fixed order.
        return sorted(set(itertools.permutations(base)))
    shift = deal % seats
    return [tuple(base[shift:] + base[:shift])]


def _mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    k = len(values)
    if k == 0:
        return 0.0, (0.0, 0.0)
    mean = sum(values) / k
    if k == 1:
        return mean, (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    half = 1.96 * math.sqrt(var / k)
    return mean, (mean - half, mean + half)


class _TextBar:
    """A minimal progress bar on stderr, used when tqdm is not installed. On a terminal it is
    redrawn in place when it moves by a percent; into a file or a pipe (a log), where every
    redraw would be a line of its own, it writes a line at every tenth."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.tty = sys.stderr.isatty()
        self.shown = -1

    def update(self, n: int) -> None:
        self.done += n
        step = 100 if self.tty else 10
        mark = step * min(self.done, self.total) // self.total
        if mark == self.shown:
            return
        self.shown = mark
        width = 30
        filled = width * min(self.done, self.total) // self.total
        bar = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} matches"
        sys.stderr.write(f"\r{bar}" if self.tty else f"{bar}\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return _TextBar(total)
    return tqdm(total=total, unit="match", desc="tournament")


def _rate(results: list[BotResult], scores: np.ndarray, deal_index: np.ndarray, deals: int) -> None:
    """OpenSkill ratings, one update per deal (its permutations' mean points rank the bots)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return
    model = PlackettLuce()
    ratings = [model.rating(name=b.name) for b in results]
    for d in range(deals):
        rows = scores[deal_index == d]
        if rows.size == 0:
            continue
        seen = ~np.isnan(rows).all(axis=0)
        bots = [b for b in range(len(results)) if seen[b]]
        if len(bots) < 2:
            continue
        means = [float(np.nanmean(rows[:, b])) for b in bots]
        new = model.rate([[ratings[b]] for b in bots], scores=means)
        for i, team in zip(bots, new, strict=True):
            ratings[i] = team[0]
    for res, r in zip(results, ratings, strict=True):
        res.rating_mu = float(r.mu)
        res.rating_sigma = float(r.sigma)
        res.rating = float(r.ordinal())


@dataclass
class Plan:
    """Every match of a tournament, fixed before any is played: so a tournament split into
    shards (over threads, processes or Ray tasks) pools into exactly the result of one run."""

    game: str
    """The game."""
    options: dict[str, Any]
    """Rule options."""
    names: list[str]
    """The bots' names, in order."""
    entries: list[BotLike]
    """The bots, in order."""
    deals: int
    """Deals (match seeds)."""
    duplicate: bool
    """Whether each deal is played through every seating."""
    episode: str
    """``"match"`` or ``"hand"``."""
    seeds: np.ndarray
    """Per match: the deal seed."""
    seatings: np.ndarray
    """Per match and seat: the index of the bot sitting there."""
    deal_index: np.ndarray
    """Per match: the deal it plays."""
    move_limit_ms: float | None = None
    """The longest a bot may take over one answer (None: no limit)."""
    on_slow: str = "fallback"
    """Over the limit: ``"fallback"`` (the heuristic answers for it) or ``"forfeit"``."""

    @property
    def num_matches(self) -> int:
        """Matches in the plan."""
        return int(self.seeds.shape[0])


def plan(
    bots: Sequence[BotLike] | Mapping[str, BotLike],
    game: str = "calabresella",
    *,
    deals: int = 100,
    seed: int = 0,
    duplicate: bool = True,
    episode: str = "match",
    move_limit_ms: float | None = None,
    on_slow: str = "fallback",
    **options: Any,
) -> Plan:
    """The matches :func:`tournament` plays for these arguments (checked: bots, deals, seats)."""
    if on_slow not in ("fallback", "forfeit"):
        raise _core.NotationError(f'on_slow is "fallback" or "forfeit", not {on_slow!r}')
    if move_limit_ms is not None and not 0 < move_limit_ms <= 86_400_000:
        raise _core.NotationError(
            f"move_limit_ms is a positive number of milliseconds, not {move_limit_ms}"
        )
    if isinstance(bots, Mapping):
        names = [str(k) for k in bots]
        entries = list(bots.values())
    else:
        entries = list(bots)
        names = []
        for i, b in enumerate(entries):
            base = b if isinstance(b, str) else getattr(b, "name", None) or type(b).__name__
            if callable(b) and not hasattr(b, "act") and hasattr(b, "__name__"):
                base = b.__name__
            names.append(f"{base}#{i}" if str(base) in names else str(base))
    if not entries:
        raise _core.NotationError("a tournament needs at least one bot")
    if deals < 1:
        raise _core.NotationError("deals must be at least 1")
    if episode not in ("match", "hand"):
        raise _core.NotationError(f'episode is "match" or "hand", not {episode!r}')
    seats = _core.State.new_hand(game, seed=0, **options).num_players
    seed_rng = random.Random(seed)
    deal_seeds = np.array([seed_rng.getrandbits(64) for _ in range(deals)], dtype=np.uint64)
    if duplicate:
        perms = np.array(_seatings(len(entries), seats, 0, True), dtype=np.int64)
        seating = np.tile(perms, (deals, 1))
        deal_index = np.repeat(np.arange(deals, dtype=np.int64), len(perms))
    else:
        seating = np.array(
            [_seatings(len(entries), seats, d, False)[0] for d in range(deals)], dtype=np.int64
        )
        deal_index = np.arange(deals, dtype=np.int64)
    return Plan(
        game=game,
        options=dict(options),
        names=names,
        entries=entries,
        deals=deals,
        duplicate=duplicate,
        episode=episode,
        seeds=deal_seeds[deal_index],
        seatings=seating,
        deal_index=deal_index,
        move_limit_ms=move_limit_ms,
        on_slow=on_slow,
    )


def play_shard(
    p: Plan,
    start: int,
    stop: int,
    *,
    threads: int = 0,
    records: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Plays the plan's matches ``start..stop`` and returns what ``_core.play_matches`` does
    for them (per-match arrays in plan order)."""
    meta = [json.dumps(_bot_meta(name, bot)) for name, bot in zip(p.names, p.entries, strict=True)]
    out: dict[str, Any] = _core.play_matches(
        p.game,
        dict(p.options),
        list(p.entries),
        np.ascontiguousarray(p.seeds[start:stop]),
        np.ascontiguousarray(p.seatings[start:stop]),
        episode=p.episode,
        threads=threads,
        records=records,
        progress=progress,
        move_limit_ms=p.move_limit_ms,
        on_slow=p.on_slow,
        bot_meta=meta,
        first_match=start,
    )
    return out


def _bot_meta(name: str, bot: BotLike) -> dict[str, Any]:
    """What a record's ``meta`` says of a bot: its name, what it is, and its version (a built-in
    bot's is the package's; a Python bot's is its ``version`` attribute, if it has one)."""
    if isinstance(bot, str):
        return {"name": name, "bot": bot, "version": _core.__version__}
    version = getattr(bot, "version", None)
    kind = getattr(bot, "__qualname__", None) or type(bot).__qualname__
    return {
        "name": name,
        "bot": f"python:{kind}",
        "version": None if version is None else str(version),
    }


def pool_shards(shards: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The shards' outputs (in plan order) joined into one, as if played in one call."""
    out: dict[str, Any] = {}
    for key in ("returns", "won", "faults", "forfeits", "draw", "hands", "actions"):
        out[key] = np.concatenate([s[key] for s in shards])
    errors: list[tuple[int, int, int, str]] = []
    offset = 0
    for s in shards:
        errors.extend((row + offset, seat, at, e) for row, seat, at, e in s.get("errors", []))
        offset += int(s["hands"].shape[0])
    out["errors"] = errors
    recs = [s["records"] for s in shards]
    out["records"] = None if any(r is None for r in recs) else [t for r in recs for t in r]
    out["first_error"] = next((s["first_error"] for s in shards if s["first_error"]), None)
    return out


def summarise(
    p: Plan,
    out: dict[str, Any],
    *,
    ratings: bool = True,
    records: str | Path | None = None,
    keep_records: bool = False,
) -> TournamentResult:
    """The tournament's result from every match of the plan played (``out`` as
    :func:`play_shard` or :func:`pool_shards` return it)."""
    returns: np.ndarray = out["returns"]
    won: np.ndarray = out["won"]
    faults: np.ndarray = out["faults"]
    if returns.shape[0] != p.num_matches:
        raise _core.NotationError(
            f"the plan has {p.num_matches} matches; {returns.shape[0]} were played"
        )
    seating, deal_index, deals = p.seatings, p.deal_index, p.deals
    total = p.num_matches
    results = [BotResult(name=n) for n in p.names]
    # scores[j, b]: bot b's points in match j (mean over its seats); NaN where it did not sit.
    scores = np.full((total, len(p.entries)), np.nan)
    for k, r in enumerate(results):
        held = seating == k
        count = held.sum(axis=1)
        sat = count > 0
        scores[sat, k] = (returns * held).sum(axis=1)[sat] / count[sat]
        r.matches = int(sat.sum())
        r.points = float(np.nansum(scores[:, k]))
        r.wins = int((won & held).any(axis=1).sum())
        # Alone: it won, and no seat of another bot did.
        r.wins_alone = int(((won & held).any(axis=1) & ~(won & ~held).any(axis=1)).sum())
        r.faults = int((faults * held).sum())
        r.forfeits = int((out["forfeits"] & held).sum())
        r.win_rate = r.wins / r.matches if r.matches else 0.0
        r.win_rate_alone = r.wins_alone / r.matches if r.matches else 0.0
        # Duplicate: average each deal's permutations first, then the CI over deals.
        sums = np.bincount(deal_index[sat], weights=scores[sat, k], minlength=deals)
        counts = np.bincount(deal_index[sat], minlength=deals)
        per_deal = sums[counts > 0] / counts[counts > 0]
        r.mean, r.ci95 = _mean_ci(per_deal.tolist())
    errors: list[tuple[int, int, int, str]] = [
        (int(j), int(seat), int(at), str(e)) for j, seat, at, e in out.get("errors", [])
    ]
    for j, seat, at, e in errors:
        results[int(seating[j, seat])].errors.append(f"match {j}, seat {seat}, action {at}: {e}")
    if ratings:
        _rate(results, scores, deal_index, deals)
    recs: list[str] | None = out["records"]
    if records is not None and recs is not None:
        folder = Path(records)
        folder.mkdir(parents=True, exist_ok=True)
        for i, text in enumerate(recs):
            (folder / f"match-{i:06d}.json").write_text(text, encoding="utf-8")
    result = TournamentResult(
        game=p.game,
        deals=deals,
        duplicate=p.duplicate,
        bots=results,
        first_error=out["first_error"],
        errors=errors,
    )
    result.seeds = p.seeds
    result.seatings = seating
    result.returns = returns
    result.won = won
    result.hands = out["hands"]
    result.actions = out["actions"]
    result.records = recs if keep_records else None
    return result


def tournament(
    bots: Sequence[BotLike] | Mapping[str, BotLike],
    game: str = "calabresella",
    *,
    deals: int = 100,
    seed: int = 0,
    duplicate: bool = True,
    episode: str = "match",
    threads: int = 0,
    progress: bool = True,
    records: str | Path | None = None,
    keep_records: bool = False,
    ratings: bool = True,
    move_limit_ms: float | None = None,
    on_slow: str = "fallback",
    analyse: bool = False,
    analyse_budget: str | None = None,
    **options: Any,
) -> TournamentResult:
    """Plays ``deals`` deals between ``bots`` and summarises the results.

    ``bots`` is a list (names are taken from the bots) or a dict ``name -> bot``; a bot is a
    built-in name (``"random"``, ``"heuristic"``, ``"pimc"``, ``"pimc:ms=50"``, ``"ismcts"`` or
    ``"best"``), an object with
    ``act(observation)`` or a
    function. Each deal is a match seed; with ``duplicate`` (the default) it is played once
    for every distinct seating of the bots, so each bot meets the same cards from every seat.
    With more bots than seats it is a league: every ordered choice of distinct bots for the
    seats plays each deal (without ``duplicate``, one choice per deal in turn). Every fault is
    kept (``errors``, and per bot); ``to_json()``, ``to_csv()`` and ``matches_csv()`` export
    the results. ``wins_alone`` counts only wins no other bot shared: the game's own winners
    include partners and, in Calabresella's pooled match end, both defenders.
    ``move_limit_ms`` bounds each answer: a slower one is a fault and, by ``on_slow``, the
    heuristic answers for the bot (``"fallback"``, the default) or the bot forfeits the match
    (``"forfeit"``: every other side wins, the points are those scored so far). Each record's
    ``meta`` says who sat where (name, bot, version), the match and its seed.
    ``episode`` is ``"match"`` (whole matches, the default) or ``"hand"``. Matches between
    built-in bots run on ``threads`` Rust threads (0: every core) without the GIL.
    ``records`` names a folder to save every match record in (format v1, one JSON file per
    match); ``keep_records`` keeps them in ``matches[i]["record"]`` too. Rule options are
    keyword arguments. Ratings use OpenSkill when it is installed (``pip install
    calabresella[tournament]``); the progress bar uses tqdm when installed.
    ``calabresella.ray.tournament`` plays the same matches over a Ray cluster.
    ``analyse`` analyses every match played (:func:`calabresella.analyse`, on ``threads``
    threads, ``analyse_budget`` as ``pimc`` parameters) and gives each bot its mean loss per
    decision with its interval (``mean_loss``, ``mean_loss_ci95``).
    """
    if threads < 0:
        raise _core.NotationError(f"threads is 0 (every core) or more, not {threads}")
    p = plan(
        bots,
        game,
        deals=deals,
        seed=seed,
        duplicate=duplicate,
        episode=episode,
        move_limit_ms=move_limit_ms,
        on_slow=on_slow,
        **options,
    )
    bar = _progress_bar(p.num_matches, progress)
    last = [0]

    def tick(done: int) -> None:
        if bar is not None:
            bar.update(done - last[0])
        last[0] = done

    keep = keep_records or records is not None or analyse
    try:
        out = play_shard(
            p,
            0,
            p.num_matches,
            threads=threads,
            records=keep,
            progress=tick if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.close()
    result = summarise(p, out, ratings=ratings, records=records, keep_records=keep_records)
    if analyse:
        _analyse(result, out["records"], p.deal_index, budget=analyse_budget, threads=threads)
    return result


def _analyse(
    result: TournamentResult,
    records: list[str],
    deal_of: np.ndarray,
    *,
    budget: str | None,
    threads: int,
) -> None:
    """Fills each bot's ``mean_loss``, ``mean_loss_ci95`` and ``decisions`` from the analysis
    of every match: per deal, the bot's losses over its decisions in all the deal's matches."""

    def one(j: int) -> list[tuple[int, float]]:
        # The match's own seed seeds its worlds: the same tournament, the same figures.
        a = analysis.analyse(records[j], budget=budget, seed=int(result.seeds[j]))
        return [(int(result.seatings[j, d.seat]), d.loss) for d in a.decisions]

    # The analysis runs without the GIL: threads share the cores.
    workers = threads or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=workers) as pool:
        per_match = list(pool.map(one, range(len(records))))
    deals = result.deals
    for k, bot in enumerate(result.bots):
        lost = np.zeros(deals)
        count = np.zeros(deals)
        for j, decisions in enumerate(per_match):
            for b, loss in decisions:
                if b == k:
                    lost[deal_of[j]] += loss
                    count[deal_of[j]] += 1
        bot.decisions = int(count.sum())
        per_deal = (lost[count > 0] / count[count > 0]).tolist()
        if per_deal:
            bot.mean_loss, bot.mean_loss_ci95 = _mean_ci(per_deal)


ProgressCallback = Callable[[int], None]
"""Called with the number of matches finished so far."""
