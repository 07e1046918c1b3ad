// Runs the Khronos glTF-Validator (npm `gltf-validator`) on one .gltf / .glb file.
// Usage: node tools/gltf-validator/validate.mjs FILE
// Prints one JSON object: the issue counts and every error/warning message (infos and hints are counted only).
// Exit status: 0 when the validator reports no error, 1 when it reports errors, 2 on usage or I/O problems.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const file = process.argv[2];
if (!file) {
  console.error('usage: node validate.mjs FILE.gltf|FILE.glb');
  process.exit(2);
}

try {
  const bytes = new Uint8Array(await readFile(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    // External buffers and images are resolved next to the file, like the importer does.
    externalResourceFunction: (uri) =>
      readFile(path.join(dir, decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const issues = report.issues;
  const summary = {
    file,
    validatorVersion: report.validatorVersion,
    numErrors: issues.numErrors,
    numWarnings: issues.numWarnings,
    numInfos: issues.numInfos,
    numHints: issues.numHints,
    truncated: issues.truncated,
    // Issue code -> count, per severity (0 error, 1 warning, 2 info, 3 hint).
    codes: countCodes(issues.messages),
    // The first errors and warnings in full.
    messages: issues.messages
      .filter((m) => m.severity <= 1)
      .slice(0, 20)
      .map((m) => ({ code: m.code, severity: m.severity, pointer: m.pointer, message: m.message })),
  };
  console.log(JSON.stringify(summary, null, 1));
  // exitCode, not exit(): exit() may cut off stdout when it is a pipe.
  process.exitCode = issues.numErrors > 0 ? 1 : 0;
} catch (e) {
  console.error(`${file}: ${e && e.message ? e.message : e}`);
  process.exitCode = 2;
}

function countCodes(messages) {
  const out = {};
  for (const m of messages) {
    const key = `${['error', 'warning', 'info', 'hint'][m.severity] ?? m.severity}:${m.code}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
