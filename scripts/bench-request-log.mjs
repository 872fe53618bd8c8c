// `npm run bench:log`: the CPU a request log costs the server per request, for the choice between morgan and
// pino-http (docs/performance.md). Each logger serves the same tiny Express app; autocannon, in a child
// process of its own, sends a fixed number of requests; the server's own CPU time (process.cpuUsage) is
// measured, and the same run with no log is subtracted. CPU time, not requests per second: it holds still
// on a busy machine. Usage: node scripts/bench-request-log.mjs [--requests 20000] [--rounds 3]
import { fork } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { parseArgs } from "node:util";
import express from "express";
import morgan from "morgan";
import pino from "pino";
import pinoHttp from "pino-http";

if (process.env.BENCH_LOG_TARGET) {
  // The load generator's process.
  const { default: autocannon } = await import("autocannon");
  await autocannon({
    url: process.env.BENCH_LOG_TARGET,
    connections: 8,
    amount: Number(process.env.BENCH_LOG_REQUESTS),
  });
  process.exit(0);
}

const { values } = parseArgs({
  options: { requests: { type: "string", default: "20000" }, rounds: { type: "string", default: "3" } },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const devNull = () => createWriteStream("/dev/null");

const shortLines = {
  pino: { base: undefined, timestamp: false },
  quietReqLogger: true,
  serializers: { req: (req) => `${req.method} ${req.url}`, res: (res) => res.statusCode },
};

const loggers = {
  none: () => (_req, _res, next) => next(),
  'morgan("tiny")': () => morgan("tiny", { stream: devNull() }),
  "pino-http": () => pinoHttp({ logger: pino(pino.destination({ dest: "/dev/null", sync: false })) }),
  // What the site writes (server/request-log.ts): method, address, status, bytes, time; no headers.
  "pino-http, short": () =>
    pinoHttp({
      ...shortLines,
      logger: pino({ ...shortLines.pino }, pino.destination({ dest: "/dev/null", sync: false })),
    }),
};

async function cpuMicrosPerRequest(makeLogger) {
  const app = express();
  app.use(makeLogger());
  app.get("/", (_req, res) => res.type("text").send("ok"));
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${server.address().port}/`;
  const load = (amount) =>
    once(
      fork(import.meta.filename, {
        env: { ...process.env, BENCH_LOG_TARGET: url, BENCH_LOG_REQUESTS: String(amount) },
      }),
      "exit",
    );
  await load(2000); // warm-up: the JIT settles before the clock runs
  const before = process.cpuUsage();
  await load(requests);
  const used = process.cpuUsage(before);
  server.close();
  return (used.user + used.system) / requests;
}

const results = Object.fromEntries(Object.keys(loggers).map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, makeLogger] of Object.entries(loggers)) results[name].push(await cpuMicrosPerRequest(makeLogger));
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const base = median(results.none);
console.log(`Server CPU per request, median of ${rounds} rounds of ${requests} requests:`);
for (const [name, list] of Object.entries(results)) {
  const cost = median(list) - base;
  console.log(
    `  ${name.padEnd(16)} ${median(list).toFixed(1)} µs${name === "none" ? "" : `  (log: ${cost.toFixed(1)} µs)`}`,
  );
}
