export function MaintenancePage() {
  return (
    <div className="card card--narrow status-page">
      <p className="status-page__eyebrow">Scheduled maintenance</p>
      <h1 className="card__title">We'll be back shortly</h1>
      <p className="muted">
        Tandem is being updated. Your matches, requests and credits are safe. Please try again in a
        few minutes.
      </p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => {
          window.location.assign('/');
        }}
      >
        Try again
      </button>
    </div>
  );
}
