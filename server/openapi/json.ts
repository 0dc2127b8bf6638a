// The document's nodes, read and rewritten as plain JSON.
import type { getInputOutputParsers } from 'trpc-to-openapi';

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON built and rewritten in place; its nodes are read by shape.
export type TJson = Record<string, any>;
export type TProcedure = Parameters<typeof getInputOutputParsers>[0];
