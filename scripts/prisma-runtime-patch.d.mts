// Types for scripts/prisma-runtime-patch.mjs (plain JavaScript: it runs at install time, before anything compiles).
export declare const PRISMA_CLIENT_VERSION: string;
export declare const RUNTIME_REWRITES: ReadonlyArray<readonly [original: string, rewritten: string]>;
export declare function prismaRuntimeFile(root: string): string;
export declare function patchPrismaRuntime(root: string): 'patched' | 'already patched';
