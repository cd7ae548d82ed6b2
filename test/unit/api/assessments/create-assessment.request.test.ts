import { ASSESSMENT_LIMITS } from '../../../../src/contract/wire/assessment-limits';
import { parseCreateAssessmentRequest } from '../../../../src/api/assessments/create-assessment.request';
import { ApiError } from '../../../../src/api/platform/http/api-error';
import { largestAcceptedArchitecture } from '../../../support/graphs';

const VALID = {
  name: 'Checkout',
  context: 'Runs the shop checkout.',
  components: [
    { id: 'lb-1', kind: 'load_balancer', zone: 'eu-1a' },
    { id: 'app-1', kind: 'app', zone: 'eu-1a', attributes: { cpu: 4, public: false, tier: 'web' } },
  ],
  links: [{ from: 'lb-1', to: 'app-1', kind: 'https' }],
};

function withChange(change: (body: any) => void): unknown {
  const body = structuredClone(VALID);
  change(body);
  return body;
}

function errorOf(body: unknown): ApiError {
  try {
    parseCreateAssessmentRequest(body);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the body to be refused');
}

describe('a well-formed architecture', () => {
  it('is accepted as the workflow input: name, context and graph', () => {
    expect(parseCreateAssessmentRequest(VALID)).toEqual({
      name: 'Checkout',
      context: 'Runs the shop checkout.',
      graph: { components: VALID.components, links: VALID.links },
    });
  });

  it('may leave out the context, which then is empty', () => {
    expect(parseCreateAssessmentRequest(withChange((body) => delete body.context)).context).toBe('');
  });

  it('is normalised to one key order, so the request hash ignores how the client ordered keys', () => {
    const reordered = { links: [{ kind: 'https', to: 'app-1', from: 'lb-1' }], components: VALID.components, context: VALID.context, name: VALID.name };
    expect(JSON.stringify(parseCreateAssessmentRequest(reordered))).toBe(JSON.stringify(parseCreateAssessmentRequest(VALID)));
  });

  it('may link a component to itself or link two components twice (the checks report it)', () => {
    const body = withChange((b) => b.links.push({ from: 'app-1', to: 'app-1' }, { from: 'lb-1', to: 'app-1' }));
    expect(parseCreateAssessmentRequest(body).graph.links).toHaveLength(3);
  });

  it(`accepts ${ASSESSMENT_LIMITS.components} components and ${ASSESSMENT_LIMITS.links} links`, () => {
    const request = parseCreateAssessmentRequest(largestAcceptedArchitecture());
    expect(request.graph.components).toHaveLength(ASSESSMENT_LIMITS.components);
    expect(request.graph.links).toHaveLength(ASSESSMENT_LIMITS.links);
  });
});

describe('a malformed architecture is a 400 naming the offending field', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['an array body', [VALID], /^body: /],
    ['a missing name', withChange((b) => delete b.name), /^name: required/],
    ['a blank name', withChange((b) => (b.name = '   ')), /^name: must not be blank/],
    ['a name over 200 characters', withChange((b) => (b.name = 'n'.repeat(201))), /^name: must be at most 200 characters/],
    ['a context over 20,000 characters', withChange((b) => (b.context = 'c'.repeat(20_001))), /^context: must be at most 20000/],
    ['a context that is not a string', withChange((b) => (b.context = 42)), /^context: must be a string/],
    ['an unknown top-level field', withChange((b) => (b.owner = 'me')), /owner/],
    ['missing components', withChange((b) => delete b.components), /^components: required/],
    ['no components', withChange((b) => (b.components = [])), /^components: must list at least one component/],
    ['too many components', withChange((b) => (b.components = largestAcceptedArchitecture().components.concat({ id: 'x', kind: 'app', zone: 'z' }))), /^components: must list at most 2000 components/],
    ['missing links', withChange((b) => delete b.links), /^links: required/],
    ['too many links', withChange((b) => (b.links = Array(10_001).fill({ from: 'lb-1', to: 'app-1' }))), /^links: must list at most 10000 links/],
    ['a component that is not an object', withChange((b) => (b.components[1] = 'app-1')), /^components\.1: must be an object/],
    ['a component without an id', withChange((b) => delete b.components[1].id), /^components\.1\.id: required/],
    ['a component id with a space', withChange((b) => (b.components[1].id = 'app 1')), /^components\.1\.id: may contain only/],
    ['a component id over 128 characters', withChange((b) => (b.components[1].id = 'a'.repeat(129))), /^components\.1\.id: must be at most 128/],
    ['a duplicate component id', withChange((b) => (b.components[1].id = 'lb-1')), /^components\.1\.id: "lb-1" is already the id of components\.0/],
    ['a component without a kind', withChange((b) => delete b.components[0].kind), /^components\.0\.kind: required/],
    ['a kind over 64 characters', withChange((b) => (b.components[0].kind = 'k'.repeat(65))), /^components\.0\.kind: must be at most 64/],
    ['a blank zone', withChange((b) => (b.components[0].zone = ' ')), /^components\.0\.zone: must not be blank/],
    ['a zone with a control character', withChange((b) => (b.components[0].zone = 'eu\u0000')), /^components\.0\.zone: must not contain control/],
    ['an unknown component field', withChange((b) => (b.components[0].owner = 'me')), /^components\.0: .*owner/],
    ['attributes that are not an object', withChange((b) => (b.components[1].attributes = ['x'])), /^components\.1\.attributes: must be an object/],
    ['an attribute holding an object', withChange((b) => (b.components[1].attributes.nested = { a: 1 })), /^components\.1\.attributes\.nested: must be a string/],
    ['an attribute string over 256 characters', withChange((b) => (b.components[1].attributes.tier = 't'.repeat(257))), /^components\.1\.attributes\.tier: /],
    ['more than 20 attributes', withChange((b) => (b.components[1].attributes = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])))), /^components\.1\.attributes: must have at most 20 keys/],
    ['a link to a component that does not exist', withChange((b) => (b.links[0].to = 'ghost')), /^links\.0\.to: "ghost" is not the id of any component/],
    ['a link from a component that does not exist', withChange((b) => (b.links[0].from = 'ghost')), /^links\.0\.from: "ghost" is not the id/],
    ['a link without a to', withChange((b) => delete b.links[0].to), /^links\.0\.to: required/],
    ['a link with a blank kind', withChange((b) => (b.links[0].kind = '')), /^links\.0\.kind: must not be empty/],
    ['an unknown link field', withChange((b) => (b.links[0].weight = 3)), /^links\.0: .*weight/],
  ];

  it.each(cases)('%s', (_case, body, message) => {
    const error = errorOf(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toMatch(message);
  });
});

describe('size', () => {
  it('refuses with 413 an architecture too large for the workflow input, before anything starts', () => {
    const ids = Array.from({ length: ASSESSMENT_LIMITS.components }, (_, index) => `${'x'.repeat(120)}-${index}`);
    const body = {
      name: 'Long ids',
      components: ids.map((id) => ({ id, kind: 'app', zone: 'eu-1a' })),
      links: Array.from({ length: ASSESSMENT_LIMITS.links }, (_, index) => ({ from: ids[index % ids.length], to: ids[(index + 1) % ids.length] })),
    };
    const error = errorOf(body);
    expect(error.status).toBe(413);
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toMatch(/at most 1572864 are accepted/);
  });
});
