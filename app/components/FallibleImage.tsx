import { useEffect, useRef, useState, type ImgHTMLAttributes } from "react";
import type { ImageCandidates } from "~/images/responsive-image";

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "sizes"> & { image: ImageCandidates };

/**
 * An image in AVIF or WebP with a JPEG fallback that hides itself when it cannot load, keeping its box
 * so that nothing below it moves. It also catches a failure that happened before the page became
 * interactive, which React's onError alone would miss.
 */
export function FallibleImage({ image, style, ...props }: Props) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (element && element.complete && element.naturalWidth === 0) setFailed(true);
  }, []);
  return (
    // `contents`: the <img> stays the box the layout sees, as if <picture> were not there.
    <picture className="contents">
      {/* The browser takes the first type it can show: AVIF, then WebP, then the <img>'s JPEG. */}
      <source type="image/avif" srcSet={image.avif} sizes={image.sizes} />
      <source type="image/webp" srcSet={image.webp} sizes={image.sizes} />
      <img
        ref={ref}
        alt=""
        {...props}
        src={image.src}
        srcSet={image.jpeg}
        sizes={image.sizes}
        style={failed ? { ...style, visibility: "hidden" } : style}
        data-failed={failed ? "" : undefined}
        onError={() => setFailed(true)}
      />
    </picture>
  );
}
