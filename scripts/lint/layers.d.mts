// The types of layers.mjs (plain JavaScript, so ESLint's config can load it without a build), for the tests.
export declare const layers: Readonly<Record<string, { readonly may: readonly string[]; readonly why: string }>>;
export declare const tooling: readonly string[];
export declare const topLayers: readonly string[];
export declare function allowed(layer: string, may: readonly string[], target: string): boolean;
export declare function layerOf(relative: string): string | null;
export declare function targetOf(fromRelative: string, specifier: string): string;
export declare const layersPlugin: { readonly rules: Readonly<Record<string, unknown>> };
