import "@remix-run/node";

declare module "@remix-run/node" {
  // Loader data types follow Single Fetch (turbo-stream) rules instead of JSON serialisation.
  interface Future {
    v3_singleFetch: true;
  }
}
