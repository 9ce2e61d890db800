#!/usr/bin/env node
// Brings the GraphiQL playground's browser builds in from the npm registry
// (`make vendor-playground`), so that the server serves /playground from its
// own binary with nothing loaded from elsewhere.
//
// The packages, their exact versions, the sha512 integrity of their tarballs
// and the files taken from each are pinned in scripts/playground-packages.json;
// this script `npm pack`s each tarball into a temporary folder, refuses one
// whose sha512 differs from the pin, and copies the pinned files into
// graph/playground/vendored/ (replacing what was there), then writes
// MANIFEST.json there: every package, version, integrity and licence, and the
// sha256 of every file copied. Running it again gives the same bytes; the Go
// tests check the committed manifest against the pins and the committed files.
//
// It needs node and npm (npm pack uses npm's cache before the network) and
// tar. It runs no package script.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pinsPath = join(root, "scripts", "playground-packages.json");
const outDir = join(root, "graph", "playground", "vendored");

const digest = (algorithm, bytes, encoding) => createHash(algorithm).update(bytes).digest(encoding);
// byCodePoint orders strings the same way in every locale, so the manifest is too.
const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

const pins = JSON.parse(readFileSync(pinsPath, "utf8")).packages;
const work = mkdtempSync(join(tmpdir(), "vendor-playground-"));
try {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const manifest = { packages: [] };
  for (const pin of [...pins].sort((a, b) => byCodePoint(a.name, b.name))) {
    const spec = `${pin.name}@${pin.version}`;
    const packed = JSON.parse(execFileSync("npm", ["pack", spec, "--json", "--ignore-scripts", "--pack-destination", work],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
    const tarball = join(work, packed[0].filename);
    const integrity = "sha512-" + digest("sha512", readFileSync(tarball), "base64");
    if (integrity !== pin.integrity) {
      throw new Error(`${spec}: tarball integrity ${integrity} differs from the pinned ${pin.integrity}`);
    }
    const unpacked = join(work, pin.name);
    mkdirSync(unpacked, { recursive: true });
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);

    const files = [];
    for (const [from, to] of Object.entries(pin.files)) {
      const source = join(unpacked, "package", from);
      const target = join(outDir, to);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(source, target);
      const bytes = readFileSync(target);
      files.push({ path: to, from, bytes: statSync(target).size, sha256: digest("sha256", bytes, "hex") });
    }
    files.sort((a, b) => byCodePoint(a.path, b.path));
    manifest.packages.push({ name: pin.name, version: pin.version, integrity: pin.integrity, license: pin.license, files });
  }
  writeFileSync(join(outDir, "MANIFEST.json"), JSON.stringify(manifest, null, 2) + "\n");
  for (const p of manifest.packages) {
    console.log(`${p.name}@${p.version}: ${p.files.map((f) => f.path).join(", ")}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
