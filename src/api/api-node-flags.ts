/**
 * The V8 heap settings every launcher starts the API with: `npm start`, `npm run cluster` and the
 * bench import them; `npm run start:api`, docker-compose.yml and the Dockerfile spell them out, and
 * test/unit/docker-compose.test.ts holds those to this list.
 *
 * Callers without a key reconnect thousands of times a second (issue 52): each refused request is
 * a little garbage, most of it promoted past V8's default young generation (16 MiB semi-spaces),
 * and the old generation is let grow to several times what is live before a full collection. The
 * API then held 66–142 MiB over idle. With 2 MiB semi-spaces and a full collection once the old
 * generation grows by half, it held about 30 MiB over idle at the same keyed-read tail
 * (docs/benchmarks.md, "Hostile callers"). The API's own work is small requests: a scavenge of
 * 2 MiB takes well under a millisecond.
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=50'];
