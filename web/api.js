// The puzzle page's client of the server's JSON API (docs/web.md): posting to a route, an API
// failure in a player's words, and the requests the page may stop needing (AbortController).

// An API failure in a player's words; the server's message goes in the details.
export class ApiFailure extends Error {
  constructor(status, answer) {
    const raw = answer && answer.error ? answer.error : String(answer || status);
    super(raw);
    this.status = status;
    this.answer = answer;
  }

  get words() {
    const kind = this.answer && this.answer.status;
    if (kind === "unsat") return "This puzzle has no solution.";
    if (kind === "multiple") return "This puzzle has more than one solution.";
    if (kind === "timeout") return "That took too long; try a smaller or easier puzzle.";
    if (this.status === 413) return "That puzzle text is far too long.";
    if (this.message.startsWith("no puzzle of grade")) return "No puzzle of that grade turned up at this size; try another grade or size.";
    if (this.status === 422) return "This board is too large for this server.";
    if (this.status === 429) return "The server is busy; try again in a moment.";
    if (this.status === 400) return "That puzzle could not be read.";
    return "Something went wrong on the server.";
  }
}

// Posts `body` to the API route. `signal` (an AbortController's) cancels the request: the
// browser closes the connection and the server stops the request's work at once (docs/web.md).
// A cancelled request rejects with an AbortError, which `action` keeps quiet.
export async function api(route, body, signal) {
  let response;
  try {
    response = await fetch("/api/" + route, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (aborted(e)) throw e;
    throw new Error("Cannot reach the server. Is bimaru-sat serve still running?");
  }
  const text = await response.text();
  let value = text;
  if ((response.headers.get("Content-Type") || "").includes("json")) value = JSON.parse(text);
  if (!response.ok) throw new ApiFailure(response.status, value);
  return value;
}

export const aborted = (e) => e && e.name === "AbortError";

// The requests the page may stop needing, each with its AbortController: the "New puzzle" the
// player waits for, and the background questions about the puzzle on the board (`learn`). The
// next puzzle asked for in advance is `upcoming`'s.
export const pending = { generate: null, learn: null };

export function cancel(name) {
  if (pending[name]) pending[name].abort();
  pending[name] = null;
}

// A new AbortController for `name`, cancelling the one before.
export function controllerFor(name) {
  cancel(name);
  pending[name] = new AbortController();
  return pending[name];
}
