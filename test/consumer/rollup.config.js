// Rollup as an app would use it for production: node-resolve (browser), NODE_ENV replaced, terser.
import resolve from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';

export default {
  input: { main: 'src/main.js', bare: 'src/bare.js', synced: 'src/synced.js' },
  output: { dir: 'out/rollup', format: 'es' },
  plugins: [
    resolve({ browser: true }),
    replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': '"production"' } }),
    terser(),
  ],
};
