// webpack in production mode (it defines NODE_ENV and minifies by itself).
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: { main: './src/main.js', bare: './src/bare.js', synced: './src/synced.js' },
  output: { path: fileURLToPath(new URL('./out/webpack', import.meta.url)), filename: '[name].js' },
};
