// `node scripts/smoke-routes.mjs`: starts the built server with the Node that runs this script (embedded
// articles, defaults otherwise), asks every route once and prints one line per address: status, content
// type and a digest of the body. .ci/run runs it on Node 26, and .ci/other-node on Node 24 and 22, and compares
// the outputs, so "every route answers as on Node 26" is checked byte for byte. Needs a build.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSite } from "../tests/support/site-process.mjs";

const catalogueDir = mkdtempSync(path.join(tmpdir(), "smoke-routes-"));
// Settings that would otherwise differ between two runs: the image addresses' signing key (made at random
// when unset) and the catalogue (read next and the sitemaps follow it once its background sync has run).
const site = await startSite({
  IMAGE_URL_SECRET: "smoke-routes-fixed-secret-0123456789",
  CATALOGUE_SYNC: "off",
  CATALOGUE_DIR: catalogueDir,
});
try {
  const get = (path, headers = {}) =>
    fetch(`${site.url}${path}`, { headers: { "accept-encoding": "identity", ...headers }, redirect: "manual" });
  const html = await (await get("/blog")).text();
  const article = /href="(\/blog\/[a-z0-9-]+)"/.exec(html.replace(/href="\/blog\/rss\.xml"/g, ""))?.[1];
  if (!article) throw new Error("no article link on /blog");
  const image = /(\/img\/[^"\s,]+)/.exec(await (await get(article)).text())?.[1]?.replace(/&amp;/g, "&");
  const version = /manifest-([0-9A-F]+)\.js/.exec(html)?.[1]?.toLowerCase() ?? "none";

  const addresses = [
    "/",
    "/blog",
    "/blog?page=2",
    "/blog?page=999",
    article,
    "/blog/no-such-article",
    "/no-such-page",
    "/blog/rss.xml",
    "/robots.txt",
    "/sitemap.xml",
    "/sitemap-pages.xml",
    "/sitemap-articles.xml",
    "/share.png",
    "/logo.png",
    ...(image ? [image] : []),
    "/healthz",
    `/__manifest?p=%2Fblog&version=${version}`,
    "/blog.data",
    `${article}.data`,
    "/%E0%A4%A",
    "/blog?page=abc",
  ];
  for (const path of addresses) {
    const response = await get(path);
    // Pages name their own address: the port of this run is not part of the answer compared.
    const raw = Buffer.from(await response.arrayBuffer());
    const body = /^(text|application)\//.test(response.headers.get("content-type") ?? "")
      ? Buffer.from(raw.toString("utf8").replaceAll(`127.0.0.1:${site.port}`, "127.0.0.1:PORT"))
      : raw;
    const digest = createHash("sha256").update(body).digest("hex").slice(0, 16);
    const type = response.headers.get("content-type") ?? "-";
    const location = response.headers.get("location");
    console.log(
      `${path} ${response.status} ${type}${location ? ` -> ${location}` : ""} ${body.length} bytes ${digest}`,
    );
  }
} finally {
  await site.stop();
  rmSync(catalogueDir, { recursive: true, force: true });
}
