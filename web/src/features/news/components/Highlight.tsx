import { highlightParts } from '../../../lib/news';

/** Text with the search terms marked (accent- and case-insensitive, client side). */
export function Highlight({ text, terms }: { text: string; terms?: readonly string[] }) {
  if (!terms || terms.length === 0) return <>{text}</>;
  return (
    <>
      {highlightParts(text, terms).map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : part.text,
      )}
    </>
  );
}
