// The field schemas an assembly's inputs share (the contract's form and the web client's form of
// write-schemas.ts and client-schemas.ts), and the one canonical input shape the services take.
import { z } from 'zod';
import { zText } from '../../text';

export const ZAssemblyUuid = z
  .string({ error: 'is required' })
  .length(36, 'must be 36 characters')
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID')
  .transform((value) => value.toLowerCase())
  .meta({ description: 'Assembly identifier (v4 UUID, 36 characters)' });

/** A catalog id as the catalog import accepts one (catalog/import.ts): 1-100 characters, no control characters. */
export const ZCatalogId = z
  .string()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'must not contain control characters');
export const ZName = zText({ min: 1, max: 80 });
export const ZDescription = zText({ max: 2000, kind: 'multiline' });
export const ZTags = z.array(zText({ min: 1, max: 24 })).max(10, 'at most 10 tags');
export const ZAssemblyPassword = z
  .string()
  .min(4, 'must be at least 4 characters')
  .max(256, 'must be at most 256 characters');

/** A loadout as the services take it: the contract's hull, weapons by slot, armor and furniture. */
export interface TWeaponEntry {
  slot: string;
  itemId: string;
}

export interface TLoadout {
  shipId: string;
  weapons: TWeaponEntry[];
  armor: string | null;
  furnitures: string[];
}

/**
 * What the client stores beside the loadout, kept verbatim in `assemblies.client` and answered back:
 * its own loadout form (`data`), its display settings (`attr`, never the password) and its wheel and
 * warehouse (`{ attr, data }`, not interpreted by Tidewatch).
 */
export interface TClientExtras {
  data?: Record<string, unknown>;
  attr?: Record<string, unknown>;
  wheel?: { attr?: Record<string, unknown>; data?: unknown };
  warehouse?: { attr?: Record<string, unknown>; data?: unknown };
}

/** The canonical input of publishAssembly: the contract's fields, plus what the client stores beside them. */
export interface TAssemblyDraft {
  name: string;
  shipId: string;
  weapons: TLoadout['weapons'];
  armor?: string | null;
  furnitures?: string[];
  description?: string;
  tags?: string[];
  isPublic?: boolean;
  password?: string;
  client?: TClientExtras;
}

/** The canonical patch of editAssembly: only the fields given change; `client` parts given replace the stored ones. */
export interface TAssemblyPatch {
  name?: string;
  shipId?: string;
  weapons?: TLoadout['weapons'];
  armor?: string | null;
  furnitures?: string[];
  description?: string;
  tags?: string[];
  isPublic?: boolean;
  password?: string | null;
  client?: TClientExtras;
  /** Display settings only (POST /assembly/attr/edit): each given replaces its `attr`; the client's data parts are kept. */
  settings?: { attr?: Record<string, unknown>; wheel?: Record<string, unknown>; warehouse?: Record<string, unknown> };
}
