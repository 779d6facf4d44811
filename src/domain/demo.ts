/**
 * The sandbox's fixed demo data: the same ids and credentials on every machine, so docs,
 * tests and the built-in `sandbox` profile can name them. The game-1001 key and secret are
 * the ones in test/fixtures/signing-vectors.json, so the vectors verify against the sandbox.
 */
export const DEMO = {
  port: 8787,
  host: '127.0.0.1',
  game: {
    id: '1001',
    name: 'Demo Quest',
    apiKey: '0123456789abcdef0123456789abcdef',
    signingSecret: 'sandbox-demo-signing-secret-0001',
  },
  partner: {
    gameId: '1001',
    apiKey: '77920f05ee8b0c2c3f7866beb7da2a46',
    signingSecret: 'sandbox-partner-signing-secret-01',
  },
  secondGame: {
    id: '1002',
    name: 'Puzzle Lab',
    apiKey: '7c5ff03fdb090e9d880767439da337ba',
    signingSecret: 'sandbox-demo-signing-secret-1002',
  },
  user: {
    username: 'demo_player',
    uid: '01e528d59829836fd23b09085b56edab',
  },
} as const;

export const DEFAULT_SANDBOX_URL = `http://${DEMO.host}:${DEMO.port}`;
