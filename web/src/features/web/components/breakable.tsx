import { Fragment } from 'react';

/**
 * A host name or path that may wrap after its dots and slashes only (never mid-label), so a
 * narrow column breaks `shop.example.com` as `shop.` / `example.com`. Copying keeps the text as is.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[./])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
