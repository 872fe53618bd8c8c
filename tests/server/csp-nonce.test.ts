import { describe, expect, it } from "vitest";
import { cspNonce } from "../../server/security.mjs";

// The CSP nonce of each response (server/security.mjs): 16 random bytes, never repeated, also across the
// refills of the pool they are cut from.

describe("the CSP nonce", () => {
  it("is 16 bytes, base64, and new for every response", () => {
    const middleware = cspNonce();
    const nonces = Array.from({ length: 1000 }, () => {
      const res = { locals: {} as { cspNonce?: string } };
      let passedOn = false;
      middleware({} as never, res as never, () => (passedOn = true));
      expect(passedOn).toBe(true);
      return res.locals.cspNonce!;
    });
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(nonces.every((nonce) => nonce !== "AAAAAAAAAAAAAAAAAAAAAA==")).toBe(true);
  });
});
