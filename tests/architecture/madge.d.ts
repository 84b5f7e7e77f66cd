// madge 8 ships no types: the part of its API tests/architecture uses (see its README, "API").
declare module "madge" {
  interface MadgeConfig {
    baseDir?: string;
    tsConfig?: string | Record<string, unknown>;
    fileExtensions?: string[];
    excludeRegExp?: RegExp[];
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  interface MadgeResult {
    /** Each file and the files it imports, relative to `baseDir`. */
    obj(): Record<string, string[]>;
    /** Each import loop found, as the files along it. */
    circular(): string[][];
    warnings(): { skipped: string[] };
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
