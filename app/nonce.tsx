import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of this response, for the inline scripts Remix writes. Browsers
 * hide nonce values from the DOM, so on the client this is simply "" and hydration matches.
 */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce() {
  return useContext(NonceContext);
}
