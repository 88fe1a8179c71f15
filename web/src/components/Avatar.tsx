/** The person's picture, or their initials on the accent colour when there is none. */
export function Avatar({ picture, name, size = 36 }: { picture: string | null; name: string; size?: number }) {
  if (picture) {
    return <img className="avatar" src={picture} alt="" width={size} height={size} referrerPolicy="no-referrer" />;
  }
  const initials =
    name
      .split(/[\s@._-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase() ?? '')
      .join('') || '?';
  return (
    <span className="avatar avatar--initials" style={{ width: size, height: size }} aria-hidden="true">
      {initials}
    </span>
  );
}
