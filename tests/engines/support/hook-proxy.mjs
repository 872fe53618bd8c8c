// A loopback proxy in front of a site for the Firefox and WebKit tests. WebKitGTK's WebDriver has no console
// endpoint and no way to run a script before the page's own, so the proxy puts one at the top of every HTML
// page: it records console errors and warnings, uncaught errors and rejected promises in sessionStorage,
// where they outlive the page that logged them (a page being left logs as it goes). The page's CSP admits the
// script by its hash, added to script-src; nothing else of the answer changes. The proxy can also hold
// chosen requests for a while (Remix's route discovery, to leave a page while it is in flight), and can fake
// the page's long timers (the donation pop-up's 30 s) so a test moves time itself (fakeClock).
import { createHash } from "node:crypto";
import http from "node:http";

export const CONSOLE_KEY = "__engineConsole";

/** Runs first in every page: keeps what the page logs, across page loads in the same tab. */
const consoleHook = `(() => {
  // Gone before React hydrates the document, which must find only the server's markup.
  document.currentScript.remove();
  const key = ${JSON.stringify(CONSOLE_KEY)};
  const describe = (value) => {
    if (value instanceof Error) return value.name + ": " + value.message;
    if (typeof value === "string") return value;
    try { return JSON.stringify(value); } catch { return String(value); }
  };
  const record = (kind, values) => {
    try {
      const list = JSON.parse(sessionStorage.getItem(key) || "[]");
      list.push(kind + ": " + values.map(describe).join(" ") + " (on " + location.pathname + location.search + ")");
      sessionStorage.setItem(key, JSON.stringify(list));
    } catch {}
  };
  for (const kind of ["error", "warn"]) {
    const original = console[kind];
    console[kind] = function (...values) { record(kind, values); return original.apply(this, values); };
  }
  addEventListener("error", (event) => record("uncaught", [event.error ?? event.message]));
  addEventListener("unhandledrejection", (event) => record("unhandled rejection", [event.reason]));
  document.addEventListener("securitypolicyviolation", (event) => record("csp", [event.violatedDirective, event.blockedURI]));
})();`;

/**
 * Timers of 10 s or more wait for the test: window.__clock.advance(ms) fires those due, as if that much
 * time had passed, and window.__clock.waiting(ms) says whether a timer of that delay waits (so a test can
 * wait until the page has set it before moving time). Shorter timers (React's, the toasts' 4 s) run as usual.
 */
const clockHook = `(() => {
  document.currentScript.remove();
  const LONG = 10000;
  const realSet = window.setTimeout.bind(window);
  const realClear = window.clearTimeout.bind(window);
  const pending = new Map();
  let now = 0;
  let next = 1;
  window.setTimeout = (callback, delay = 0, ...args) => {
    if (!(delay >= LONG)) return realSet(callback, delay, ...args);
    const id = -next++;
    pending.set(id, { at: now + delay, delay, run: () => callback(...args) });
    return id;
  };
  window.clearTimeout = (id) => (pending.has(id) ? pending.delete(id) : realClear(id));
  window.__clock = {
    waiting: (ms) => [...pending.values()].some((timer) => timer.delay === ms),
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at <= now) { pending.delete(id); timer.run(); }
      }
    },
  };
})();`;

/**
 * The page's navigator.webdriver reads false, as in a reader's browser: the Web Vitals script measures
 * nothing in a browser driven by automation (app/beacon/measure.client.ts).
 */
const readerHook = `(() => {
  document.currentScript.remove();
  Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false, configurable: true });
})();`;

const hash = (script) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`;

/** The CSP with the added scripts' hashes in script-src. */
function admit(csp, scripts) {
  const hashes = scripts.map(hash).join(" ");
  return csp
    .split(";")
    .map((directive) => (directive.trim().startsWith("script-src ") ? `${directive} ${hashes}` : directive))
    .join(";");
}

/**
 * @param {string} target the site's origin, e.g. http://127.0.0.1:4100
 * @param {{ host?: string, asReader?: boolean }} [options] the Host header to send, for one site of a sites
 *   file (decision 20); asReader: the pages see no automation (readerHook)
 * @returns {Promise<{ url: string, hold: (pattern: RegExp | undefined, ms?: number) => void, fakeClock: (on: boolean) => void, requests: (pattern: RegExp) => string[], stop: () => Promise<void> }>}
 */
export async function startHookProxy(target, { host, asReader = false } = {}) {
  /** @type {{ pattern: RegExp, ms: number } | undefined} */
  let held;
  let fakeClock = false;
  const seen = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? "/";
    seen.push(path);
    const delay = held && held.pattern.test(path) ? held.ms : 0;
    setTimeout(() => forward(request, response, path), delay);
  });

  function forward(request, response, path) {
    const headers = { ...request.headers, "accept-encoding": "identity", ...(host ? { host } : {}) };
    const upstream = http.request(`${target}${path}`, { method: request.method, headers }, (answer) => {
      const type = String(answer.headers["content-type"] ?? "");
      if (!type.startsWith("text/html") || request.method === "HEAD") {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks = [];
      answer.on("data", (chunk) => chunks.push(chunk));
      answer.on("end", () => {
        const scripts = [consoleHook, ...(fakeClock ? [clockHook] : []), ...(asReader ? [readerHook] : [])];
        const tags = scripts.map((script) => `<script>${script}</script>`).join("");
        const html = Buffer.concat(chunks)
          .toString("utf8")
          .replace(/<head>/, `<head>${tags}`);
        const out = { ...answer.headers };
        delete out["content-length"];
        if (out["content-security-policy"])
          out["content-security-policy"] = admit(String(out["content-security-policy"]), scripts);
        response.writeHead(answer.statusCode ?? 502, out);
        response.end(html);
      });
    });
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  }

  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (pattern, ms = 2_000) => {
      held = pattern ? { pattern, ms } : undefined;
    },
    fakeClock: (on) => {
      fakeClock = on;
    },
    requests: (pattern) => seen.filter((path) => pattern.test(path)),
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
