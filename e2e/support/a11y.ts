import type { BrowserContext, CDPSession, Frame, Locator, Page } from 'playwright-core';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Finds elements through Chromium's accessibility tree, as assistive technology does. The overlay
 * lives in a closed shadow root, which Playwright's locators do not enter; the accessibility tree
 * does, so tests still find the layer and its close button by role and name.
 */
export class AccessibleQuery {
  private constructor(
    private readonly session: CDPSession,
    private readonly frameId: string | undefined,
  ) {}

  /** For a page, or a same-process child frame of it (identified by its CDP frame id). */
  static async open(context: BrowserContext, page: Page, frame?: Frame): Promise<AccessibleQuery> {
    const session = await context.newCDPSession(page);
    await session.send('DOM.enable');
    await session.send('Accessibility.enable');
    let frameId: string | undefined;
    if (frame && frame !== page.mainFrame()) {
      const { frameTree } = await session.send('Page.getFrameTree');
      // CDP keeps the fragment apart from the URL.
      const url = frame.url().split('#')[0];
      const walk = (tree: typeof frameTree): string | undefined =>
        tree.frame.url === url && tree.frame.parentId ? tree.frame.id : (tree.childFrames ?? []).map(walk).find(Boolean);
      frameId = walk(frameTree);
      if (!frameId) throw new Error(`frame ${url} not found in the frame tree`);
    }
    return new AccessibleQuery(session, frameId);
  }

  /** Backend node ids of the elements with this role and accessible name, in this document. */
  async findAll(role: string, name: string): Promise<number[]> {
    const { nodes } = await this.session.send('Accessibility.getFullAXTree', this.frameId ? { frameId: this.frameId } : {});
    return nodes
      .filter((node) => !node.ignored && node.role?.value === role && node.name?.value === name && node.backendDOMNodeId !== undefined)
      .map((node) => node.backendDOMNodeId!);
  }

  async count(role: string, name: string): Promise<number> {
    return (await this.findAll(role, name)).length;
  }

  /** The border box of the single element with this role and name, in CSS pixels of its frame's viewport. */
  async box(role: string, name: string): Promise<Box> {
    const ids = await this.findAll(role, name);
    if (ids.length !== 1) throw new Error(`expected one ${role} "${name}", found ${ids.length}`);
    const { model } = await this.session.send('DOM.getBoxModel', { backendNodeId: ids[0]! });
    const [x1, y1, x2, , , y3] = model.border as [number, number, number, number, number, number, number, number];
    return { x: x1, y: y1, width: x2 - x1, height: y3 - y1 };
  }

  /** Waits until an element with this role and name exists (or, with `present` false, until none does). */
  async waitFor(role: string, name: string, present = true, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.count(role, name)) > 0 !== present) {
      if (Date.now() > deadline) throw new Error(`${role} "${name}" did not ${present ? 'appear' : 'go away'} within ${timeoutMs} ms`);
      await new Promise((wake) => setTimeout(wake, 100));
    }
  }

  /** Whether keyboard focus is on the element with this role and name (or inside it). */
  async isFocused(role: string, name: string): Promise<boolean> {
    const { nodes } = await this.session.send('Accessibility.getFullAXTree', this.frameId ? { frameId: this.frameId } : {});
    return nodes.some(
      (node) =>
        node.role?.value === role &&
        node.name?.value === name &&
        (node.properties ?? []).some((property) => property.name === 'focused' && property.value.value === true),
    );
  }

  async close(): Promise<void> {
    await this.session.detach().catch(() => undefined);
  }
}

/** Clicks the middle of a box with the real mouse (main-frame coordinates). */
export async function clickBox(page: Page, box: Box): Promise<void> {
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Clicks, with the page's real mouse, a button whose click removes the frame it sits in (the
 * overlay's uploader). Playwright's own click() on a frame's element can wait for ever when that
 * frame is detached while the click is performed; the page's mouse only waits for the browser.
 */
export async function clickClosingFrame(page: Page, button: Locator): Promise<void> {
  await button.waitFor();
  const box = await button.boundingBox();
  if (!box) throw new Error('the button has no box on the page');
  await clickBox(page, box);
}
