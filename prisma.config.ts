import { defineConfig } from 'prisma/config';
import { fileURLToPath } from 'node:url';

// Prisma's native schema engine cannot be downloaded here; migrations run on the WASM engine (src/db/migrate.ts).
// Pointing the CLI at a stub stops `prisma generate` from trying to download it.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(new URL('./scripts/no-native-schema-engine.sh', import.meta.url));

export default defineConfig({ schema: 'prisma/schema.prisma', migrations: { path: 'prisma/migrations' } });
