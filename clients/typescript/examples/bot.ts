/**
 * An example bot program: connects, creates a table with one open seat and built-in bots,
 * plays the open seat to the end and prints the result.
 *
 *   node dist/examples/bot.js [ADDRESS] [GAME] [key=value...]
 *   node dist/examples/bot.js 127.0.0.1:50051 tressette-in-due target=11
 *
 * Ctrl-C stops play cleanly (the AbortSignal cancels the stream and any call in flight).
 */
import {
  connectNode,
  EndReason,
  optionSettings,
  type Bot,
  type Client,
} from "../src/node.js";

/**
 * Seat kinds for a table of `game`, seat 0 left open and heuristic bots elsewhere: as many
 * seats as its `players` option says, else as the server describes the game (`listGames`).
 */
async function seatsFor(
  client: Client,
  game: string,
  options: string[],
): Promise<string[]> {
  const players = optionSettings(options)["players"];
  const described = (await client.listGames()).find((g) => g.name === game);
  const n = Number(players ?? described?.defaultPlayers ?? 1);
  return ["open", ...Array<string>(Math.max(0, n - 1)).fill("heuristic")];
}

/** Plays the card with the lowest notation, or else the first legal action: a simple, legal bot. */
const bot: Bot = async (turn, ctx) => {
  const obs = await ctx.observation(); // the seat's own view, fetched once per decision
  const plays = turn.legalActions.filter((a) => a.notation.startsWith("play "));
  if (obs.hand.length > 0 && plays.length > 0) {
    return plays.reduce((a, b) => (a.notation < b.notation ? a : b));
  }
  return turn.legalActions[0]!;
};

async function main(): Promise<void> {
  const [address = "127.0.0.1:50051", game = "tressette-in-due", ...options] =
    process.argv.slice(2);
  const client = connectNode(address);
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort(new Error("interrupted")));
  try {
    const table = await client.createTable({
      game,
      options,
      seats: await seatsFor(client, game, options),
    });
    const seat = await client.join(table.tableId, {
      playerName: "example-bot",
    });
    console.log(`table ${table.tableId}: playing seat ${seat.seat}`);
    const summary = await seat.play(bot, { signal: stop.signal });
    const r = summary.ended.result;
    console.log(
      `${EndReason[summary.ended.reason]}: winners [${r?.winners.join(", ")}]` +
        `${r?.draw ? " (draw)" : ""}, totals [${r?.signedTotals.join(", ")}] after ${r?.hands} hands; ` +
        `${summary.decisions} decisions, ${summary.faults} faults, ${summary.reconnects} reconnects`,
    );
  } finally {
    client.close();
  }
}

main().catch((e: unknown) => {
  console.error(`bot: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
