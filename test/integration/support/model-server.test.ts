import { ModelServer } from '../../support/model-server';

// The real model the model tests run against: it starts, answers one chat completion the way the
// OpenAI API does (a message and token usage), and stops.

// Provisioning is quick once npm test's pretest has built the server; starting loads the model.
jest.setTimeout(180_000);

let server: ModelServer | undefined;

afterEach(async () => {
  await server?.kill();
  server = undefined;
});

it('answers a chat completion with a message and the tokens it used, and stops', async () => {
  server = await ModelServer.start();

  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: server.alias,
      messages: [{ role: 'user', content: 'Summarise in one sentence: the council approved the transit plan, which adds three bus lines.' }],
      max_tokens: 32,
      temperature: 0,
    }),
  });

  expect(response.status).toBe(200);
  const completion = (await response.json()) as { model: string; choices: Array<{ message: { content: unknown } }>; usage: { prompt_tokens: number } };
  expect(completion.model).toBe('smollm2');
  expect(typeof completion.choices[0].message.content).toBe('string');
  expect((completion.choices[0].message.content as string).trim()).not.toBe('');
  expect(completion.usage.prompt_tokens).toBeGreaterThan(0);

  await server.stop();
  expect(server.alive).toBe(false);
  await expect(fetch(`${server.baseUrl}/models`)).rejects.toThrow();
});

it('comes back on the same port after a kill', async () => {
  server = await ModelServer.start({ contextTokens: 256, alias: 'tiny' });
  const { port } = server;

  await server.kill();
  await server.restart();

  expect(server.port).toBe(port);
  const models = (await (await fetch(`${server.baseUrl}/models`)).json()) as { data: Array<{ id: string }> };
  expect(models.data.map((model) => model.id)).toEqual(['tiny']);
  expect(await server.countTokens('hello world')).toBeGreaterThan(0);
});
