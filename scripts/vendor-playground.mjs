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
// A build that bundles other packages (GraphiQL's) also gets their licence
// texts: the packages named by its source map are looked up in the locked
// dependency tree of scripts/playground-bundled/ (package.json and
// package-lock.json, installed with `npm ci`), and their licence files are
// written into one text, recorded in the manifest with the lockfile's sha256.
//
// It needs node and npm (npm pack uses npm's cache before the network) and
// tar. It runs no package script.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pinsPath = join(root, "scripts", "playground-packages.json");
const outDir = join(root, "graph", "playground", "vendored");
const bundledDir = join(root, "scripts", "playground-bundled");

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
    const entry = { name: pin.name, version: pin.version, integrity: pin.integrity, license: pin.license, files };
    if (pin.bundled_licenses) {
      entry.bundled_licenses = bundledLicenses(join(unpacked, "package", pin.bundled_licenses.sourcemap), pin.bundled_licenses.path);
    }
    manifest.packages.push(entry);
  }
  writeFileSync(join(outDir, "MANIFEST.json"), JSON.stringify(manifest, null, 2) + "\n");
  for (const p of manifest.packages) {
    console.log(`${p.name}@${p.version}: ${p.files.map((f) => f.path).join(", ")}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// bundledLicenses writes to target (in vendored/) the licence texts of the
// packages a build bundles, as its source map names them, taken from the
// locked tree of scripts/playground-bundled/, and returns the manifest's
// record of them.
function bundledLicenses(sourcemap, target) {
  const names = new Set();
  for (const source of JSON.parse(readFileSync(sourcemap, "utf8")).sources) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
    if (m) names.add(m[1]);
  }
  const tree = join(work, "bundled");
  mkdirSync(tree, { recursive: true });
  for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(bundledDir, f), join(tree, f));
  execFileSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: tree, stdio: ["ignore", "ignore", "inherit"] });

  const lock = JSON.parse(readFileSync(join(bundledDir, "package-lock.json"), "utf8"));
  const packages = [];
  let text = "Licences of the packages bundled in the vendored GraphiQL build, by its source map,\n" +
    "at the versions of scripts/playground-bundled/package-lock.json.\n";
  for (const name of [...names].sort(byCodePoint)) {
    // The copy nearest the top of the tree (npm nests a version that clashes).
    const installed = Object.keys(lock.packages).filter((p) => p === `node_modules/${name}` || p.endsWith(`/node_modules/${name}`))
      .sort((a, b) => a.length - b.length || byCodePoint(a, b));
    if (installed.length === 0) throw new Error(`${name}: bundled but not in the locked tree`);
    const dir = join(tree, installed[0]);
    const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const license = typeof meta.license === "string" ? meta.license : meta.license?.type ?? "UNKNOWN";
    const texts = readdirSync(dir).filter((f) => /^(licen[cs]e|copying|notice)([.-].*)?$/i.test(f)).sort(byCodePoint);
    text += `\n==== ${name}@${meta.version} (${license}) ====\n\n`;
    text += texts.length
      ? texts.map((f) => readFileSync(join(dir, f), "utf8").trim()).join("\n\n") + "\n"
      : `(the package ships no licence file; its package.json says ${license})\n`;
    packages.push({ name, version: meta.version, license });
  }
  const out = join(outDir, target);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  const bytes = readFileSync(out);
  return {
    path: target,
    bytes: bytes.length,
    sha256: digest("sha256", bytes, "hex"),
    lockfile_sha256: digest("sha256", readFileSync(join(bundledDir, "package-lock.json")), "hex"),
    packages,
  };
}
