import { useEffect, useState, type ChangeEvent } from 'react';
import { checkLogoFile, type BrandProfile } from '../api/brands';

/**
 * The logo the member chose for the brand form: a new file (previewed, uploaded when the
 * form saves), the current logo removed, or the current logo kept. `onProblem` receives a
 * picked file's problem (null once a good file is picked).
 */
export function useLogoChoice(brand: BrandProfile | null, onProblem: (problem: string | null) => void) {
  const [file, setFile] = useState<File | null>(null);
  const [remove, setRemove] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    if (!picked) return;
    const problem = checkLogoFile(picked);
    if (problem) {
      onProblem(problem);
      setFile(null);
      setPreview(null);
      event.target.value = '';
      return;
    }
    onProblem(null);
    setRemove(false);
    setFile(picked);
    setPreview(typeof URL.createObjectURL === 'function' ? URL.createObjectURL(picked) : null);
  };

  /** Drops the new file (the field clears its input). */
  const clear = () => {
    setFile(null);
    setPreview(null);
  };

  const toggleRemove = () => {
    setRemove((current) => !current);
  };

  return {
    file,
    remove,
    preview,
    /** What shows: the preview of a new file, else the current logo unless removed. */
    shown: preview ?? (remove ? null : (brand?.logoUrl ?? null)),
    hasCurrent: Boolean(brand?.logoUrl),
    onChange,
    clear,
    toggleRemove,
  };
}

export type LogoChoice = ReturnType<typeof useLogoChoice>;
