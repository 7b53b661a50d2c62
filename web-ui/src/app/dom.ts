/** A tiny element builder: h('button.primary', {onclick}, 'Play'). */
type Child = Node | string | number | null | undefined | false;
type Props = Record<string, unknown> & { dataset?: Record<string, string>; style?: Partial<CSSStyleDeclaration> };

export function h<K extends keyof HTMLElementTagNameMap>(tagAndClasses: K | `${K}.${string}`, props: Props = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const [tag, ...classes] = tagAndClasses.split('.');
  const el = document.createElement(tag as K);
  if (classes.length) el.className = classes.join(' ');
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style') Object.assign(el.style, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value as EventListener);
    else if (key === 'class') el.className = `${el.className} ${value}`.trim();
    else if (key in el && typeof value !== 'string') (el as unknown as Record<string, unknown>)[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function clear(el: Element): void {
  el.replaceChildren();
}
