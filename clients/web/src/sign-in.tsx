/**
 * Signing in as a registered player with the player's API key (checked by `WhoAmI`), in the
 * header: a form while signed out, the name (a link to the player's page) and a sign-out
 * button while signed in.
 */
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { setAccount, useAccount } from "./account.js";
import { api, errorText, isRefusal, withKey } from "./api.js";
import { stopCompeting } from "./compete.js";
import { useT } from "./i18n-context.js";
import { href } from "./routes.js";

/** The sign-in control of the header. */
export function SignIn(): VNode {
  const t = useT();
  const account = useAccount();
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  if (account) {
    return (
      <div class="account" data-signed-in={account.name}>
        <a href={href({ page: "player", name: account.name })}>
          {t("account.as", { name: account.name })}
        </a>
        <button
          type="button"
          class="secondary"
          data-sign-out
          onClick={() => {
            stopCompeting();
            setAccount(undefined);
          }}
        >
          {t("account.signOut")}
        </button>
      </div>
    );
  }

  const submit = async (e: Event) => {
    e.preventDefault();
    const k = key.trim();
    if (k === "") {
      setError(t("account.needKey"));
      return;
    }
    setBusy(true);
    setError("");
    try {
      const c = api();
      const me = await c.call((o) => c.rpc.whoAmI({}, withKey(o, k)));
      setAccount({ name: me.playerName, key: k });
      setKey("");
      setOpen(false);
    } catch (err) {
      setError(
        isRefusal(err, "UNAUTHENTICATED")
          ? t("account.badKey")
          : isRefusal(err, "RESOURCE_EXHAUSTED", "TOO_MANY_BAD_KEYS")
            ? t("account.tooManyBadKeys")
            : t("common.error", { message: errorText(err) }),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="account">
      <button
        type="button"
        class="secondary"
        data-sign-in
        aria-expanded={open}
        aria-controls="sign-in-form"
        onClick={() => setOpen(!open)}
      >
        {t("account.signIn")}
      </button>
      {open ? (
        <form
          id="sign-in-form"
          class="sign-in-form panel"
          data-sign-in-form
          onSubmit={submit}
        >
          <label class="field">
            <span>{t("account.key")}</span>
            <input
              type="password"
              name="api-key"
              autoComplete="off"
              data-sign-in-key
              value={key}
              onInput={(e) =>
                setKey((e.currentTarget as HTMLInputElement).value)
              }
            />
          </label>
          <p class="sub">{t("account.keyNote")}</p>
          {error ? (
            <p class="error" role="alert" data-sign-in-error>
              {error}
            </p>
          ) : null}
          <button type="submit" disabled={busy}>
            {busy ? t("account.checking") : t("account.submit")}
          </button>
        </form>
      ) : null}
    </div>
  );
}
