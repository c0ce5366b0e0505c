import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/Toaster';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderWithProviders } from '@/testing/render-route';
import { IssueReportBox } from './IssueReportBox';

function renderBox() {
  const user = userEvent.setup();
  // With the app's providers: the write's failure is told by the app's MutationCache.
  renderWithProviders(
    <MemoryRouter initialEntries={['/matches/saved']}>
      <IssueReportBox />
      <Toaster />
    </MemoryRouter>,
  );
  return user;
}

describe('IssueReportBox', () => {
  it("asks for a description: 'Please enter a description'", async () => {
    const api = mockApi();
    const user = renderBox();
    await user.click(screen.getByRole('button', { name: 'Report an issue' }));
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(screen.getByLabelText('What went wrong?')).toHaveAccessibleDescription('Please enter a description');
    expect(api.requests).toHaveLength(0);
  });

  it("sends the description and page, then says 'Issue sent'", async () => {
    const api = mockApi({ 'POST issues/report': { ok: true } });
    const user = renderBox();
    await user.click(screen.getByRole('button', { name: 'Report an issue' }));
    await user.type(screen.getByLabelText('What went wrong?'), 'The save button does nothing');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Issue sent')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls('POST issues/report')[0]?.body).toEqual({
      description: 'The save button does nothing',
      path: '/matches/saved',
    });
  });

  it('shows the server error as a toast and keeps the text', async () => {
    mockApi({ 'POST issues/report': jsonResponse({ error: 'Not found' }, 404) });
    const user = renderBox();
    await user.click(screen.getByRole('button', { name: 'Report an issue' }));
    await user.type(screen.getByLabelText('What went wrong?'), 'Broken');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
    expect(screen.getByLabelText('What went wrong?')).toHaveValue('Broken');
  });
});
