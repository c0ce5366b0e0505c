import { Fragment } from 'react';

/**
 * An email address or web address that may wrap at its natural points: before the '@' and
 * after each dot or slash, so "flora.fern@wildfern.example" never splits mid-word on a phone.
 */
export function Breakable({ text }: { readonly text: string }) {
  const parts = text.split(/(?<=[./])|(?=@)/);
  return (
    <>
      {parts.map((part, index) => (
        // The parts of one string never reorder, so the index is a stable key.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
