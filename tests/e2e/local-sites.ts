import { test } from "./fixtures";

/** The domain of the sites process's hosts (tests/support/servers.mjs): zen.sites.test, vi.sites.test … */
export const LOCAL_DOMAIN = "sites.test";

/**
 * For a spec that reads the sites process by its hosts: the browser resolves every *.sites.test name to
 * loopback (and the fixture lets those requests through); the executable and the other arguments stay
 * as playwright.config.ts has them.
 */
export function readLocalSitesByName() {
  test.use({
    localDomain: LOCAL_DOMAIN,
    launchOptions: [
      async ({ launchOptions }, use) => {
        await use({
          ...launchOptions,
          args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP *.${LOCAL_DOMAIN} 127.0.0.1`],
        });
      },
      { scope: "worker" },
    ],
  });
}
