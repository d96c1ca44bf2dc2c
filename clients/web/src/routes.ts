/**
 * Hash routing: `#/` the lobby, `#/table/<id>`, `#/replay/<id>`, `#/results`,
 * `#/tournaments`, `#/tournament/<id>`, `#/player/<name>`. Nothing secret ever goes into the
 * address (seat tokens and keys stay in session storage or in memory).
 */
import { useEffect, useState } from "preact/hooks";

/** A page of the app. */
export type Route =
  | { page: "lobby" }
  | { page: "table"; tableId: string }
  | { page: "replay"; tableId: string }
  | { page: "results" }
  | { page: "tournaments" }
  | { page: "tournament"; tournamentId: string }
  | { page: "player"; name: string };

/** The route an address's hash names (the lobby for anything unknown). */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "").replace(/^\/+/, "");
  const [head, id, ...rest] = path.split("/");
  const tableId = id === undefined ? "" : safeDecode(id);
  if (head === "table" && tableId !== "" && rest.length === 0) {
    return { page: "table", tableId };
  }
  if (head === "replay" && tableId !== "" && rest.length === 0) {
    return { page: "replay", tableId };
  }
  if (head === "results" && id === undefined) return { page: "results" };
  if (head === "tournaments" && id === undefined)
    return { page: "tournaments" };
  if (head === "tournament" && tableId !== "" && rest.length === 0) {
    return { page: "tournament", tournamentId: tableId };
  }
  if (head === "player" && tableId !== "" && rest.length === 0) {
    return { page: "player", name: tableId };
  }
  return { page: "lobby" };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return "";
  }
}

/** The address (hash) of a route. */
export function href(route: Route): string {
  switch (route.page) {
    case "lobby":
      return "#/";
    case "results":
      return "#/results";
    case "table":
      return `#/table/${encodeURIComponent(route.tableId)}`;
    case "replay":
      return `#/replay/${encodeURIComponent(route.tableId)}`;
    case "tournaments":
      return "#/tournaments";
    case "tournament":
      return `#/tournament/${encodeURIComponent(route.tournamentId)}`;
    case "player":
      return `#/player/${encodeURIComponent(route.name)}`;
  }
}

/** Goes to a route (a new history entry). */
export function navigate(route: Route): void {
  location.hash = href(route);
}

/** The current route, following the address. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
