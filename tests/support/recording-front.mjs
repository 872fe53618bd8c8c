// A small front on loopback that passes each request to one of its targets in turn, as a proxy in front of
// several origins does, and keeps what came through: method, path, headers and body (for tests that count
// what a server was sent, whatever the server does with it).
import http from "node:http";

/**
 * @param {{ port: number, targets: () => string[] }} options the port to listen on, and the origins to pass to
 */
export async function startRecordingFront({ port, targets }) {
  /** @type {{ method: string, path: string, headers: http.IncomingHttpHeaders, body: Buffer }[]} */
  const seen = [];
  let turn = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const all = targets();
      const target = all[turn++ % all.length];
      const forwarded = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forwarded.on("error", () => res.writeHead(502).end());
      forwarded.end(body);
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(undefined)));
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
