import fc from 'fast-check';
import { CHARS_PER_TOKEN_ESTIMATE, PROMPT_RESERVE_TOKENS, largestOutputTokens, type RemoteTaskModel } from '../../../src/contract';
import { combineGroups, combineStepsFor, planDocument, splitIntoChunks, stepsFor, type StepSizes } from '../../../workflows/document-plan';

// A chunk, or a combine group, may be sent only if its text's estimated tokens, the answer's and the prompt's fit the context.
function fitsContext(text: string, model: RemoteTaskModel): boolean {
  return text.length / CHARS_PER_TOKEN_ESTIMATE + model.maxOutputTokens + PROMPT_RESERVE_TOKENS <= model.contextTokens;
}

function model(contextTokens: number, maxOutputTokens: number): RemoteTaskModel {
  return { name: 'm', kind: 'remote', contextTokens, maxOutputTokens, concurrency: 4, unavailableWaitMs: 3_600_000 };
}

/** Throws unless `text` is the chunks in order with only whitespace before, between and after them. */
function expectChunksCover(text: string, chunks: string[]): void {
  let position = 0;
  const skipWhitespace = () => {
    while (position < text.length && /\s/.test(text[position])) position++;
  };
  for (const chunk of chunks) {
    skipWhitespace();
    expect(text.slice(position, position + chunk.length)).toBe(chunk);
    position += chunk.length;
  }
  skipWhitespace();
  expect(position).toBe(text.length);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Text built from the pieces that matter to the splitter: words, spaces, sentence ends with closing
// quotes, blank lines, emoji (surrogate pairs) and long runs without a space.
const documentText = fc
  .array(
    fc.oneof(
      fc.constantFrom('a', 'word', 'Sentence', ' ', '  ', '. ', '! ', '? ', '… ', '." ', '.) ', '\n', '\n\n', '\n \n', '\t', '😀', '👍🏽', 'é'),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.nat({ max: 120 }).map((length) => 'x'.repeat(length)),
    ),
    { maxLength: 200 },
  )
  .map((parts) => parts.join(''));

describe('splitIntoChunks', () => {
  it('keeps every non-whitespace character in order, with only whitespace lost at the joins', () => {
    fc.assert(
      fc.property(documentText, fc.integer({ min: 2, max: 200 }), (text, maxChars) => {
        const chunks = splitIntoChunks(text, maxChars);
        expectChunksCover(text, chunks);
        expect(chunks.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every character of arbitrary Unicode text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.integer({ min: 2, max: 60 }), (text, maxChars) => {
        expectChunksCover(text, splitIntoChunks(text, maxChars));
      }),
      { numRuns: 300 },
    );
  });

  it('makes no chunk longer than the max, none empty and none with whitespace around it', () => {
    fc.assert(
      fc.property(documentText, fc.integer({ min: 2, max: 200 }), (text, maxChars) => {
        for (const chunk of splitIntoChunks(text, maxChars)) {
          expect(chunk.length).toBeLessThanOrEqual(maxChars);
          expect(chunk.length).toBeGreaterThan(0);
          expect(chunk.trim()).toBe(chunk);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never splits a surrogate pair', () => {
    fc.assert(
      fc.property(documentText, fc.integer({ min: 2, max: 200 }), (text, maxChars) => {
        for (const chunk of splitIntoChunks(text, maxChars)) expect(chunk).not.toMatch(LONE_SURROGATE);
      }),
      { numRuns: 500 },
    );
    // An odd max over text made only of emoji: each cut falls one code unit early rather than inside a pair.
    const emoji = '😀'.repeat(3000);
    const chunks = splitIntoChunks(emoji, 1001);
    expect(chunks.join('')).toBe(emoji);
    for (const chunk of chunks) {
      expect(chunk).not.toMatch(LONE_SURROGATE);
      expect(chunk.length).toBeLessThanOrEqual(1001);
    }
    expect(chunks[0]).toHaveLength(1000);
  });

  it('cuts only at sentence ends when every sentence fits', () => {
    const sentence = fc
      .array(fc.constantFrom('the', 'council', 'approved', 'a', 'plan', 'for', 'buses', '😀'), { minLength: 1, maxLength: 12 })
      .chain((words) => fc.constantFrom('.', '!', '?', '…', '."', '.)', '?”').map((end) => `${words.join(' ')}${end}`));
    const separator = fc.constantFrom(' ', '  ', '\n', '\n\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(sentence, separator), { minLength: 1, maxLength: 40 }), fc.integer({ min: 150, max: 400 }), (parts, maxChars) => {
        const sentences = parts.map(([text]) => text);
        const text = parts.map(([text, space]) => text + space).join('');
        const chunks = splitIntoChunks(text, maxChars);
        expectChunksCover(text, chunks);
        let next = 0;
        for (const chunk of chunks) {
          expect(chunk).toMatch(/[.!?…]["'”’)\]]*$/);
          // Each chunk is whole sentences, as many as fit: the next one would not have.
          let consumed = 0;
          while (next < sentences.length && chunk.indexOf(sentences[next], consumed) === consumed) {
            consumed += sentences[next].length;
            next++;
            while (/\s/.test(chunk[consumed] ?? '')) consumed++;
          }
          expect(consumed).toBe(chunk.length);
          // The chunk with its trailing whitespace, and the next sentence with its own, would not have fitted.
          if (next < sentences.length) expect(chunk.length + parts[next - 1][1].length + sentences[next].length + parts[next][1].length).toBeGreaterThan(maxChars);
        }
        expect(next).toBe(sentences.length);
      }),
      { numRuns: 300 },
    );
  });

  it('packs short sentences greedily and starts a new chunk at the sentence that would overflow', () => {
    const text = 'One two three. Four five six! Seven eight? Nine ten.';
    expect(splitIntoChunks(text, 30)).toEqual(['One two three. Four five six!', 'Seven eight? Nine ten.']);
    expect(splitIntoChunks(text, 1000)).toEqual([text]);
    expect(splitIntoChunks('First paragraph without a stop\n\nSecond one', 35)).toEqual(['First paragraph without a stop', 'Second one']);
  });

  it('cuts a single sentence longer than the max at spaces', () => {
    const words = Array.from({ length: 300 }, (_, index) => `word${index}`);
    const sentence = `${words.join(' ')}.`;
    const chunks = splitIntoChunks(sentence, 100);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join(' ')).toBe(sentence);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(100);
      // Whole words only: every token of the chunk is one of the sentence's words.
      for (const token of chunk.replace(/\.$/, '').split(' ')) expect(words).toContain(token);
    }
  });

  it('cuts a text with no spaces at all into max-sized pieces', () => {
    const text = 'x'.repeat(5000);
    expect(splitIntoChunks(text, 1000)).toEqual(Array.from({ length: 5 }, () => 'x'.repeat(1000)));
    expect(splitIntoChunks(text, 1200).map((chunk) => chunk.length)).toEqual([1200, 1200, 1200, 1200, 200]);
  });

  it('gives no chunk for an empty or blank text', () => {
    expect(splitIntoChunks('', 100)).toEqual([]);
    expect(splitIntoChunks(' \n\n\t ', 100)).toEqual([]);
  });
});

describe('stepsFor', () => {
  it.each([
    [1, 4, 1],
    [2, 4, 3],
    [4, 4, 5],
    [5, 4, 5 + 2 + 1],
    [6, 4, 6 + 2 + 1],
    [16, 4, 16 + 4 + 1],
    [17, 4, 17 + 5 + 2 + 1],
    [5, 2, 5 + 3 + 2 + 1],
  ])('stepsFor(%p, %p) = %p', (chunks, groupSize, steps) => {
    expect(stepsFor(chunks, groupSize)).toBe(steps);
  });

  it('counts the calls a level-by-level combine makes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2, max: 20 }), (chunks, groupSize) => {
        let calls = chunks;
        let level = chunks;
        while (level > 1) {
          level = Math.ceil(level / groupSize);
          calls += level;
        }
        expect(stepsFor(chunks, groupSize)).toBe(calls);
      }),
    );
  });
});

describe('combineStepsFor', () => {
  it('counts the combining calls alone: a plan\'s steps less its chunks', () => {
    expect(combineStepsFor(1, 4)).toBe(0);
    expect(combineStepsFor(17, 4)).toBe(5 + 2 + 1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2, max: 20 }), (summaries, groupSize) => {
        expect(combineStepsFor(summaries, groupSize)).toBe(stepsFor(summaries, groupSize) - summaries);
      }),
    );
  });
});

describe('planDocument', () => {
  // Every model the catalog accepts: a context of at least 512 tokens, an answer of 16 tokens up to the largest.
  const acceptedModel = fc
    .integer({ min: 512, max: 200_000 })
    .chain((context) => fc.integer({ min: 16, max: largestOutputTokens(context) }).map((output) => model(context, output)));

  it('makes every chunk fit the context with the answer and the prompt', () => {
    fc.assert(
      fc.property(acceptedModel, fc.integer({ min: 1, max: 400_000 }), (taskModel, length) => {
        const text = 'A sentence of some words. '.repeat(Math.ceil(length / 26)).slice(0, length);
        const plan = planDocument(text, taskModel);
        expect(plan.chunks.length).toBeGreaterThan(0);
        for (const chunk of plan.chunks) expect(fitsContext(chunk, taskModel)).toBe(true);
        expect(plan.totalSteps).toBe(stepsFor(plan.chunks.length, plan.groupSize));
      }),
      { numRuns: 200 },
    );
  });

  it('makes a combine group of groupSize summaries at their longest fit the context', () => {
    fc.assert(
      fc.property(acceptedModel, (taskModel) => {
        const plan = planDocument('Short.', taskModel);
        expect(plan.groupSize).toBeGreaterThanOrEqual(2);
        const longest = Array.from({ length: plan.groupSize }, () => 'y'.repeat(plan.summaryMaxChars + 50));
        const [group] = combineGroups(longest, plan);
        expect(fitsContext(group, taskModel)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([512, 1024, 2048, 4096, 8192, 32_768, 128_000])('fits a combine group with the largest answer a context of %p allows', (context) => {
    const taskModel = model(context, largestOutputTokens(context));
    const plan = planDocument('Short.', taskModel);
    const [group] = combineGroups(Array.from({ length: plan.groupSize }, () => 'y'.repeat(plan.summaryMaxChars)), plan);
    expect(group.length).toBe(plan.groupSize * plan.summaryMaxChars + 2 * (plan.groupSize - 1));
    expect(fitsContext(group, taskModel)).toBe(true);
  });

  it('plans a 4096-token model with 256-token answers', () => {
    const taskModel = model(4096, 256);
    // (4096 - 256 - 64) tokens of 3 characters per chunk; answers clipped to 256 × 4 characters.
    const plan = planDocument('Word. '.repeat(5000), taskModel);
    expect(plan.summaryMaxChars).toBe(1024);
    expect(plan.groupSize).toBe(Math.floor((3776 * 3 + 2) / (1024 + 2)));
    expect(Math.max(...plan.chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(3776 * 3);
    expect(plan.chunks.length).toBe(3);
    expect(plan.totalSteps).toBe(4);
  });
});

describe('combineGroups', () => {
  const plan: StepSizes = { chunkMaxChars: 100, groupSize: 3, summaryMaxChars: 5 };

  it('groups the summaries groupSize at a time, each clipped to summaryMaxChars, joined by a blank line', () => {
    expect(combineGroups(['abcdefgh', 'ij', 'klmnop', 'q', 'rstuvwxyz'], plan)).toEqual(['abcde\n\nij\n\nklmno', 'q\n\nrstuv']);
  });

  it('gives one group for summaries that fit one, and none for none', () => {
    expect(combineGroups(['a', 'b'], plan)).toEqual(['a\n\nb']);
    expect(combineGroups([], plan)).toEqual([]);
  });
});
