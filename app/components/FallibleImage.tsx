import { useEffect, useRef, useState, type ImgHTMLAttributes } from "react";

/**
 * An image that removes itself when it cannot load. It also catches a failure that happened before
 * the page became interactive, which React's onError alone would miss.
 */
export function FallibleImage(props: ImgHTMLAttributes<HTMLImageElement>) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const image = ref.current;
    if (image && image.complete && image.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return null;
  return <img ref={ref} alt="" {...props} onError={() => setFailed(true)} />;
}
