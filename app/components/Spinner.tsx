/** A loading indicator with its text, announced politely to screen readers. */
export function Spinner({ label, className = "" }: { label: string; className?: string }) {
  return (
    <div role="status" className={`pending-fade flex items-center justify-center gap-3 text-stone-600 ${className}`}>
      <span
        aria-hidden="true"
        className="h-6 w-6 animate-spin rounded-full border-2 border-stone-300 border-t-moss-700"
      />
      <span>{label}</span>
    </div>
  );
}
