/**
 * An element with attributes and children, built node by node (no innerHTML): host pages that
 * enforce Trusted Types would refuse markup strings, and text children stay inert whatever they hold.
 */
export function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  for (const name in attributes) node.setAttribute(name, attributes[name]!);
  node.append(...children);
  return node;
}
