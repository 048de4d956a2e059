import { build } from '/work/main/node_modules/esbuild/lib/main.js';
const dir = process.argv[2];
const { settings } = await import(dir + '/scripts/size.mjs');
const r = await build({ ...settings, absWorkingDir: dir, stdin: { contents: "export * from 'resource-elements';", resolveDir: dir, loader: 'js' } });
const out = Object.values(r.metafile.outputs)[0];
for (const [f, v] of Object.entries(out.inputs)) console.log(v.bytesInOutput, f);
