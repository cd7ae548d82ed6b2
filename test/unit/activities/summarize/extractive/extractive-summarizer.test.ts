import {
  MAX_SUMMARY_CHARS,
  MAX_SUMMARY_SENTENCES,
  summarizeExtractive,
  summarySentences,
} from '../../../../../activities/summarize/extractive';
import { MAX_SENTENCE_CHARS, splitSentences } from '../../../../../activities/summarize/extractive/sentences';

const MEETING_NOTES = `Weekly sync - 12 March
Attendees: Ana, Bo, Chen, Dee
Notes
- Release 2.3 is blocked on the payment provider migration; Bo expects the migration to finish Thursday.
- QA found two regressions in the checkout flow, both fixed in staging.
- Chen proposed moving the release to next Tuesday to give QA a full regression pass.
- Hiring: two backend candidates are in the final round, with decisions by Friday.
Decisions
- Release 2.3 moves to Tuesday 19 March.
Action items
- Bo: finish the payment provider migration by Thursday.
- Dee: schedule the full regression pass for Monday.
- Ana: send the new release date to customers.`;

const README = `# tidy-logs

tidy-logs rotates, compresses and prunes application log files on a schedule.
It runs as a small daemon and needs no database or external service.
Rotation is based on file size or age, whichever comes first, and compressed archives are kept for a configurable number of days.

## Install

\`\`\`sh
npm install --global tidy-logs
const config = require('./tidy-logs.json');
\`\`\`

## Usage

Point tidy-logs at a folder and it watches every log file inside it.
Old archives are deleted once they pass the retention period, so disks never fill up with forgotten logs.

| option | default |
|--------|---------|
| maxSize | 10 MB |

## Licence

MIT`;

const GROCERIES = ['eggs', 'milk', 'bread', 'butter', 'coffee beans', 'apples', 'cheese', 'rice', 'tomatoes', 'onions'];
const SHOPPING_LIST = GROCERIES
  .flatMap((item) => [`- ${item}`, `- ${item} (organic)`, `- two packs of ${item}`])
  .join('\n');

const GERMAN = [
  'Die Stadt Berlin plant eine neue Straßenbahnlinie zwischen Hauptbahnhof und Flughafen.',
  'Nach Angaben des Senats beginnen die Bauarbeiten für die Straßenbahn im nächsten Frühjahr.',
  'Die Kosten der neuen Straßenbahnlinie werden auf 300 Millionen Euro geschätzt.',
  'Kritiker bemängeln, dass die Straßenbahn zwischen Hauptbahnhof und Flughafen zu langsam sei.',
  'Befürworter verweisen auf die geringeren Kosten im Vergleich zu einer neuen U-Bahn.',
  'Die Bahnen sollen tagsüber alle zehn Minuten fahren.',
  'Anwohner wurden zu einer Informationsveranstaltung im Rathaus eingeladen.',
  'Der Senat rechnet mit täglich 40.000 Fahrgästen auf der neuen Linie.',
  'Die Eröffnung der Straßenbahnlinie ist für das Jahr 2029 geplant.',
].join(' ');

const CHINESE = [
  '北京市政府宣布了一项新的公共交通计划。',
  '该计划包括建设三条新的地铁线路。',
  '新线路将连接城市东部和西部的主要商业区。',
  '预计地铁工程将于明年开始，五年内完成。',
  '政府表示，新的地铁线路将大大缓解城市的交通拥堵。',
  '专家认为，地铁建设对城市发展具有重要意义。',
  '部分居民担心地铁施工期间的噪音问题。',
  '政府承诺将采取措施减少施工对居民生活的影响。',
  '新线路的票价将与现有地铁线路保持一致。',
  '市民可以通过政府网站了解地铁工程的最新进展。',
  '交通部门还计划在新线路沿线增加公交接驳服务。',
  '这一计划是北京市未来五年交通发展规划的重要组成部分。',
  '政府将在下个月举行公开听证会，听取市民对地铁计划的意见。',
].join('');

const NEWS_ARTICLE = [
  'The city council approved a plan on Tuesday to build 2,000 affordable homes on the site of the old steelworks.',
  'The vote followed two years of debate over how the land should be used.',
  'Council leader Maria Lopez said the homes would be ready for the first residents by 2027.',
  'Opponents of the plan argued that the site should have become a park.',
  'The steelworks closed in 2009, and the land has been empty since then.',
  'Developers will also build a primary school and a health centre on the site.',
  'A third of the homes will be offered for social rent, the council said.',
  'Local businesses welcomed the plan, saying new residents would bring customers back to the high street.',
  'Construction is expected to start next spring, once the land has been cleaned.',
  'The cleaning alone will cost an estimated 40 million pounds, paid for by a government grant.',
  'Residents can see the plans at the town hall until the end of the month.',
  'The council will hold a public meeting about the homes next week.',
].join(' ');

/** A long, realistic text: many paragraphs of distinct sentences about a few topics. */
function longReport(sentenceCount: number): string {
  const topics = ['budget', 'hiring', 'security', 'roadmap', 'customers', 'infrastructure'];
  const topic = (k: number): string => topics[k % topics.length];
  const sentences = Array.from(
    { length: sentenceCount },
    (_, i) => `Item ${i} of the report covers ${topic(i)} and ${topic(i * 5 + 1)} in region ${i % 13}, with ${i * 3} open tasks.`,
  );
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += 8) paragraphs.push(sentences.slice(i, i + 8).join(' '));
  return paragraphs.join('\n\n');
}

function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Every summary sentence is taken from the text, not invented. */
function expectExtractedFrom(text: string): void {
  const source = normaliseSpace(text);
  for (const sentence of summarySentences(text)) {
    expect(source).toContain(normaliseSpace(sentence.text));
  }
}

describe('odd inputs get a sensible summary, never an error or an empty string', () => {
  it.each([
    ['meeting notes', MEETING_NOTES],
    ['a README', README],
    ['a bullet list', SHOPPING_LIST],
    ['German prose', GERMAN],
    ['Chinese prose', CHINESE],
    ['a long report', longReport(300)],
  ])('%s: a non-empty extract of the input, shorter than the input', (_kind, text) => {
    const summary = summarizeExtractive(text);
    expect(summary.trim()).not.toBe('');
    expect(summary.length).toBeLessThan(text.length);
    expectExtractedFrom(text);
  });

  it('meeting notes: keeps substantive notes, not just headings', () => {
    const lines = summarizeExtractive(MEETING_NOTES).split('\n');
    expect(lines.some((line) => line.startsWith('- '))).toBe(true);
    expect(lines).not.toContain('Notes');
  });

  it('a README: summarises the prose and leaves out code blocks and tables', () => {
    const summary = summarizeExtractive(README);
    expect(summary).toContain('tidy-logs rotates, compresses and prunes application log files on a schedule.');
    expect(summary).not.toContain('npm install');
    expect(summary).not.toContain('require(');
    expect(summary).not.toContain('|');
  });

  it('a README made only of a code block is summarised from the code', () => {
    const summary = summarizeExtractive('```\nconst a = 1;\nconst b = 2;\n```');
    expect(summary).toContain('const a = 1;');
  });

  it('a bullet list keeps one item per line', () => {
    const items = SHOPPING_LIST.split('\n');
    for (const line of summarizeExtractive(SHOPPING_LIST).split('\n')) expect(items).toContain(line);
  });

  it('a single very long paragraph gets a few sentences', () => {
    const paragraph = longReport(400).replace(/\n+/g, ' ');
    const sentences = summarySentences(paragraph);
    expect(sentences.length).toBeGreaterThanOrEqual(3);
    expect(sentences.length).toBeLessThanOrEqual(8);
  });

  it('text with no sentence punctuation is cut into bounded pieces', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word${i % 97}`).join(' ');
    const summary = summarizeExtractive(words);
    expect(summary.trim()).not.toBe('');
    expect(summary.length).toBeLessThan(words.length / 10);
    for (const sentence of summarySentences(words)) {
      expect(sentence.text.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS);
    }
  });

  it('a single huge word is cut into pieces rather than returned whole', () => {
    const summary = summarizeExtractive('x'.repeat(100_000));
    expect(summary.length).toBeGreaterThan(0);
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
  });

  it('Chinese sentences are joined without spaces', () => {
    const summary = summarizeExtractive(CHINESE);
    expect(summary).not.toMatch(/\s/);
    expect(summary.length).toBeLessThan(CHINESE.length);
  });

  it.each([['🎉🎉 party tonight 🎈'], ['... !!! ???'], ['ok']])('returns %p, too short to shorten, as it is', (text) =>
    expect(summarizeExtractive(text)).toBe(text),
  );

  it('returns a non-empty, bounded summary for any non-blank mix of awkward pieces', () => {
    const pieces = ['a', 'Z', ' ', '\n', '\n\n', '.', '. ', '!', '?', '。', '北', '🎉', '\t', '```\n', '|', '- ', 'Dr. ', ',',
      '…', '\r\n', '\u2028', 'www.x.com ', 'x'.repeat(450), ' word'.repeat(100)];
    let seed = 42;
    const random = (below: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * below);
    };
    for (let run = 0; run < 2000; run++) {
      const text = Array.from({ length: random(60) }, () => pieces[random(pieces.length)]).join('');
      if (text.trim() === '') continue;
      const summary = summarizeExtractive(text, run % 2 === 0 ? {} : { maxSentences: 1 + random(20) });
      expect(summary.trim()).not.toBe('');
      expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    }
  });

  it.each([[''], ['   \n\t  ']])('rejects blank text %p', (text) => {
    expect(() => summarizeExtractive(text)).toThrow('blank');
  });
});

describe('sentence splitting', () => {
  it('does not break after titles and initials', () => {
    expect(splitSentences('Dr. Smith met J. R. Tolkien. They talked.').map((s) => s.text)).toEqual([
      'Dr. Smith met J. R. Tolkien.',
      'They talked.',
    ]);
  });

  it('splits lowercased, tokenised text at its " . " tokens', () => {
    expect(splitSentences(`${'the council met today . '.repeat(20)}it ended .`)).toHaveLength(21);
  });

  it('joins a hard-wrapped line with the line that continues it', () => {
    expect(splitSentences('This sentence is wrapped\nacross two lines.\n- a list item').map((s) => s.text)).toEqual([
      'This sentence is wrapped across two lines.',
      '- a list item',
    ]);
  });
});

describe('summary length adapts to the input and is bounded', () => {
  it('returns a short input whole', () => {
    const text = 'The server restarted at 3 am after the kernel update. No data was lost. Users saw a short outage.';
    expect(summarizeExtractive(text)).toBe(text);
  });

  it('keeps line breaks between sentences from different lines', () => {
    const text = 'Fix login bug\nUsers could not log in with SSO after the upgrade.';
    expect(summarizeExtractive(text)).toBe(text);
  });

  it('gives a news-length article three sentences', () => {
    expect(summarySentences(NEWS_ARTICLE)).toHaveLength(3);
  });

  it('gives a long text more sentences than a news article, but only a few', () => {
    const count = summarySentences(longReport(2000)).length;
    expect(count).toBeGreaterThan(3);
    expect(count).toBeLessThanOrEqual(8);
  });

  it(`never passes ${MAX_SUMMARY_CHARS} characters, even when many long sentences are asked for`, () => {
    const longSentences = Array.from(
      { length: 40 },
      (_, i) => `Sentence ${i} ${'carries a great deal of detail about the subject at hand, '.repeat(6)}and ends here.`,
    ).join(' ');
    expect(summarizeExtractive(longSentences, { maxSentences: MAX_SUMMARY_SENTENCES }).length).toBeLessThanOrEqual(
      MAX_SUMMARY_CHARS,
    );
  });
});

describe('maxSentences fixes the summary length', () => {
  it.each([1, 2, 5, 12])('returns exactly %d sentences when the text has enough', (maxSentences) => {
    expect(summarySentences(NEWS_ARTICLE, { maxSentences })).toHaveLength(maxSentences);
  });

  it('returns every sentence when the text has fewer', () => {
    expect(summarySentences(NEWS_ARTICLE, { maxSentences: 20 })).toHaveLength(12);
  });

  it('applies to short inputs too', () => {
    const text = 'The server restarted at 3 am. No data was lost. Users saw a short outage.';
    expect(summarySentences(text, { maxSentences: 1 })).toHaveLength(1);
  });

  it.each([0, 21, 1.5, -1, Number.NaN])('rejects %p', (maxSentences) => {
    expect(() => summarizeExtractive(NEWS_ARTICLE, { maxSentences })).toThrow(RangeError);
  });
});

describe('determinism and order', () => {
  it('gives the same summary for the same input', () => {
    const text = longReport(500);
    expect(summarizeExtractive(text)).toBe(summarizeExtractive(text));
  });

  it('keeps the selected sentences in document order', () => {
    const sentences = splitSentences(NEWS_ARTICLE).map((sentence) => sentence.text);
    const positions = summarySentences(NEWS_ARTICLE, { maxSentences: 6 }).map((sentence) =>
      sentences.indexOf(sentence.text),
    );
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions).not.toContain(-1);
  });
});
