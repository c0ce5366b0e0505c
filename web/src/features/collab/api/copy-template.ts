import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { showToast } from '@/lib/toast';

/** Copy template (the idea popup): the template to the clipboard; a blocked clipboard is an error toast. */
export function useCopyTemplate() {
  return useMutation({
    meta: errorToast("Couldn't copy the template"),
    mutationFn: (template: string) =>
      navigator.clipboard.writeText(template).catch(() => {
        // A refused clipboard is told like a call that got no answer (status 0).
        throw new ApiError(0, 'Your browser blocked the clipboard: select the text and copy it instead.');
      }),
    onSuccess: () => {
      showToast({ title: 'Template copied', message: 'Paste it into your message or document.', tone: 'success' });
    },
  });
}
