// `update --yes` on AWS refuses a state store nodes cannot read (file://, memfs://) before any cloud call.
// Tests apply clusters to moto with local stores (no node ever boots from them), so every test process and
// the CLI it spawns carries the documented test-only escape; the tests of the refusal itself remove it.
process.env.KFORGE_ALLOW_LOCAL_STATE_FOR_NODES = 'test-only';
