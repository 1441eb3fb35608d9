// Types for scripts/dependency-patches.mjs (plain JavaScript: it runs at install time, before anything compiles).
export interface PatchedFile {
  package: string;
  version: string;
  /** Path inside the package. */
  file: string;
  /** The package that depends on it, when npm may nest it there. */
  usedBy?: string;
  rewrites: ReadonlyArray<readonly [original: string, rewritten: string]>;
}
export declare const PATCHED_FILES: readonly PatchedFile[];
export declare function installedFile(root: string, target: PatchedFile): string;
export declare function patchFile(root: string, target: PatchedFile): 'patched' | 'already patched';
export declare function patchDependencies(root: string): string[];
