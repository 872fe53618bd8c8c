import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";
import { deferModuleScripts, splitAtOpenTag } from "~/lib/after-paint-scripts";

/** The rendered document, with its JavaScript loading after the first paint (see lib/after-paint-scripts). */
export function afterPaintScripts(nonce: string | undefined): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const [ready, rest] = splitAtOpenTag(held + decoder.write(chunk));
      held = rest;
      callback(null, ready ? deferModuleScripts(ready, nonce) : undefined);
    },
    flush(callback) {
      const last = held + decoder.end();
      callback(null, last ? deferModuleScripts(last, nonce) : undefined);
    },
  });
}
