import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "~/i18n/use-translation";

/**
 * Small notifications, with the spec's defaults: 4 s on screen, 356 px wide, 14 px apart, at most three
 * at once. Written here rather than taken from a toast library because the whole page has a 90 KB
 * JavaScript budget and a library costs about 10 KB of it (see docs/decisions/006).
 */

export type Toast = { id: number; title: string; description?: string; variant: "default" | "destructive" };

const DURATION_MS = 4_000;
const VISIBLE = 3;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function showToast(toast: Omit<Toast, "id" | "variant"> & { variant?: Toast["variant"] }) {
  toasts = [{ ...toast, variant: toast.variant ?? "default", id: nextId++ }, ...toasts].slice(0, VISIBLE);
  emit();
}

export function dismissToast(id: number) {
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function Toaster() {
  const current = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  const { t } = useTranslation();
  return (
    // A labelled region, so it is a landmark like the rest of the page even while empty.
    <section
      aria-label={t("toast.region")}
      className="pointer-events-none fixed right-4 top-20 z-[80] w-[356px] max-w-[calc(100vw-2rem)] print:hidden"
    >
      {/* Not a list: each toast is an alert or a status, a role a list item may not take. */}
      <div className="flex flex-col gap-[14px]">
        {current.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
    </section>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = window.setTimeout(() => dismissToast(toast.id), DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [toast.id]);
  const destructive = toast.variant === "destructive";
  const { t } = useTranslation();
  return (
    <div
      role={destructive ? "alert" : "status"}
      className={`pointer-events-auto relative rounded-xl border p-4 pr-10 shadow-lg ${
        destructive ? "border-red-200 bg-red-50 text-red-900" : "border-stone-200 bg-white text-ink"
      }`}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
      <button
        type="button"
        aria-label={t("toast.close")}
        onClick={() => dismissToast(toast.id)}
        className="absolute right-2 top-2 inline-flex h-7 w-7 items-center justify-center rounded-md text-lg leading-none opacity-70 hover:opacity-100"
      >
        ×
      </button>
    </div>
  );
}
