/** The Localwire mark: a map pin over news lines. Decorative; the name is text beside it. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg className="logo" viewBox="0 0 32 32" width={size} height={size} aria-hidden="true">
      <rect className="logo__bg" width="32" height="32" rx="7" />
      <path
        className="logo__fg"
        d="M16 5a7 7 0 0 0-7 7c0 5 7 12 7 12s7-7 7-12a7 7 0 0 0-7-7Zm0 4a3 3 0 1 1 0 6 3 3 0 0 1 0-6Z"
      />
      <rect className="logo__fg" x="7" y="25" width="18" height="2" rx="1" />
    </svg>
  );
}
