// The deployment the proxy tests run: the fake blog backend (with latency, like a hosted one), two
// origin processes of the production server, and nginx with docs/nginx.conf in front of them.
import { FAKE_TOKEN, startFakeBackend } from "../../support/fake-backend.mjs";
import { thirdParty } from "../../support/servers.mjs";
import { startSite } from "../../support/site-process.mjs";
import { startNginx } from "../../support/nginx.mjs";

export type Origin = Awaited<ReturnType<typeof startSite>>;
export type Stack = {
  backend: Awaited<ReturnType<typeof startFakeBackend>>;
  origins: Origin[];
  nginx: Awaited<ReturnType<typeof startNginx>>;
  stop: () => Promise<void>;
};

/** Origin settings: a hosted backend and every embed configured, so that the CSP has all it can have. */
export function originSettings(backendUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SITE_PRODUCT: "Chan",
    SITE_NAME: "Chan Practice Center",
    SITE_URL: "https://chan.example.test",
    ALLOWED_HOSTS: "127.0.0.1,chan.example.test",
    BLOG_API_URL: backendUrl,
    BLOG_API_TOKEN: FAKE_TOKEN,
    ...thirdParty,
    ...extra,
  };
}

export async function startStack(options: { latencyMs?: number; origin?: Record<string, string> } = {}): Promise<Stack> {
  const backend = await startFakeBackend({ latencyMs: options.latencyMs ?? 50 });
  const settings = originSettings(backend.url, options.origin);
  const origins = await Promise.all([startSite(settings), startSite(settings)]);
  const nginx = await startNginx(origins.map((origin) => `127.0.0.1:${origin.port}`));
  return {
    backend,
    origins,
    nginx,
    stop: async () => {
      await nginx.stop();
      await Promise.all(origins.map((origin) => origin.stop()));
      await backend.close();
    },
  };
}

/**
 * How many requests for `pathname` (query strings included) an origin's request log shows. Matches the
 * path as a word of the line, whether the log is plain text or JSON.
 */
export function loggedRequests(origin: Origin, pathname: string): number {
  const escaped = pathname.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const pattern = new RegExp(`(^|[\\s"])${escaped}([\\s"?]|$)`);
  return origin
    .output()
    .split("\n")
    .filter((line) => pattern.test(line)).length;
}
