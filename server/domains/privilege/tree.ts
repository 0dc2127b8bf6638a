/**
 * The privilege types (issue 35), declared once, here, as a tree: a grant of a type gives that type
 * and every type below it. Two kinds: account states (`blacklisted`, `freezed`: the one auth check of
 * server/trpc.ts reads them) and rights. An admin holds every right and no state by its role; an
 * account's other privileges are its grants in force (not suspended, not expired: read at each use).
 * The names are the web client's (src/views/user/admin/PrivilegeManagement.vue, public/config/privilege.json,
 * src/assets/types/User.ts, src/views/user/account/smugglersReport.vue:371).
 */

interface TTypeNode {
  description: string;
  children?: Readonly<Record<string, TTypeNode>>;
  /** False: held only through its parent (a name the web client looks for), never granted by itself. */
  grantable?: false;
}

const STATES = {
  blacklisted: {
    description:
      'Account state: the account reads but writes nothing (every write is a 403, data.key user.blacklisted)',
  },
  freezed: {
    description:
      'Account state: the account cannot sign in (403, data.key user.frozen) and its sessions stop working; granting it ends them',
  },
} as const satisfies Record<string, TTypeNode>;

const RIGHTS = {
  smuggler: {
    description:
      "A member of the smugglers' programme (PrivilegeManagement.vue:457 grants it before the rights chosen): no right by itself",
  },
  smuggler_weekly_report_ownership: {
    description: 'Every right over the weekly reports and their comments',
    children: {
      smuggler_weekly_report_create: {
        description: 'Create reports, as drafts or published',
        children: {
          smugglersReportConnoisseur: {
            description:
              'The name the web client shows the create button to (smugglersReport.vue:371): held with smuggler_weekly_report_create, never granted alone',
            grantable: false,
          },
        },
      },
      smuggler_weekly_report_update: { description: 'Edit, publish and archive your own reports' },
      smuggler_weekly_report_delete: { description: 'Delete your own reports' },
      smuggler_weekly_report_comment_create: { description: 'Comment on published reports (one comment a report)' },
      smuggler_weekly_report_comment_update: { description: 'Edit your own comments on reports' },
      smuggler_weekly_report_comment_delete: {
        description: 'Delete your own comments on reports, and the comments on your own reports',
      },
    },
  },
} as const satisfies Record<string, TTypeNode>;

type TNamesOf<T> = {
  [K in keyof T & string]: K | (T[K] extends { children: infer C } ? TNamesOf<C> : never);
}[keyof T & string];

export type TStateType = keyof typeof STATES;
export type TRight = TNamesOf<typeof RIGHTS>;
export type TPrivilegeType = TStateType | TRight;

/** One type as the tree declares it, flattened: its parent, its children, everything it grants. */
export interface TTypeInfo {
  type: TPrivilegeType;
  kind: 'state' | 'right';
  parent: TPrivilegeType | null;
  children: TPrivilegeType[];
  description: string;
  grantable: boolean;
  /** The type and every type below it: what a grant of it gives. */
  grants: TPrivilegeType[];
}

function flatten(
  nodes: Readonly<Record<string, TTypeNode>>,
  kind: TTypeInfo['kind'],
  parent: TPrivilegeType | null,
  out: TTypeInfo[],
): TPrivilegeType[] {
  const below: TPrivilegeType[] = [];
  for (const [name, node] of Object.entries(nodes)) {
    const type = name as TPrivilegeType;
    const info: TTypeInfo = {
      type,
      kind,
      parent,
      children: Object.keys(node.children ?? {}) as TPrivilegeType[],
      description: node.description,
      grantable: node.grantable !== false,
      grants: [type],
    };
    out.push(info);
    info.grants.push(...flatten(node.children ?? {}, kind, type, out));
    below.push(...info.grants);
  }
  return below;
}

/** Every type in the tree's order (a parent before its children). */
export const PRIVILEGE_TYPES: readonly TTypeInfo[] = (() => {
  const out: TTypeInfo[] = [];
  flatten(STATES, 'state', null, out);
  flatten(RIGHTS, 'right', null, out);
  return out;
})();

const BY_TYPE = new Map(PRIVILEGE_TYPES.map((info) => [info.type, info]));

export const TYPE_NAMES = PRIVILEGE_TYPES.map((info) => info.type) as [TPrivilegeType, ...TPrivilegeType[]];
export const GRANTABLE_TYPES = PRIVILEGE_TYPES.filter((info) => info.grantable).map((info) => info.type) as [
  TPrivilegeType,
  ...TPrivilegeType[],
];
export const ACCOUNT_STATES = PRIVILEGE_TYPES.filter((info) => info.kind === 'state').map(
  (info) => info.type,
) as TStateType[];
const RIGHTS_IN_ORDER = PRIVILEGE_TYPES.filter((info) => info.kind === 'right').map((info) => info.type);

export function typeInfo(type: TPrivilegeType): TTypeInfo {
  return BY_TYPE.get(type)!;
}

export function isAccountState(type: string): type is TStateType {
  return BY_TYPE.get(type as TPrivilegeType)?.kind === 'state';
}

/**
 * What an account holds: every right for an admin (by its role), and what its grants in force give
 * (each granted type and those below it), in the tree's order. A grant of a type this version no
 * longer declares gives nothing.
 */
export function effectiveTypes(role: 'user' | 'admin', granted: readonly string[]): TPrivilegeType[] {
  const held = new Set<TPrivilegeType>(role === 'admin' ? RIGHTS_IN_ORDER : []);
  for (const type of granted) for (const given of BY_TYPE.get(type as TPrivilegeType)?.grants ?? []) held.add(given);
  return TYPE_NAMES.filter((type) => held.has(type));
}
