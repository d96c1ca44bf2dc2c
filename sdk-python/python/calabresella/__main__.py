"""``python -m calabresella``: tournaments in-process and bots on a server from the shell.

python -m calabresella tournament random heuristic mybot.py:MyBot --deals 200
python -m calabresella play mybot:act --server 127.0.0.1:50051 --table TABLE_ID
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

import calabresella as cb


def load_bot(spec: str) -> Any:
    """A bot from the command line: a built-in name, ``module:attr`` or ``file.py:attr``. A
    class is instantiated with no arguments."""
    if spec.split(":", 1)[0].strip().lower() in cb.BOT_NAMES:
        # A built-in bot, with its parameters after a colon (``pimc:ms=50``).
        return spec
    if ":" not in spec:
        raise SystemExit(
            f"bot {spec!r}: a built-in name ({', '.join(cb.BOT_NAMES)}) or module:attr"
        )
    where, attr = spec.rsplit(":", 1)
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise SystemExit(f"bot {spec!r}: there is no file {where}")
        loader = importlib.util.spec_from_file_location(path.stem, path)
        if loader is None or loader.loader is None:
            raise SystemExit(f"bot {spec!r}: cannot load {where}")
        module = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise SystemExit(f"bot {spec!r}: cannot import {where}: {e}") from None
    if not hasattr(module, attr):
        public = sorted(n for n in vars(module) if not n.startswith("_"))
        raise SystemExit(f"bot {spec!r}: {where} has no {attr!r} (it has: {', '.join(public)})")
    obj = getattr(module, attr)
    return obj() if isinstance(obj, type) else obj


def options_of(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` rule options."""
    out: dict[str, Any] = {}
    for kv in pairs:
        if "=" not in kv:
            raise SystemExit(f"option {kv!r} is not key=value")
        k, v = kv.split("=", 1)
        out[k] = v
    return out


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    p = argparse.ArgumentParser(
        prog="python -m calabresella",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=cb.__version__)
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="a duplicate tournament in-process")
    t.add_argument("bots", nargs="+", help="built-in name, module:attr or file.py:attr")
    t.add_argument("--game", default="calabresella")
    t.add_argument("--deals", type=int, default=100)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--episode", choices=["match", "hand"], default="match")
    t.add_argument("--no-duplicate", action="store_true", help="one seating per deal")
    t.add_argument("--threads", type=int, default=0, help="0: every core")
    t.add_argument("--records", help="folder to save every match record in")
    t.add_argument("--json", action="store_true", help="print the summary as JSON")
    t.add_argument("--csv", help="write the standings (one row per bot) to this CSV file")
    t.add_argument("--move-limit-ms", type=float, help="the longest a bot may take per answer")
    t.add_argument(
        "--on-slow",
        choices=["fallback", "forfeit"],
        default="fallback",
        help="over the limit: the heuristic answers, or the bot forfeits the match",
    )
    t.add_argument("--matches-csv", help="write every match (a row per seat) to this CSV file")
    t.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    pl = sub.add_parser("play", help="play a seat on a server with a bot")
    pl.add_argument("bot", help="random, module:attr or file.py:attr")
    pl.add_argument("--server", default="127.0.0.1:50051")
    pl.add_argument("--table", help="table to join (default: create one with bots)")
    pl.add_argument("--seat", type=int)
    pl.add_argument("--name", default="python")
    pl.add_argument("--game", default="calabresella")
    pl.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    a = p.parse_args(argv)
    try:
        if a.command == "tournament":
            bots = {
                f"{spec}" if a.bots.count(spec) == 1 else f"{spec}#{i}": load_bot(spec)
                for i, spec in enumerate(a.bots)
            }
            r = cb.tournament(
                bots,
                a.game,
                deals=a.deals,
                seed=a.seed,
                duplicate=not a.no_duplicate,
                episode=a.episode,
                threads=a.threads,
                records=a.records,
                move_limit_ms=a.move_limit_ms,
                on_slow=a.on_slow,
                **options_of(a.option),
            )
            print(r.to_json() if a.json else r.table())
            if a.csv:
                Path(a.csv).write_text(r.to_csv(), encoding="utf-8")
            if a.matches_csv:
                Path(a.matches_csv).write_text(r.matches_csv(), encoding="utf-8")
            if r.first_error:
                print(
                    f"\n{len(r.errors)} bot faults (every one in --json); the first:\n"
                    f"{r.first_error}",
                    file=sys.stderr,
                )
            return 0
        bot = load_bot(a.bot)
        if bot == "random":
            bot = cb.RandomBot()
        elif isinstance(bot, str):
            # The heuristic bot reads the engine's own observation, which a remote seat does not
            # have: the server runs it as a seat kind instead.
            raise SystemExit(
                f"the {bot} bot plays on the server, not from here: create the table with "
                f"seats=['{bot}', ...] (or `calabresella create --seats {bot},...`), or play "
                "random or your own bot (module:attr or file.py:attr)"
            )
        client = cb.connect(a.server)
        table_id = a.table
        if table_id is None:
            state = cb.new_hand(a.game, seed=0, **options_of(a.option))
            seats = ["open"] + ["heuristic"] * (state.num_players - 1)
            table_id = client.create_table(a.game, seats=seats, **options_of(a.option))["table_id"]
            print(f"created table {table_id}")
        result = cb.play(bot, client, table_id, seat=a.seat, name=a.name)
        print(result)
        return 0
    except cb.CalabresellaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
