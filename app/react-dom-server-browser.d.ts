// react-dom ships its Web Streams renderer under this path (app/entry.server.tsx); its types are react-dom/server's.
declare module "react-dom/server.browser" {
  export { renderToReadableStream } from "react-dom/server";
}
