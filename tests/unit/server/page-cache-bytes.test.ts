import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageCache } from "../../../server/page-cache";

// The page cache (server/page-cache.ts) keeps what the app writes as bytes and hands them on whole: a
// multi-byte character split across two writes, at every byte boundary, comes out as the character, in
// every encoding, from the render and from memory.

const TEXT = "Tịnh Độ ทาน 禅 정토 🙏🏽 “ensō” — ";
const bytes = Buffer.from(TEXT.repeat(40), "utf8");
/** Every split point in the first few characters: inside 2-, 3- and 4-byte characters and between them. */
const splits = Array.from({ length: 64 }, (_, index) => index + 1);

let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.use(pageCache({ ttlSeconds: 60 }));
  // The page in two writes, split at byte ?at= (as Buffers), or as two strings with ?strings.
  app.get("/page", (req, res) => {
    const at = Number(req.query.at);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "public, max-age=60");
    if (req.query.strings !== undefined) {
      const characters = [...TEXT.repeat(40)];
      res.write(characters.slice(0, at).join(""), "utf8");
      res.end(characters.slice(at).join(""), "utf8");
    } else {
      res.write(bytes.subarray(0, at));
      res.end(bytes.subarray(at));
    }
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(path: string, encoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, headers: { "Accept-Encoding": encoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const body = Buffer.concat(chunks);
          const sent = response.headers["content-encoding"];
          resolve(sent === "br" ? brotliDecompressSync(body) : sent === "gzip" ? gunzipSync(body) : body);
        });
      })
      .on("error", reject);
  });
}

describe("the page cache with text outside ASCII", () => {
  it("keeps a character split across two writes whole, at every byte, in every encoding, rendered and from memory", async () => {
    for (const at of splits) {
      for (const query of [`at=${at}`, `at=${at}&strings`]) {
        // The first request renders and keeps the page; the others are answered from memory.
        for (const encoding of ["identity", "gzip", "br", "identity"]) {
          const body = await get(`/page?${query}`, encoding);
          expect(body.equals(bytes), `${query}, ${encoding}`).toBe(true);
        }
      }
    }
  });
});
