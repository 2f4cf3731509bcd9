import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";

/** A page of the menu: where it goes, its name, and the section it marks current (its pages too). */
export interface NavLink {
  href: string;
  label: string;
  /** The path whose pages make this link current (default `href`). */
  section?: string;
  /** Current on its own page only: a page above others that have links of their own (the dashboard, Settings). */
  exact?: boolean;
}

export interface NavGroup {
  label: string;
  links: NavLink[];
}

const isCurrent = (path: string, { href, section = href, exact }: NavLink) =>
  exact
    ? path.replace(/\/$/, "") === href.replace(/\/$/, "")
    : path === section || path.startsWith(`${section}/`);

function MenuLink({ link, path }: { link: NavLink; path: string }) {
  return (
    <li>
      <a href={link.href} aria-current={isCurrent(path, link) ? "page" : undefined}>
        {link.label}
      </a>
    </li>
  );
}

/**
 * The main menu (issue #45): the dashboard, then the groups (Office, Floor, 3PL, Configuration), each a button that
 * opens its links below it (a disclosure: Escape or a click elsewhere closes it, focus goes back to its button), so
 * the header is one row on a laptop. Below 760 px everything folds behind the Menu button and the groups are
 * listed open, under their names. `controls` (tenant, account, sign out) close the row.
 */
export function MainNav({
  home,
  groups,
  controls,
}: {
  home: NavLink;
  groups: NavGroup[];
  controls: ComponentChildren;
}) {
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  const nav = useRef<HTMLElement>(null);

  // A new page closes every menu.
  useEffect(() => {
    setMenuOpen(false);
    setOpenGroup(null);
  }, [path]);

  // An open group closes on Escape (focus back on its button) and on a click outside the menu.
  useEffect(() => {
    if (!openGroup) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpenGroup(null);
      nav.current?.querySelector<HTMLElement>(`[data-group="${openGroup}"]`)?.focus();
    };
    const onClick = (event: MouseEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpenGroup(null);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [openGroup]);

  return (
    <>
      <button
        type="button"
        class="button menu-button"
        aria-expanded={menuOpen}
        aria-controls="main-nav"
        onClick={() => setMenuOpen(!menuOpen)}
      >
        Menu
      </button>
      <nav id="main-nav" ref={nav} class={menuOpen ? "main-nav open" : "main-nav"} aria-label="Main">
        <ul class="nav-groups">
          <MenuLink link={home} path={path} />
          {groups.map((group) => {
            const id = `nav-${group.label.toLowerCase().replace(/\W+/g, "-")}`;
            const open = openGroup === group.label;
            const current = group.links.some((link) => isCurrent(path, link));
            return (
              <li key={group.label} class="nav-group">
                <button
                  type="button"
                  class={current ? "nav-group-button current" : "nav-group-button"}
                  data-group={group.label}
                  aria-expanded={open}
                  aria-controls={id}
                  onClick={() => setOpenGroup(open ? null : group.label)}
                >
                  {group.label}
                </button>
                <span class="nav-group-name" aria-hidden="true">
                  {group.label}
                </span>
                <ul id={id} class={open ? "nav-links open" : "nav-links"} aria-label={group.label}>
                  {group.links.map((link) => (
                    <MenuLink key={link.href} link={link} path={path} />
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
        <div class="session-controls">{controls}</div>
      </nav>
    </>
  );
}
