// `npm run bench:content`: what the worst article bodies and fields cost the server (docs/decisions/029, 041).
//
// One production server (the heap `npm start` gives it, metrics on a listener of their own) reads the fake
// backend (50 ms a call). First every shape of tests/support/hostile-markdown.mjs, the known ones and
// --generated more made by fast-check (fixed seed), each served as a new article and asked for once: its
// answer time, the longest event-loop delay meanwhile (prom-client's nodejs_eventloop_lag_max_seconds, read
// before and after), and the process's peak resident memory over all of them (/proc, every 10 ms). Then the
// same for whole replies whose other fields are hostile (tests/support/hostile-fields.mjs: the known field
// shapes and --generated more), with each page's size. Then the
// requests a second an ordinary cached article keeps (autocannon, a process of its own, 32 connections)
// with nothing else asked for, with another ordinary article asked for in a loop (by this process, as
// fast as it answers), with the slowest body shape asked for in that loop, with the slowest field shape in
// that loop, and with a new hostile article every request (a cache miss and a render each time, beyond the
// goal), in rounds whose order turns; exits 1 when either slowest shape in a loop keeps less than 0.8 × the
// rate without.
// Options: --generated (shapes), --duration (seconds per run), --rounds, --connections, --seed.
import fc from "fast-check";
import { FAKE_TOKEN } from "../tests/support/fake-backend.mjs";
import { hostileArticleReply, knownFieldShapes } from "../tests/support/hostile-fields.mjs";
import { knownShapes, pathologicalMarkdown, withinReplyCap } from "../tests/support/hostile-markdown.mjs";
import { freePort, rssKb } from "../tests/support/site-process.mjs";
import {
  backend as startBackend,
  benchOptions,
  describeMachine,
  ensureBuild,
  load,
  median,
  runBenchmark,
  site as startSite,
} from "./bench-harness.mjs";

const MIN_RATIO = 0.8;
const ORDINARY = "/blog/backend-article-1";

const { generated, duration, rounds, connections, seed } = benchOptions(
  {
    generated: { default: 40, min: 0 },
    duration: { default: 8, min: 1 },
    rounds: { default: 3, min: 1 },
    connections: { default: 32, min: 1 },
    seed: { default: 28, min: 0 },
  },
  "node scripts/bench-content.mjs [--generated 40] [--duration 8] [--rounds 3] [--connections 32] [--seed 28]",
);

const mb = (kb) => `${Math.round(kb / 1024)} MB`;

await runBenchmark(async () => {
  ensureBuild();
  describeMachine();
  const backend = await startBackend({ latencyMs: 50 });
  const metricsPort = await freePort();
  const site = await startSite({
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    METRICS_PORT: String(metricsPort),
    NODE_OPTIONS: "--max-old-space-size=384",
  });
  const lagMaxMs = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
  };
  const get = async (path) => {
    const response = await fetch(site.url + path);
    await response.arrayBuffer();
    return response.status;
  };
  for (const path of ["/", "/blog", ORDINARY, "/blog/backend-article-2"]) await get(path);
  /** The longest event-loop delay while `path` is asked for once, and its answer time. */
  const watched = async (path) => {
    await lagMaxMs(); // resets the delay histogram
    const started = performance.now();
    const response = await fetch(site.url + path);
    const bytes = (await response.arrayBuffer()).byteLength;
    const ms = performance.now() - started;
    return { status: response.status, ms, bytes, lag: await lagMaxMs() };
  };
  // For comparison: ordinary articles (a few kilobytes of markdown) asked for the first time.
  const ordinary = [];
  for (let n = 3; n <= 10; n += 1) ordinary.push(await watched(`/blog/backend-article-${n}`));

  // --- Each shape once -------------------------------------------------------------------------------
  const shapes = [
    ...knownShapes,
    ...fc
      .sample(pathologicalMarkdown, { numRuns: generated, seed })
      .map((body, index) => [`generated ${index + 1}`, body]),
  ];
  let peakKb = rssKb(site.child.pid);
  const startKb = peakKb;
  const sampler = setInterval(() => (peakKb = Math.max(peakKb, rssKb(site.child.pid))), 10);
  const results = [];
  let slugs = 0;
  for (const [name, body] of shapes) {
    const slug = `hostile-${++slugs}`;
    backend.state.bodies.set(slug, withinReplyCap(body));
    const { status, ms, lag } = await watched(`/blog/${slug}`);
    if (site.child.exitCode !== null) throw new Error(`the server died on ${name}`);
    results.push({ name, slug, chars: body.length, status, ms, lag });
  }
  clearInterval(sampler);
  const endKb = rssKb(site.child.pid);
  results.sort((a, b) => b.ms - a.ms);
  console.log(
    `\n${shapes.length} shapes (${knownShapes.length} known, ${generated} generated with seed ${seed}), each a new article asked for once:`,
  );
  console.log("answer ms  longest event-loop delay ms  status  characters  shape");
  for (const { name, chars, status, ms, lag } of results.slice(0, 12)) {
    console.log(
      `${ms.toFixed(0).padStart(9)}  ${lag.toFixed(0).padStart(27)}  ${String(status).padStart(6)}  ${String(chars).padStart(10)}  ${name}`,
    );
  }
  const worstLag = results.reduce((worst, result) => (result.lag > worst.lag ? result : worst));
  const counts = new Map();
  for (const { status } of results) counts.set(status, (counts.get(status) ?? 0) + 1);
  const statuses = [...counts].map(([status, count]) => `${count} × ${status}`);
  const medianOf = (values) => median(values).toFixed(0);
  console.log(
    `ordinary articles, first asked: answer ${medianOf(ordinary.map((o) => o.ms))} ms, longest event-loop delay ${medianOf(ordinary.map((o) => o.lag))} ms (medians of ${ordinary.length}); ` +
      `hostile shapes: ${medianOf(results.map((r) => r.ms))} ms, ${medianOf(results.map((r) => r.lag))} ms (medians)`,
  );
  console.log(
    `worst answer ${results[0].ms.toFixed(0)} ms (${results[0].name}); longest event-loop delay ${worstLag.lag.toFixed(0)} ms (${worstLag.name}); ` +
      `statuses ${statuses.join(", ")}; resident memory ${mb(startKb)} before, peak ${mb(peakKb)}, ${mb(endKb)} after`,
  );

  // --- Each field shape once -------------------------------------------------------------------------
  const fieldShapes = [
    ...knownFieldShapes(),
    ...fc
      .sample(hostileArticleReply(), { numRuns: generated, seed })
      .map(({ text, description }, index) => [`generated ${index + 1}: ${description}`, text]),
  ];
  const fieldResults = [];
  for (const [name, reply] of fieldShapes) {
    const slug = `fields-${++slugs}`;
    backend.state.replies.set(slug, reply);
    const result = await watched(`/blog/${slug}`);
    // Asked again: a reply refused as too costly is fetched again each time, one that was shown is kept.
    const again = await watched(`/blog/${slug}`);
    if (site.child.exitCode !== null) throw new Error(`the server died on ${name}`);
    fieldResults.push({
      name,
      slug,
      replyBytes: Buffer.byteLength(reply),
      ...result,
      againMs: again.ms,
      lag: Math.max(result.lag, again.lag),
    });
  }
  fieldResults.sort((a, b) => b.ms - a.ms);
  console.log(
    `\n${fieldShapes.length} replies with hostile fields (${knownFieldShapes().length} known, ${generated} generated with seed ${seed}), each a new article asked for once:`,
  );
  console.log("answer ms  longest event-loop delay ms  status  page bytes  reply bytes  shape");
  for (const { name, replyBytes, status, ms, bytes, lag } of fieldResults.slice(0, 14)) {
    console.log(
      `${ms.toFixed(0).padStart(9)}  ${lag.toFixed(0).padStart(27)}  ${String(status).padStart(6)}  ${String(bytes).padStart(10)}  ${String(replyBytes).padStart(11)}  ${name}`,
    );
  }
  const worstFieldLag = fieldResults.reduce((worst, result) => (result.lag > worst.lag ? result : worst));
  const largestPage = fieldResults.reduce((largest, result) => (result.bytes > largest.bytes ? result : largest));
  console.log(
    `worst answer ${fieldResults[0].ms.toFixed(0)} ms (${fieldResults[0].name}); longest event-loop delay ${worstFieldLag.lag.toFixed(0)} ms (${worstFieldLag.name}); ` +
      `largest page ${largestPage.bytes} bytes (${largestPage.name}); medians ${medianOf(fieldResults.map((r) => r.ms))} ms, ${medianOf(fieldResults.map((r) => r.lag))} ms`,
  );

  // --- The rest of the site while hostile articles are asked for -------------------------------------
  const slowest = results[0];
  // The shape whose page costs most when asked for again and again.
  const slowestFields = fieldResults.reduce((slowest, result) => (result.againMs > slowest.againMs ? result : slowest));
  console.log(
    `asked again: slowest ${slowestFields.againMs.toFixed(0)} ms (${slowestFields.name}), the shape asked for in a loop below`,
  );
  const loops = {
    none: undefined,
    // The same client loop on an ordinary article: what the loop itself takes of the machine's two cores.
    "an ordinary article in a loop": () => "/blog/backend-article-2",
    "slowest shape in a loop": () => `/blog/${slowest.slug}`,
    "slowest field shape in a loop": () => `/blog/${slowestFields.slug}`,
    "a new hostile article each request": () => {
      const slug = `loop-${++slugs}`;
      backend.state.bodies.set(slug, withinReplyCap(shapes.find(([name]) => name === slowest.name)[1]));
      return `/blog/${slug}`;
    },
  };
  const runs = Object.fromEntries(Object.keys(loops).map((mode) => [mode, []]));
  const hostileRequests = Object.fromEntries(Object.keys(loops).map((mode) => [mode, 0]));
  console.log(
    `\n${ORDINARY} (cached), ${connections} connections, ${duration} s a run, ${rounds} rounds, the order turned each round:`,
  );
  const modes = Object.keys(loops);
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)]) {
      const next = loops[mode];
      let looping = Boolean(next);
      const loop = (async () => {
        while (looping) {
          await get(next());
          hostileRequests[mode] += 1;
        }
      })();
      const run = await load({ url: site.url + ORDINARY, connections, duration });
      looping = false;
      await loop;
      if (run.errors + run.non2xx > 0) throw new Error(`${mode}: ${run.non2xx} non-2xx answers, ${run.errors} errors`);
      runs[mode].push(run);
      console.log(`  round ${round + 1}, ${mode}: ${run.requestsPerSecond.toFixed(0)} req/s, p99 ${run.p99} ms`);
    }
  }
  // Each round's rate against the same round's rate without: the machine's other work weighs on both alike.
  const ratios = (mode) => runs[mode].map((run, round) => run.requestsPerSecond / runs.none[round].requestsPerSecond);
  for (const [mode, modeRuns] of Object.entries(runs)) {
    const rps = median(modeRuns.map((run) => run.requestsPerSecond));
    const p99 = median(modeRuns.map((run) => run.p99));
    const extra =
      mode === "none"
        ? ""
        : `: ${median(ratios(mode)).toFixed(2)} × the rate without (median of the rounds' ratios ${ratios(mode)
            .map((ratio) => ratio.toFixed(2))
            .join(", ")}; ${hostileRequests[mode]} hostile requests answered meanwhile)`;
    console.log(`${mode}: ${rps.toFixed(0)} req/s, p99 ${p99} ms (medians)${extra}`);
  }
  // The goal is the issue's: one hostile article asked for over and over. A new one every request is the bound beyond it.
  let status = 0;
  for (const mode of ["slowest shape in a loop", "slowest field shape in a loop"]) {
    const kept = median(ratios(mode)) >= MIN_RATIO;
    if (!kept) status = 1;
    console.log(
      kept
        ? `The ${mode.replace(" in a loop", "")} in a loop kept ≥ ${MIN_RATIO} × the rate.`
        : `The ${mode.replace(" in a loop", "")} in a loop kept less than ${MIN_RATIO} × the rate.`,
    );
  }
  return status;
});
