/**
 * Seeking a rated match as the signed-in player (`Seek`): the game and its rules (the fields
 * the server's description gives, folded away: seekers are paired on equal rules), and
 * whether to wait for people or let built-in bots fill the seats after a few seconds. While the seek waits the
 * panel shows how many seekers wait; once seated, the seat token is kept like a joined seat
 * and the table opens. Cancelling (or leaving the page) closes the stream, which cancels the
 * seek on the server.
 */
import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { gameOptions, type GameDescription } from "@calabresella/client";
import { setAccount, type Account } from "./account.js";
import { api, errorText, isRefusal, withKey } from "./api.js";
import { WithGames } from "./game-catalog.js";
import { GameSelect } from "./game-select.js";
import { OptionFields } from "./option-fields.js";
import {
  changedSettings,
  defaultValues,
  type OptionValues,
} from "./option-values.js";
import { useT } from "./i18n-context.js";
import { navigate } from "./routes.js";
import { saveSeat } from "./session.js";

/** Milliseconds before bots fill the seats when the player asks for bots. */
export const BOTS_AFTER_MS = 3000;

type SeekState =
  | { state: "idle" }
  | { state: "waiting"; seekers: number; needed: number }
  | { state: "error"; message: string };

/** The seek panel of the lobby. */
export function SeekPanel(props: { account: Account }): VNode {
  const t = useT();
  return (
    <section class="panel seek" aria-labelledby="seek-title">
      <h2 id="seek-title">{t("seek.title")}</h2>
      <WithGames
        render={(games) => <SeekForm account={props.account} games={games} />}
      />
    </section>
  );
}

/** The seek form, for the games the server described. */
function SeekForm(props: {
  account: Account;
  games: readonly GameDescription[];
}): VNode {
  const t = useT();
  const [game, setGame] = useState<GameDescription>(props.games[0]!);
  const [values, setValues] = useState<OptionValues>(() =>
    defaultValues(props.games[0]!),
  );
  const [against, setAgainst] = useState<"bots" | "people">("bots");
  const [status, setStatus] = useState<SeekState>({ state: "idle" });
  const stop = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => stop.current?.abort(), []);

  const seek = async (e: Event) => {
    e.preventDefault();
    stop.current?.abort();
    const abort = new AbortController();
    stop.current = abort;
    setStatus({ state: "waiting", seekers: 0, needed: 0 });
    const c = api();
    try {
      const stream = c.rpc.seek(
        {
          options: gameOptions(game.name, changedSettings(game, values)),
          botsAfterMs: against === "bots" ? BOTS_AFTER_MS : 0,
          ratingWindow: 0,
          entropy: crypto.getRandomValues(new Uint8Array(32)),
        },
        withKey({ signal: abort.signal }, props.account.key),
      );
      for await (const r of stream) {
        if (r.event.case === "waiting") {
          setStatus({
            state: "waiting",
            seekers: r.event.value.seekers,
            needed: r.event.value.needed,
          });
        } else if (r.event.case === "seated") {
          const a = r.event.value;
          saveSeat(a.tableId, {
            seat: a.seat,
            token: a.seatToken,
            name: props.account.name,
          });
          abort.abort();
          navigate({ page: "table", tableId: a.tableId });
          return;
        }
      }
      setStatus({ state: "idle" });
    } catch (err) {
      if (abort.signal.aborted) return;
      if (isRefusal(err, "UNAUTHENTICATED", "BAD_KEY")) {
        // The key was rotated or its player disabled: sign the tab out.
        setAccount(undefined);
        return;
      }
      setStatus({
        state: "error",
        message: t("common.error", { message: errorText(err) }),
      });
    }
  };
  const cancel = () => {
    stop.current?.abort();
    setStatus({ state: "idle" });
  };

  const chooseGame = (name: string) => {
    const g = props.games.find((x) => x.name === name);
    if (!g) return;
    setGame(g);
    setValues(defaultValues(g));
  };

  return (
    <form onSubmit={seek} data-seek={status.state}>
      <GameSelect
        name="seek-game"
        games={props.games}
        value={game.name}
        onChange={chooseGame}
        disabled={status.state === "waiting"}
      />
      <details class="seek-rules">
        <summary>{t("lobby.options")}</summary>
        <fieldset disabled={status.state === "waiting"}>
          <OptionFields
            form="seek"
            game={game}
            values={values}
            onChange={(key, value) => setValues({ ...values, [key]: value })}
          />
        </fieldset>
      </details>
      <fieldset class="field" disabled={status.state === "waiting"}>
        <legend>{t("seek.against")}</legend>
        <label class="check">
          <input
            type="radio"
            name="seek-against"
            value="bots"
            checked={against === "bots"}
            onChange={() => setAgainst("bots")}
          />
          <span>{t("seek.bots", { s: BOTS_AFTER_MS / 1000 })}</span>
        </label>
        <label class="check">
          <input
            type="radio"
            name="seek-against"
            value="people"
            checked={against === "people"}
            onChange={() => setAgainst("people")}
          />
          <span>{t("seek.people")}</span>
        </label>
      </fieldset>
      {/* The live region stays mounted, so that what it says is announced. */}
      <p role="status" class="seek-live">
        {status.state === "waiting" ? (
          <span data-seek-waiting>
            {status.needed > 0
              ? t("seek.waiting", {
                  seekers: status.seekers,
                  needed: status.needed,
                })
              : t("seek.starting")}
          </span>
        ) : null}
      </p>
      {status.state === "waiting" ? (
        <button
          type="button"
          class="secondary"
          data-seek-cancel
          onClick={cancel}
        >
          {t("seek.cancel")}
        </button>
      ) : (
        <button type="submit" data-seek-submit>
          {t("seek.submit")}
        </button>
      )}
      {status.state === "error" ? (
        <p class="error" role="alert">
          {status.message}
        </p>
      ) : null}
    </form>
  );
}
