import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list page's search box kept in the URL as `?<name>=`: it starts from the URL (so a global
 * search hit like /mail/mailboxes?q=ann@example.com shows that row), writes the debounced term
 * back with a history replace (typing adds no history entries), and follows a new term arriving
 * from outside (another search hit while the page is open).
 * Returns the box's text, its setter and the debounced, trimmed term to query with.
 */
export function useUrlSearch(debounceMs: number, name = 'q') {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(name) ?? '';
  const [search, setSearch] = useState(fromUrl);
  const [q] = useDebouncedValue(search.trim(), debounceMs);
  // The term the URL holds because we wrote it (or read it): anything else came from outside.
  const known = useRef(fromUrl);

  useEffect(() => {
    if (fromUrl === known.current) return;
    known.current = fromUrl;
    setSearch(fromUrl);
  }, [fromUrl]);

  useEffect(() => {
    if (q === known.current) return;
    known.current = q;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (q) next.set(name, q);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [q, name, setParams]);

  return { search, setSearch, q };
}
