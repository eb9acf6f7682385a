// The Control Plane v2 importer: three hash-chained ledgers (ho2m, ho1m, governance) under a
// plane root, with rotated segments; every entry names its own session.

import { defineImporter } from '../importer.js';
import { discoverPlane, isPlaneRoot, rootsFromEnv } from './discover.js';
import { createControlPlaneParser } from './parser.js';
import { planeProfile } from './profile.js';
import { summarizePlaneSession } from './summarize.js';

/**
 * @example const r = await runImporter(controlPlane, '/srv/plane'); // sessions, events, chain breaks
 */
export const controlPlane = defineImporter({
  format: 'control-plane',
  description: 'Control Plane v2 plane roots: HO2/HO1/HOT ledgers with rotated segments, hash chains verified on import.',
  layout: 'a Control Plane root (HO2/ledger/ho2m.jsonl)',
  detect: (path) => isPlaneRoot(path),
  defaultRoots: rootsFromEnv,
  discover: (root, rootNotes) => discoverPlane(root, rootNotes),
  createParser: (file, options) => createControlPlaneParser(file, options),
  summarize: (input) => summarizePlaneSession(input),
  profile: planeProfile,
});
