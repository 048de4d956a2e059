// webpack through its Node API (webpack-cli 7 pulls in packages that need Node 22).
import webpack from 'webpack';
import config from './webpack.config.js';

webpack(config, (error, stats) => {
  if (error || stats.hasErrors() || stats.hasWarnings()) {
    console.error(error ?? stats.toString({ all: false, errors: true, warnings: true }));
    process.exit(1);
  }
});
