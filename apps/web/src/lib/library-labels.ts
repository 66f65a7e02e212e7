import i18n from './i18n';

/**
 * Names the component libraries write in English whatever the language, put right in the page:
 * - the number input's step buttons ("Increase Value", "Decrease Value": @rc-component/input-number
 *   hard-codes them and antd offers no prop or locale entry);
 * - the icons' own labels (@ant-design/icons names every icon `role="img" aria-label="search"`),
 *   which screen readers read before a button's text ("plus Add", "download Export").
 * An icon beside a name (a button's text, an aria-label or title on the control) is decoration
 * and is hidden from screen readers; an icon that is a control's only name keeps its label, as
 * antd's pager arrows inside a titled item do not need it. One observer for the whole document
 * covers antd's pop-ups and portals too; it runs again when the language changes.
 */
const STEP_LABELS: Record<string, string> = {
  'Increase Value': 'common:a11y.increase',
  'Decrease Value': 'common:a11y.decrease',
};
const STEP_KEY = 'data-step-label';

/** Where a name for the icon's control comes from, if anywhere but the icon itself. */
function namedBesideIcon(icon: Element): boolean {
  const control = icon.parentElement?.closest('button, a, [role="button"], [role="link"], [role="tab"], [role="menuitem"], [role="option"], [aria-label], [title], li, label, th, td');
  if (!control) return false;
  if (control.getAttribute('aria-label') || control.getAttribute('title') || control.getAttribute('aria-labelledby')) return true;
  // Text of the control other than icons' (svg has no text, so textContent is the words).
  return (control.textContent ?? '').trim().length > 0;
}

function fixIcon(icon: Element) {
  const label = icon.getAttribute('aria-label');
  // Only the library's default label (the icon's own name, also in its class): ours stay.
  if (!label || !icon.classList.contains(`anticon-${label}`)) return;
  if (!namedBesideIcon(icon)) {
    // The control's only name: the translated title of an item around it (antd's pager arrows).
    const title = icon.parentElement?.closest('[title]')?.getAttribute('title');
    if (title) icon.setAttribute('aria-label', title);
    return;
  }
  icon.removeAttribute('aria-label');
  icon.removeAttribute('role');
  icon.setAttribute('aria-hidden', 'true');
}

function fixStep(el: Element) {
  const key = el.getAttribute(STEP_KEY) ?? STEP_LABELS[el.getAttribute('aria-label') ?? ''];
  if (!key) return;
  const text = i18n.t(key);
  // Only a change: setting the same value would wake the observer again, for ever.
  if (el.getAttribute(STEP_KEY) !== key) el.setAttribute(STEP_KEY, key);
  if (el.getAttribute('aria-label') !== text) el.setAttribute('aria-label', text);
}

function fixTree(root: ParentNode) {
  if (root instanceof Element) {
    if (root.matches('.anticon[role="img"]')) fixIcon(root);
    if (root.matches('[role="button"][aria-label]')) fixStep(root);
  }
  root.querySelectorAll('.anticon[role="img"][aria-label]').forEach(fixIcon);
  root.querySelectorAll(`[aria-label="Increase Value"], [aria-label="Decrease Value"], [${STEP_KEY}]`).forEach(fixStep);
}

let started = false;

/** Starts watching the document (once; the browser only). */
export function localizeLibraryLabels(): void {
  if (started || typeof MutationObserver === 'undefined') return;
  started = true;
  fixTree(document.body);
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) if (node instanceof Element) fixTree(node);
      // A re-rendered step button gets antd's English label back.
      if (r.type === 'attributes' && r.target instanceof Element) fixStep(r.target);
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-label'] });
  i18n.on('languageChanged', () => fixTree(document.body));
}
