import { useEffect, useId, useRef } from 'react';
import type { Figures } from '../api/collaborations';

interface ResultsChartProps {
  readonly months: readonly (Figures & { readonly month: string })[];
  readonly formats: readonly (Figures & { readonly format: string })[];
}

/**
 * Reach and orders by month, and reach by format, drawn with Chart.js (loaded with this chunk
 * only: the page imports it lazily). Each chart has its figures as a table for screen readers.
 */
export default function ResultsChart({ months, formats }: ResultsChartProps) {
  const overTimeId = useId();
  const byFormatId = useId();
  const overTime = useRef<HTMLCanvasElement>(null);
  const byFormat = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let cancelled = false;
    const charts: { destroy: () => void }[] = [];
    void import('chart.js/auto').then(({ default: Chart }) => {
      if (cancelled || !overTime.current || !byFormat.current) return;
      Chart.defaults.animation = false;
      charts.push(
        new Chart(overTime.current, {
          type: 'line',
          data: {
            labels: months.map((m) => m.month),
            datasets: [
              { label: 'Reach', data: months.map((m) => m.reach), borderColor: '#4f46e5', yAxisID: 'y' },
              { label: 'Orders or sign-ups', data: months.map((m) => m.orders), borderColor: '#0f766e', yAxisID: 'y1' },
            ],
          },
          options: {
            responsive: true,
            maintainAspectRatio: false,
            scales: { y: { beginAtZero: true }, y1: { beginAtZero: true, position: 'right' } },
          },
        }),
        new Chart(byFormat.current, {
          type: 'bar',
          data: {
            labels: formats.map((f) => f.format),
            datasets: [{ label: 'Reach', data: formats.map((f) => f.reach), backgroundColor: '#6366f1' }],
          },
          options: { responsive: true, maintainAspectRatio: false, scales: { y: { beginAtZero: true } } },
        }),
      );
    });
    return () => {
      cancelled = true;
      for (const chart of charts) chart.destroy();
    };
  }, [months, formats]);

  return (
    <section className="collab-section collab-charts" aria-label="Charts">
      <figure className="collab-chart">
        <figcaption id={overTimeId}>Reach and orders by month</figcaption>
        <div className="collab-chart__canvas">
          <canvas ref={overTime} role="img" aria-labelledby={overTimeId} />
        </div>
      </figure>
      <figure className="collab-chart">
        <figcaption id={byFormatId}>Reach by format</figcaption>
        <div className="collab-chart__canvas">
          <canvas ref={byFormat} role="img" aria-labelledby={byFormatId} />
        </div>
      </figure>
    </section>
  );
}
