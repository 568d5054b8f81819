/** A strict XML 1.0 parse with saxes into a small element tree; any well-formedness error throws. */
import { SaxesParser } from 'saxes';

export interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

export function parseXml(xml: string): El {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const root: El = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: El[] = [root];
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const el: El = { name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, children: [], text: '' };
    stack[stack.length - 1]!.children.push(el);
    stack.push(el);
  });
  parser.on('text', (t) => {
    stack[stack.length - 1]!.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (root.children.length !== 1) throw new Error(`expected one root element, got ${root.children.length}`);
  return root.children[0]!;
}

export function all(el: El, name: string): El[] {
  const out: El[] = [];
  const walk = (e: El): void => {
    for (const c of e.children) {
      if (c.name === name) out.push(c);
      walk(c);
    }
  };
  walk(el);
  return out;
}
