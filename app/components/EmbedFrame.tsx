import { useRef } from "react";
import { useExternalScript } from "~/hooks/use-external-script";

type Props = {
  src: string | undefined;
  title: string;
  height: number;
  /** Shown in the reserved space when the operator has not configured this embed. */
  missingText: string;
  scriptUrl?: string;
};

/** A third-party frame with its height reserved, whether or not it is configured or ever loads. */
export function EmbedFrame({ src, title, height, missingText, scriptUrl }: Props) {
  const host = useRef<HTMLDivElement>(null);
  useExternalScript(src ? scriptUrl : undefined, host);
  return (
    <div
      ref={host}
      className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm print:hidden"
      style={{ height }}
    >
      {src ? (
        <iframe src={src} title={title} loading="lazy" className="block h-full w-full border-0" style={{ height }} />
      ) : (
        <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center text-stone-500">
          <p className="font-serif text-lg text-stone-700">{title}</p>
          <p className="text-sm">{missingText}</p>
        </div>
      )}
    </div>
  );
}
