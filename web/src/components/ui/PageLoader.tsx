/** Shown while a route's code or data loads. */
export function PageLoader() {
  return (
    <div className="page-loader" role="status">
      <span className="spinner spinner--large" aria-hidden="true" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
