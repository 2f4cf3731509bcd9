import { useLocation } from "preact-iso";

/** A section's own navigation above each of its pages: `[href, label]` links, the current one marked. */
export function SubNav({ label, items }: { label: string; items: [href: string, label: string][] }) {
  const { path } = useLocation();
  return (
    <nav class="sub-nav" aria-label={label}>
      <ul>
        {items.map(([href, text]) => (
          <li key={href}>
            <a href={href} aria-current={path.startsWith(href) ? "page" : undefined}>
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
