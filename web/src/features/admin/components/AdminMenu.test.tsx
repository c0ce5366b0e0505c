import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AdminMenu } from './AdminMenu';

describe('AdminMenu', () => {
  it('gives every item of the mini menu its own mark, with the full name as its title', () => {
    render(
      <MemoryRouter initialEntries={['/admin/users']}>
        <AdminMenu mini />
      </MemoryRouter>,
    );
    const links = within(screen.getByRole('navigation', { name: 'Admin' })).getAllByRole('link');
    const marks = links.map((link) => link.querySelector('.admin-menu__initial')?.textContent ?? '');
    expect(marks).toEqual(['Us', 'Ap', 'Fe', 'Rp', 'Rf', 'Gc', 'Is', 'Gm', 'Co', 'Au']);
    expect(new Set(marks).size).toBe(links.length); // no two alike (the initials were R/R, G/G, A/A)
    expect(links.map((link) => link.getAttribute('title'))).toContain('Refunds');
    expect(screen.getByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/admin/reports');
  });
});
