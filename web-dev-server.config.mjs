import { esbuildPlugin } from '@web/dev-server-esbuild';
import { middleware } from './server/middleware.mjs';

const port = Number(process.env.PORT ?? 8000);

export default {
  rootDir: '.',
  hostname: '127.0.0.1',
  port,
  appIndex: 'demo/index.html',
  open: false,
  watch: false,
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [
    esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }),
    {
      name: 'print-demo-url',
      serverStart() {
        console.log(`\nresource-elements demo: http://127.0.0.1:${port}/demo/`);
        console.log(`server-rendered page: http://127.0.0.1:${port}/ssr/\n`);
      },
    },
  ],
  middleware: middleware({ latency: Number(process.env.API_LATENCY ?? 300) }),
};
