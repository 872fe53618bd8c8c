// The smallest Remix app worth measuring: one route whose loader returns a string. `npm run bench`
// builds it and serves it beside the site, as the baseline the site's pages are compared with.
// Same Remix version and future flags as the site; everything it writes stays under build/ (git-ignored).
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: "esm",
  serverBuildPath: "build/server/index.js",
  assetsBuildDirectory: "build/client",
  cacheDirectory: "build/.cache",
  postcss: false,
  tailwind: false,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
