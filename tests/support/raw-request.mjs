// One HTTP/1.1 request written byte for byte on a socket: a browser or an attacker can send request
// targets that Node's own client refuses (tabs, backslashes, spaces), and those are the ones to try.
import net from "node:net";

/**
 * @param {string} origin e.g. http://127.0.0.1:3000
 * @param {string} target the request target as sent, e.g. `//evil.example/%2e%2e`
 * @param {Record<string, string>} [headers]
 * @returns {Promise<{ status: number, headers: Record<string, string> }>}
 */
export function rawRequest(origin, target, headers = {}) {
  const { hostname, port } = new URL(origin);
  const lines = [`GET ${target} HTTP/1.1`, `Host: ${headers.host ?? `${hostname}:${port}`}`, "Connection: close"];
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() !== "host") lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let head = "";
    socket.setEncoding("latin1");
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(target)}`)));
    socket.on("data", (chunk) => {
      head += chunk;
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.destroy();
      const [statusLine, ...fields] = head.slice(0, end).split("\r\n");
      const parsed = {};
      for (const field of fields) {
        const colon = field.indexOf(":");
        parsed[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers: parsed });
    });
    socket.on("error", reject);
    socket.on("end", () => {
      if (!head.includes("\r\n\r\n"))
        reject(new Error(`connection closed without an answer to ${JSON.stringify(target)}`));
    });
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  });
}
