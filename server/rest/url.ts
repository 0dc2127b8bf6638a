/** Paths made only of unreserved characters, with no empty or dot segment: what `new URL()` leaves untouched. */
const PLAIN_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]+)*\/?$/;

/**
 * Splits a request target into its pathname and query string (without `?`). Plain targets, nearly
 * every request, are split with indexOf; anything else (percent-escapes, dot segments, `//`, a
 * fragment, backslashes) goes through `new URL()` so the result is always what WHATWG parsing gives.
 */
export function splitRequestTarget(target: string): { pathname: string; search: string } {
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const search = mark === -1 ? '' : target.slice(mark + 1);
  if (path.charCodeAt(0) === 47 && PLAIN_PATH.test(path) && !search.includes('#')) return { pathname: path, search };
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, search: url.search.slice(1) };
}
