import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokenBuckets } from "~/beacon/rate-limit.server";
import { senderOf } from "~/fediverse/endpoint.server";

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("the server an activity comes from", () => {
  it("is its actor's host, the actor given by address or as an object", () => {
    expect(senderOf(body({ type: "Follow", actor: "https://social.example/users/a" }))).toBe("social.example");
    expect(senderOf(body({ type: "Like", actor: { id: "https://other.example:8443/u/b" } }))).toBe(
      "other.example:8443",
    );
    expect(senderOf(body({ type: "Like" }))).toBeUndefined();
    expect(senderOf(undefined)).toBeUndefined();
  });

  it("is a host or nothing for any body a sender makes up, never an error", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
          fc.jsonValue({ maxDepth: 3 }).map(body),
          fc.record({ actor: fc.oneof(fc.webUrl(), fc.string(), fc.jsonValue({ maxDepth: 2 })) }).map(body),
        ),
        (generated) => {
          const sender = senderOf(generated);
          expect(sender === undefined || /^[^/\s]+$/.test(sender), String(sender)).toBe(true);
        },
      ),
    );
  });
});

describe("token buckets looked at before and charged after", () => {
  it("let a key through until its tokens are spent, and keep no key that was only asked about", () => {
    let time = 0;
    const buckets = tokenBuckets({ rate: { burst: 3, perSecond: 1 }, keys: 2, now: () => time });
    for (let n = 0; n < 3; n += 1) expect(buckets.take("busy.example")).toBe(true);
    expect(buckets.has("busy.example")).toBe(false);
    // Made-up keys asked about evict no one: the spent bucket is still there, still spent.
    for (let n = 0; n < 50; n += 1) expect(buckets.has(`made-up-${n}.example`)).toBe(true);
    expect(buckets.has("busy.example")).toBe(false);
    time += 1000;
    expect(buckets.has("busy.example")).toBe(true);
  });
});
