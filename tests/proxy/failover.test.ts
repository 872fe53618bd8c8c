// An origin restarted (SIGTERM) while readers keep coming: nginx sends its requests to the other origin
// and no reader sees an error (docs/nginx.conf: upstream keepalive, proxy_next_upstream).
import { describe, expect, test } from "vitest";
import { nginxMissing } from "../support/nginx.mjs";
import { loggedRequests, useStack, type Stack } from "./support/stack";

describe.skipIf(nginxMissing)("one origin stopped under load", () => {
  const running = useStack({ latencyMs: 20 });

  test("no client sees an error while an origin shuts down with SIGTERM", async () => {
    const stack = running();
    const [leaving, staying] = stack.origins as [Stack["origins"][number], Stack["origins"][number]];
    // Each request has a query string of its own: nginx has no copy, every request reaches an origin.
    let sent = 0;
    let loading = true;
    const failures: string[] = [];
    const answered: number[] = [];
    const reader = async () => {
      while (loading) {
        const n = (sent += 1);
        const pathname = `/blog/backend-article-${(n % 20) + 1}?reader=${n}`;
        try {
          const response = await fetch(stack.nginx.url + pathname);
          const body = await response.text();
          if (response.status !== 200 || !body.includes("Notes on Practice"))
            failures.push(`${pathname}: ${response.status}`);
          answered.push(n);
        } catch (error) {
          failures.push(`${pathname}: ${String(error)}`);
        }
      }
    };
    const readers = Array.from({ length: 8 }, reader);

    const until = async (condition: () => boolean) => {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    // Under way: both origins are answering.
    await until(() => answered.length >= 60);
    const exited = new Promise<number | null>((resolve) => leaving.child.once("exit", (code) => resolve(code)));
    leaving.child.kill("SIGTERM");
    const exitCode = await exited;
    // And on, with one origin gone, for as many requests again.
    const atExit = answered.length;
    await until(() => answered.length >= atExit + 60);
    loading = false;
    await Promise.all(readers);

    expect(failures).toEqual([]);
    expect(exitCode, "the stopped origin exited cleanly").toBe(0);
    expect(readerLines(leaving), "the stopped origin had served readers").toBeGreaterThan(0);
    expect(readerLines(staying)).toBeGreaterThan(0);
  });
});

/** How many of the load's requests (`?reader=N`) an origin answered, by its request log. */
function readerLines(origin: Stack["origins"][number]): number {
  return loggedRequests(origin).filter((request) => request.url.includes("?reader=")).length;
}
