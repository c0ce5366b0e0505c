/** Shown while a route's code or data loads. `inline` fits inside a card. */
export function PageLoader({ inline = false }: { readonly inline?: boolean }) {
  return (
    <div className={inline ? 'page-loader page-loader--inline' : 'page-loader'} role="status">
      <span className="spinner spinner--large" aria-hidden="true" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
