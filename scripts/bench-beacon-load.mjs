// Beacons for `npm run bench:beacon`, in a process of its own: autocannon posting one reader's report again
// and again, each request from another address (X-Forwarded-For, which the site reads from loopback), for
// `duration` seconds at `connections`, at most `rate` a second if given. Prints autocannon's result as JSON.
// Usage: node scripts/bench-beacon-load.mjs '{"url":…,"body":…,"headers":{…},"connections":8,"duration":10,"rate":0}'
import autocannon from "autocannon";

const { url, body, headers, connections, duration, rate } = JSON.parse(process.argv[2]);
let reader = 0;
const addressOf = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
const result = await autocannon({
  url,
  connections,
  duration,
  ...(rate ? { overallRate: rate } : {}),
  requests: [
    {
      method: "POST",
      body,
      setupRequest: (request) => ({ ...request, headers: { ...headers, "x-forwarded-for": addressOf(reader++) } }),
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }),
);
