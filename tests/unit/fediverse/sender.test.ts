import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { senderOf } from "~/fediverse/endpoint.server";

describe("the server an activity names as its signer", () => {
  it("is its key's host, in either signature form", () => {
    const key = "https://social.example/users/a#main-key";
    expect(senderOf({ signature: `keyId="${key}",algorithm="rsa-sha256",signature="x"` })).toBe("social.example");
    expect(senderOf({ "signature-input": `sig1=("@method");keyid="${key}";alg="rsa-v1_5-sha256"` })).toBe(
      "social.example",
    );
  });

  it("is one name, 'unsigned' or a host, for any header a sender makes up", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("signature", "signature-input", "other"),
          fc.oneof(
            fc.string(),
            fc.webUrl().map((url) => `keyId="${url}"`),
          ),
        ),
        (headers) => {
          const sender = senderOf(headers);
          expect(sender === "unsigned" || /^[^/\s]+$/.test(sender), sender).toBe(true);
          expect(sender.length).toBeLessThanOrEqual(2048);
        },
      ),
    );
  });
});
