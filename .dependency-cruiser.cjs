// The architecture as rules (docs/architecture.md): `npm run lint` fails on any of them.

// The service rooms (server/services/<room>/) in layers, lowest first: a room imports only rooms of a lower layer,
// so no two rooms can import each other, however indirectly. A new room takes the lowest layer its imports allow.
const ROOM_LAYERS = [
  ['display', 'mail', 'social'],
  ['tree', 'media', 'search', 'staff'],
  ['squares'],
  ['reservations', 'accounts'],
  ['art', 'review', 'admin'],
];

const roomLayerRules = ROOM_LAYERS.map((layer, index) => ({
  name: `rooms-import-lower-layers-${index}`,
  severity: 'error',
  comment:
    `The rooms ${layer.join(', ')} may import only rooms of a lower layer (.dependency-cruiser.cjs, ROOM_LAYERS): ` +
    'no circle between rooms.',
  from: { path: `^server/services/(${layer.join('|')})/` },
  to: { path: `^server/services/(${ROOM_LAYERS.slice(index).flat().join('|')})/`, pathNot: '^server/services/$1/' },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...roomLayerRules,
    {
      name: 'rooms-through-their-entry',
      severity: 'error',
      comment:
        'Outside a service room, the room is reached through its index.ts only: what it keeps to itself can change. ' +
        'Tests may reach in, to test a part on its own.',
      from: { path: '^(?:server/services/([^/]+)/|server/|scripts/|drizzle/)' },
      to: { path: '^server/services/[^/]+/', pathNot: ['/index\\.ts$', '^server/services/$1/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module may not reach itself again through its imports: circles hide the order things load in.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-imports-nothing-of-the-app',
      severity: 'error',
      comment: 'shared/ is the vocabulary both sides speak; it must not know either side.',
      from: { path: '^shared/' },
      to: { path: '^(server|client|drizzle|scripts|tests|bench)/' },
    },
    {
      name: 'client-takes-only-the-router-type',
      severity: 'error',
      comment: 'The browser bundle may know the server only as the type of its tRPC router.',
      from: { path: '^client/' },
      to: { path: '^(server|drizzle|scripts)/', pathNot: '^server/root\\.ts$' },
    },
    {
      name: 'client-takes-the-router-as-a-type',
      severity: 'error',
      comment: 'server/root.ts is imported with `import type`, so none of the server is bundled.',
      from: { path: '^client/' },
      to: { path: '^server/root\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'transport-reaches-the-database-through-services',
      severity: 'error',
      comment:
        'Routers, the REST adapter and the plain HTTP routes call services; only services (and db.ts) hold SQL. ' +
        'A type-only import of the database handle, to pass it on, is allowed.',
      from: { path: '^server/(routers|rest|http)/' },
      to: {
        path: '^(server/db(-pg)?\\.ts|drizzle/|node_modules/(drizzle-orm|better-sqlite3|pg)/)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'engine-without-react',
      severity: 'error',
      comment: 'The canvas engine is plain TypeScript under one React component (client/tree/tree-canvas.tsx).',
      from: { path: '^client/tree/engine/' },
      to: { path: '(^node_modules/(react|react-dom|@pixi/react)/|\\.tsx$)' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|data|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
