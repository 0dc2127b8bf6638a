// Shapes that extend another, written as their base's fields plus their own (allOf).
import type { z } from 'zod';
import { ZAssemblyCore } from '../domains/assembly/schemas';
import { ZLikeTarget } from '../domains/assembly/like-schemas';
import { ZUserIdentity } from '../domains/user/schemas';
import type { TJson } from './json';

/**
 * Fields that several shapes share, which no operation answers alone: written once in the document,
 * under this name, for the shapes of EXTENSIONS that extend them.
 */
const FIELD_GROUPS: Record<string, z.ZodObject> = {
  AssemblyCore: ZAssemblyCore,
  LikeTarget: ZLikeTarget,
  UserIdentity: ZUserIdentity,
};

/**
 * Shapes that extend another (zod `.extend()`, or the fields of a FIELD_GROUPS entry and their own),
 * in an order where a shape is composed before it is extended. The document writes the shared fields
 * once: an extension is allOf its base's fields plus its own, and `unevaluatedProperties: false`
 * (JSON Schema 2020-12). A base that zod closes (no other property) moves its fields to an open
 * `<Base>Fields` and becomes allOf that, closed the same way: every shape stays exactly as closed as
 * zod makes it.
 */
const EXTENSIONS: [name: string, base: string][] = [
  ['AssemblySummary', 'AssemblyCore'],
  ['Assembly', 'AssemblyCore'],
  ['TrashedAssembly', 'AssemblySummary'],
  ['PublishedAssembly', 'Assembly'],
  ['PublicProfile', 'UserIdentity'],
  ['Session', 'UserIdentity'],
  ['Profile', 'PublicProfile'],
  ['MapCollection', 'MapCollectionSummary'],
  ['MapPoint', 'MapCollectionPoint'],
  ['NearbyPoint', 'MapPoint'],
  ['AdminOrder', 'Order'],
  ['MyComment', 'Comment'],
  ['SeasonSummary', 'Season'],
  ['Hull', 'HullSummary'],
  ['AdminTier', 'Tier'],
  ['AdminPayType', 'PayType'],
  ['CompanyStanding', 'WarCompany'],
  ['WarHistoryCompany', 'WarCompany'],
  ['LikeState', 'LikeTarget'],
  ['LikeCount', 'LikeTarget'],
  ['LikeToggleResult', 'LikeTarget'],
];

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Rewrites each shape of EXTENSIONS as its base's fields plus its own; throws when it no longer extends its base. */
export function composeExtensions(schemas: TJson): void {
  const target = (node: TJson): TJson => (node.$ref ? schemas[node.$ref.split('/').at(-1)] : node);
  const propertiesOf = (schema: TJson): TJson =>
    Object.assign({}, ...(schema.allOf ?? []).map((part: TJson) => propertiesOf(target(part))), schema.properties);
  const requiredOf = (schema: TJson): string[] => [
    ...(schema.allOf ?? []).flatMap((part: TJson) => requiredOf(target(part))),
    ...(schema.required ?? []),
  ];

  /** The name of the open schema holding a base's fields, made on first use. */
  function fieldsOf(baseName: string, extension: TJson): string {
    if (schemas[`${baseName}Fields`]) return `${baseName}Fields`;
    const base = schemas[baseName];
    if (!base) {
      const group = FIELD_GROUPS[baseName];
      if (!group)
        throw new Error(`OpenAPI: no schema ${baseName} to extend (server/openapi/extensions.ts, EXTENSIONS)`);
      const keys = Object.keys(group.shape);
      const required = (extension.required ?? []).filter((key: string) => keys.includes(key));
      schemas[baseName] = {
        type: 'object',
        description: group.description,
        properties: Object.fromEntries(keys.map((key) => [key, extension.properties?.[key]])),
        required,
      };
      return baseName;
    }
    if (base.additionalProperties !== false && base.unevaluatedProperties !== false) return baseName;
    const fieldsName = `${baseName}Fields`;
    const { additionalProperties: _closed, unevaluatedProperties: _composed, description, ...fields } = base;
    schemas[fieldsName] = fields;
    schemas[baseName] = {
      ...(description && { description }),
      allOf: [{ $ref: `#/components/schemas/${fieldsName}` }],
      unevaluatedProperties: false,
    };
    return fieldsName;
  }

  for (const [name, baseName] of EXTENSIONS) {
    const extension = schemas[name];
    const isPlain = extension?.type === 'object' && extension.additionalProperties === false && !extension.allOf;
    const fieldsName = isPlain ? fieldsOf(baseName, extension) : undefined;
    const fields = fieldsName && schemas[fieldsName];
    const baseProperties = fields ? propertiesOf(fields) : {};
    const extends_ =
      fields &&
      Object.entries<TJson>(baseProperties).every(([key, property]) => sameJson(extension.properties[key], property)) &&
      requiredOf(fields).every((key) => extension.required?.includes(key));
    if (!extends_)
      throw new Error(`OpenAPI: ${name} no longer extends ${baseName} (server/openapi/extensions.ts, EXTENSIONS)`);
    const own = Object.keys(extension.properties).filter((key) => !(key in baseProperties));
    const required = (extension.required ?? []).filter((key: string) => own.includes(key));
    schemas[name] = {
      ...(extension.description && { description: extension.description }),
      allOf: [{ $ref: `#/components/schemas/${fieldsName}` }],
      type: 'object',
      properties: Object.fromEntries(own.map((key) => [key, extension.properties[key]])),
      ...(required.length > 0 && { required }),
      unevaluatedProperties: false,
    };
  }
}
