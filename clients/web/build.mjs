// Builds the app into dist/: app.js (src/main.tsx bundled and minified by esbuild), app.css,
// index.html and favicon.svg, each with a gzip twin (.gz) that the server sends to browsers
// that accept it. Prints the compressed size of the JavaScript and fails above the budget, so
// the first load stays small.
//
//   node build.mjs                                   the release build (calls go to the page's origin)
//   node build.mjs --server=http://127.0.0.1:50051   a development build calling another server
//   node build.mjs --tests                           the unit tests, bundled into .test-build/
import { build } from "esbuild";
import {
  readdir,
  mkdir,
  readFile,
  rm,
  writeFile,
  copyFile,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const server =
  args.find((a) => a.startsWith("--server="))?.slice("--server=".length) ?? "";

/** The budget for the page's JavaScript, gzip-compressed (the 300 KB). */
const BUDGET = 300 * 1024;

const common = {
  bundle: true,
  jsx: "automatic",
  jsxImportSource: "preact",
  target: ["es2022"],
  logLevel: "warning",
  legalComments: "none",
};

if (args.includes("--tests")) {
  // Each test file becomes one self-contained ES module for `node --test`.
  const out = join(here, ".test-build");
  await rm(out, { recursive: true, force: true });
  const tests = (await readdir(join(here, "test")))
    .filter((f) => f.endsWith(".test.ts") || f.endsWith(".test.tsx"))
    .map((f) => join(here, "test", f));
  await build({
    ...common,
    entryPoints: tests,
    outdir: out,
    platform: "node",
    format: "esm",
    define: { CALABRESELLA_SERVER: '""' },
    outExtension: { ".js": ".mjs" },
  });
  process.exit(0);
}

const dist = join(here, "dist");
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

await build({
  ...common,
  entryPoints: { app: join(here, "src", "main.tsx") },
  outdir: dist,
  format: "esm",
  platform: "browser",
  minify: true,
  sourcemap: false,
  define: { CALABRESELLA_SERVER: JSON.stringify(server) },
});
await copyFile(join(here, "index.html"), join(dist, "index.html"));
await copyFile(join(here, "favicon.svg"), join(dist, "favicon.svg"));

const sizes = {};
for (const name of ["app.js", "app.css", "index.html", "favicon.svg"]) {
  const body = await readFile(join(dist, name));
  const gz = gzipSync(body, { level: 9 });
  await writeFile(join(dist, `${name}.gz`), gz);
  sizes[name] = { raw: body.length, gzip: gz.length };
}
for (const [name, s] of Object.entries(sizes)) {
  console.log(
    `${name.padEnd(12)} ${String(s.raw).padStart(8)} bytes, ${String(s.gzip).padStart(7)} gzip`,
  );
}
const js = sizes["app.js"].gzip;
console.log(
  `JavaScript, gzip: ${(js / 1024).toFixed(1)} KB of ${BUDGET / 1024} KB allowed`,
);
if (server) console.log(`development build: calls go to ${server}`);
if (js > BUDGET) {
  console.error(
    `build.mjs: app.js is ${js} bytes gzip-compressed, over the ${BUDGET}-byte budget`,
  );
  process.exit(1);
}
