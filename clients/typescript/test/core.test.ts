import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Every compiled module of the package, recursively. */
function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? modules(join(dir, e.name))
      : e.name.endsWith(".js")
        ? [join(dir, e.name)]
        : [],
  );
}

test("the core imports no Node module, so a browser front end can use it", () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
  const core = modules(src).filter((f) => !f.endsWith(`${"/"}node.js`));
  assert.ok(core.length > 5);
  for (const f of core) {
    const text = readFileSync(f, "utf8");
    const imports = [...text.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]!);
    for (const i of imports) {
      assert.ok(
        !i.startsWith("node:") && i !== "@connectrpc/connect-node",
        `${relative(src, f)} imports ${i}`,
      );
    }
  }
});
