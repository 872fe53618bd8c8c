import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createMarkdownRenderer } from "~/blog/article-body.server";
import { BlogUnavailableError } from "~/blog/errors.server";

// The worker pool the server renders markdown with (build/markdown-worker.js, so `npm run build` first),
// given bodies the checks before it would never let through: a render that runs too long, runs out of
// memory or out of stack costs its worker, which is replaced; the next render works.

const filename = pathToFileURL("build/markdown-worker.js").href;
const renderers: ReturnType<typeof createMarkdownRenderer>[] = [];
const renderer = (options: Omit<Parameters<typeof createMarkdownRenderer>[0], "filename"> = {}) => {
  const made = createMarkdownRenderer({ filename, ...options });
  renderers.push(made);
  return made;
};

afterEach(async () => {
  await Promise.all(renderers.splice(0).map((made) => made.close()));
});

const LINKS = "[a](/N) ".repeat(20_000);

describe("the markdown render pool", () => {
  it("renders markdown with its words", async () => {
    expect(await renderer().render("Some *stress* and a [link](https://example.org/).")).toEqual({
      html: '<p>Some <em>stress</em> and a <a href="https://example.org/" target="_blank" rel="noopener noreferrer">link</a>.</p>',
      words: 5,
    });
  });

  it("ends a render past its time limit, and renders the next", async () => {
    // LINKS runs for seconds (4.4 s to its worker's memory limit, idle); the next render, the first of a new
    // worker at a lowered priority, took over 50 ms on a busy CI machine, so the limit is well above that.
    const { render } = renderer({ timeLimitMs: 1_500 });
    await expect(render(LINKS)).rejects.toThrow("the render took longer than 1500 ms");
    expect((await render("*next*")).html).toBe("<p><em>next</em></p>");
  });

  it("loses the worker, not the process, to a body that needs more memory than a worker has", async () => {
    const { render } = renderer({
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4, stackSizeMb: 4 },
    });
    await expect(render("- item\n".repeat(40_000))).rejects.toThrow(/memory|exited/i);
    expect((await render("*next*")).html).toBe("<p><em>next</em></p>");
  });

  it("gives up on a body nested past the worker's stack", async () => {
    // A thousand lists deep parse for a while before the stack runs out: on CI, beside two other Nodes' runs,
    // past the default 5 s. What is tested here is the stack, so the time limit stands aside.
    const { render } = renderer({
      timeLimitMs: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 1 },
    });
    await expect(render(`${"- ".repeat(1_000)}x`)).rejects.toThrow(/call stack/);
    expect((await render("*next*")).html).toBe("<p><em>next</em></p>");
  }, 60_000);

  it("says the server is busy when no worker is free in time, so that the page asks to try again", async () => {
    const { render } = renderer({ queueLimitMs: 100 });
    const slow = [render(LINKS), render(LINKS)].map((rendered) => rendered.catch(() => undefined));
    await expect(render("*waits*")).rejects.toBeInstanceOf(BlogUnavailableError);
    await Promise.all(slow);
  });
});
