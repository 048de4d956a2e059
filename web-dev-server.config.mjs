// The demo's Web Dev Server settings, used by `npm start` (server/start.mjs, which listens on
// 127.0.0.1 itself) and `npm run screenshot`. API_LATENCY (ms, default 300) slows the demo API.
// It also serves the docs' pages as printed: /first-app/index.html and the guide's /guide/ pages.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { demoIndex, middleware } from './server/middleware.mjs';
import { docsPlugins } from './scripts/docs-serve.mjs';

export default {
  rootDir: '.',
  appIndex: 'demo/index.html',
  open: false,
  watch: false,
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [
    ...docsPlugins(),
    esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }),
  ],
  middleware: [demoIndex(), ...middleware({ latency: Number(process.env.API_LATENCY ?? 300) })],
};
