import { useEffect } from 'react';
import { config } from '@/config/env';

export function pageTitle(page: string): string {
  return `${config.hubName}: ${page}`;
}

/** Sets the tab title to "Tandem Hub: <page>". */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = pageTitle(page);
  }, [page]);
}
