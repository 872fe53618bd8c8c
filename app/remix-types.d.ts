// Loader data types follow Single Fetch (turbo-stream) rules instead of JSON serialisation.
import "@remix-run/node";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
