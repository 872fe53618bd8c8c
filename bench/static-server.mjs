// The ceiling for `npm run bench`: a bare Node HTTP server that answers every request with the same
// bytes, read once from the file named by HTML_FILE (a snapshot of the article page). No framework,
// no rendering, no compression: what is left is the cost of HTTP itself.
import { readFileSync } from "node:fs";
import http from "node:http";

if (!process.env.HTML_FILE) throw new Error("HTML_FILE must name the file to serve");
const body = readFileSync(process.env.HTML_FILE);
const headers = { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(body.length) };

const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
server.listen(port, host, () => console.log(`Static copy on http://${host}:${port}`));

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}
