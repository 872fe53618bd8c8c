// Which Chromium the tests drive. Debian's old headless shell (`apt-get install chromium-headless-shell`) is
// the browser Playwright itself uses for headless runs: the full `chromium` binary runs the new headless mode,
// a whole browser window per context, which made the browser tests three times slower on 2 cores
// (docs/decisions/043). CHROMIUM_PATH names another; without the shell, Debian's `chromium` is used.
import { existsSync } from "node:fs";

const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

export const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
