import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FIT_PROMISE } from '../test-fixtures';
import { FitMeter } from './FitMeter';

describe('FitMeter', () => {
  it('shows the label and what our requests back for it, never the raw score as a percent', () => {
    const { container } = render(<FitMeter fit="Great fit" promise={FIT_PROMISE['Great fit']} />);
    expect(screen.getByText('Great fit')).toBeInTheDocument();
    expect(screen.getByText('Of requests sent to Great fit brands, about 4 in 10 were accepted')).toBeInTheDocument();
    expect(container).not.toHaveTextContent('%');
    expect(container.querySelectorAll('.fit__step--on')).toHaveLength(3);
  });

  it('promises nothing the data does not back: a fresh deployment shows the label alone', () => {
    const { container } = render(<FitMeter fit="Great fit" promise={null} />);
    expect(screen.getByText('Great fit')).toBeInTheDocument();
    expect(container.querySelector('.fit__promise')).toBeNull();
    expect(container).not.toHaveTextContent(/in 10|say yes|accepted/);
  });

  it('fills one step per label, from Worth a look to Great fit', () => {
    const steps = (['Worth a look', 'Good fit', 'Great fit'] as const).map((fit) => {
      const { container, unmount } = render(<FitMeter fit={fit} promise={FIT_PROMISE[fit]} />);
      const on = container.querySelectorAll('.fit__step--on').length;
      expect(container.querySelector('.fit__steps')).toHaveAttribute('aria-hidden', 'true'); // the words say it
      unmount();
      return on;
    });
    expect(steps).toEqual([1, 2, 3]);
  });
});
