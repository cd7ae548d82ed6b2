import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AssayHarness } from '../support/assay-harness';
import { linksOffTheirEnds, overlappingPairs, type Polyline, type Rect } from '../support/drawing-geometry';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import { tieredArchitecture } from '../support/tiered-architecture';
import { openBrowser, type Browser } from './chromium';
import { signInToConsole } from './console-sign-in';

/** The drawing, whole and zoomed to a finding: in a temporary folder, or with ASSAY_UPDATE_SCREENSHOTS=1 in docs/images, where docs/console.md shows them. */
const IMAGES = process.env.ASSAY_UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '../../docs/images') : fs.mkdtempSync(path.join(os.tmpdir(), 'assay-graph-'));
const DESKTOP = { width: 1280, height: 800 };
/** In drawing units (a CSS pixel at natural size), whatever the scale the drawing is shown at. */
const TOLERANCE = 1;

let harness: AssayHarness;
let browser: Browser;
let customerKey: string;

beforeAll(async () => {
  harness = await AssayHarness.start();
  customerKey = (await harness.issueKey('acme', 'test')).key;
  const reviewer = await harness.addReviewer('rita');
  browser = await openBrowser();
  await signInToConsole(browser.page, harness.baseUrl, reviewer.credential);
});

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

interface Rendered {
  boxes: [string, Rect][];
  links: Polyline[];
  selected: string[];
  transform: string;
}

/**
 * What Chromium drew: each component's box and each link's points as laid out on screen, through
 * every transform above them, then taken back to drawing units by the inverse of the pan and zoom,
 * so that a pixel's error counts as much when the drawing is shown small.
 */
function readDrawing(): Promise<Rendered> {
  return browser.page.evaluate(() => {
    const fromScreen = document.querySelector<SVGGElement>('svg g.view')!.getScreenCTM()!.inverse();
    const toDrawing = (x: number, y: number) => new DOMPoint(x, y).matrixTransform(fromScreen);
    const boxes = Array.from(document.querySelectorAll('svg g.component')).map((component): [string, Rect] => {
      const { left, top, right, bottom } = component.querySelector('rect.box')!.getBoundingClientRect();
      const [topLeft, bottomRight] = [toDrawing(left, top), toDrawing(right, bottom)];
      return [component.getAttribute('data-component-id')!, { x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y }];
    });
    const links = Array.from(document.querySelectorAll<SVGPolylineElement>('svg polyline.link')).map((line) => {
      const toScreen = line.getScreenCTM()!;
      const points = Array.from(line.points)
        .map((point) => new DOMPoint(point.x, point.y).matrixTransform(toScreen))
        .map((point) => toDrawing(point.x, point.y))
        .map(({ x, y }) => ({ x, y }));
      return { from: line.dataset.from!, to: line.dataset.to!, points };
    });
    const selected = Array.from(document.querySelectorAll('svg g.component[data-selected="true"]')).map((component) => component.getAttribute('data-component-id')!);
    return { boxes, links, selected, transform: document.querySelector('svg g.view')!.getAttribute('transform')! };
  });
}

function viewOf(transform: string): { x: number; y: number; k: number } {
  const [, x, y, k] = /translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([-\d.e]+)\)/.exec(transform)!.map(Number);
  return { x, y, k };
}

describe('the review console draws a 200-component architecture with ELK', () => {
  it('places every component in a box of its own, no two overlapping, with every link running from its source to its target', async () => {
    const graph = tieredArchitecture(200);
    expect(graph.components).toHaveLength(200);
    const created = await http(`${harness.baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(customerKey), json: graph });
    expect(created.status).toBe(202);
    const id: string = created.body.assessment_id;
    await eventually(() => http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(customerKey) }), (response) => Array.isArray(response.body.findings), `the checks of ${id}`);

    const { page } = browser;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${harness.baseUrl}/console#/review/${id}`);
    await page.locator('svg[data-state="drawn"]').waitFor({ timeout: 30_000 });
    const drawn = await readDrawing();
    const boxes = new Map(drawn.boxes);
    expect(boxes.size).toBe(200);
    expect(drawn.links).toHaveLength(graph.links.length);
    expect(overlappingPairs(boxes)).toEqual([]);
    expect(linksOffTheirEnds(drawn.links, boxes, TOLERANCE)).toEqual([]);
    // A link's points are its own, not a line from one box to the other: orthogonal routing bends.
    expect(drawn.links.some((link) => link.points.length > 2)).toBe(true);
    process.stdout.write(`console: 200 components, ${graph.links.length} links laid out by ELK in ${await page.locator('svg').getAttribute('data-layout-ms')} ms\n`);
    await page.locator('figure.graph').screenshot({ path: path.join(IMAGES, 'review-graph-200.png') });

    const finding = page.locator('.finding').first();
    const named = (await finding.locator('.muted').innerText()).replace(/^Components: /, '').split(', ');
    await finding.click();
    expect((await readDrawing()).selected.sort()).toEqual(named.sort());
    await page.locator('figure.graph').screenshot({ path: path.join(IMAGES, 'review-graph-200-finding.png') });
    expect(browser.consoleErrors).toEqual([]);
  }, 90_000);

  it('zooms with the buttons and the wheel, and pans by dragging, keeping the geometry whole', async () => {
    const { page } = browser;
    const svg = page.locator('svg[data-state="drawn"]');
    await page.getByRole('button', { name: 'Fit' }).click();
    const fitted = viewOf((await readDrawing()).transform);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(viewOf((await readDrawing()).transform).k).toBeCloseTo(fitted.k * 1.25);

    const bounds = (await svg.boundingBox())!;
    const centre = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.wheel(0, -300);
    await eventually(async () => viewOf((await readDrawing()).transform).k, (k) => k > fitted.k * 1.25, 'the wheel to zoom in');

    const before = viewOf((await readDrawing()).transform);
    await page.mouse.down();
    await page.mouse.move(centre.x + 120, centre.y + 60, { steps: 5 });
    await page.mouse.up();
    const after = viewOf((await readDrawing()).transform);
    expect(after.x - before.x).toBeCloseTo(120, 0);
    expect(after.y - before.y).toBeCloseTo(60, 0);

    const moved = await readDrawing();
    const boxes = new Map(moved.boxes);
    expect(overlappingPairs(boxes)).toEqual([]);
    expect(linksOffTheirEnds(moved.links, boxes, TOLERANCE)).toEqual([]);
    expect(browser.consoleErrors).toEqual([]);
  });
});
