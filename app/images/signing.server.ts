import { createHmac, timingSafeEqual } from "node:crypto";
import { signedText, type VariantAddress } from "./image-variants";

/** 128 bits of HMAC-SHA256, base64url: addresses only the server could have written. */
export function sign(secret: string, address: Omit<VariantAddress, "signature">): string {
  return createHmac("sha256", secret).update(signedText(address)).digest("base64url").slice(0, 22);
}

export function hasValidSignature(secret: string, address: VariantAddress): boolean {
  const expected = Buffer.from(sign(secret, address));
  const given = Buffer.from(address.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
