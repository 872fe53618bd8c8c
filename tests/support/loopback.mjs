/**
 * Starts `server` on 127.0.0.1 (port 0: any free one). `close` also ends the connections still open,
 * a request that is never answered included, so a test never waits on them.
 * @param {import("node:http").Server} server
 * @param {number} [port]
 */
export async function listenOnLoopback(server, port = 0) {
  await new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : 0;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
