import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { h } from './dom';

/**
 * docs/security.md: "The UI sets text, never HTML, from what it is sent". A page that parsed a string as HTML (a
 * player's name, a server message) would run what it carries; these tests fail when one appears.
 */
const SRC = join(__dirname, '..');

/** Every source file of the UI (not the tests, which name the APIs they look for). */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The DOM's ways to turn a string into markup: setters, parsers and writers of HTML. */
const HTML_SINKS = /\b(innerHTML|outerHTML|insertAdjacentHTML|createContextualFragment|DOMParser|srcdoc|setHTMLUnsafe|parseHTMLUnsafe)\b|\bdocument\s*\.\s*write(ln)?\b/i;

describe('the UI never sets HTML', () => {
  it('no source file uses innerHTML, outerHTML, insertAdjacentHTML, document.write, DOMParser, createContextualFragment or srcdoc', () => {
    const files = sources();
    // the scan sees the whole UI (not an empty or wrong folder)
    expect(files.map((f) => relative(SRC, f))).toEqual(expect.arrayContaining(['main.ts', join('app', 'dom.ts')]));
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const hit = HTML_SINKS.exec(line);
        if (hit) found.push(`src/${relative(SRC, file)}:${i + 1}: ${hit[0]}: ${line.trim()}`);
      });
    }
    expect(found, 'HTML set from a string (build elements with h() from src/app/dom.ts instead)').toEqual([]);
  });
});

/** Just enough of the DOM for h(): ParentNode.append makes a string a Text node, as the DOM does; parsing HTML throws. */
class FakeNode {}
class FakeText extends FakeNode {
  constructor(readonly data: string) {
    super();
  }
}
class FakeElement extends FakeNode {
  readonly childNodes: FakeNode[] = [];
  readonly attributes = new Map<string, string>();
  readonly dataset = {};
  readonly style = {};
  className = '';
  constructor(readonly tagName: string) {
    super();
  }
  append(...nodes: unknown[]): void {
    for (const node of nodes) this.childNodes.push(node instanceof FakeNode ? node : new FakeText(String(node)));
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  addEventListener(): void {}
  get innerHTML(): string {
    throw new Error('innerHTML read');
  }
  set innerHTML(_html: string) {
    throw new Error('innerHTML set');
  }
  insertAdjacentHTML(): void {
    throw new Error('insertAdjacentHTML');
  }
}

describe('h() builds from text', () => {
  afterEach(() => vi.unstubAllGlobals());

  function fakeDocument(): string[] {
    const created: string[] = [];
    vi.stubGlobal('Node', FakeNode);
    vi.stubGlobal('document', { createElement: (tag: string) => (created.push(tag), new FakeElement(tag)) });
    return created;
  }

  it('a child string that looks like markup is one text node, not an element', () => {
    const created = fakeDocument();
    const p = h('p', {}, '<b>x</b>', 7) as unknown as FakeElement;
    expect(created).toEqual(['p']);
    expect(p.childNodes).toHaveLength(2);
    expect(p.childNodes[0]).toBeInstanceOf(FakeText);
    expect((p.childNodes[0] as FakeText).data).toBe('<b>x</b>');
    expect((p.childNodes[1] as FakeText).data).toBe('7');
  });

  it('a string property is an attribute’s text, even one named innerHTML', () => {
    fakeDocument();
    const div = h('div', { title: '<b>x</b>', innerHTML: '<b>x</b>' }) as unknown as FakeElement;
    expect(div.attributes.get('title')).toBe('<b>x</b>');
    expect(div.attributes.get('innerHTML')).toBe('<b>x</b>');
    expect(div.childNodes).toEqual([]);
  });
});
