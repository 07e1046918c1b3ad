"""Builds the one-file Blender installs of the flinch add-on from the abi3 wheel:

    python3 blender/package.py --wheel target/python-wheels/flinch-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl \
        --out target/blender-packages

- ``flinch-<version>-extension.zip``: a Blender 4.2+ extension (Edit > Preferences > Get Extensions > Install from
  Disk): ``blender_manifest.toml`` at its root beside the add-on's modules, the wheel in ``./wheels``, which
  Blender installs into the extension's own site-packages.
- ``flinch_addon-<version>-legacy.zip``: the add-on for Blender 3.x (Preferences > Add-ons > Install): the folder
  ``flinch_addon/`` with the wheel in ``flinch_addon/wheels``; its register() unpacks the wheel beside itself and
  puts it on sys.path (no pip, no network).

The extension's manifest is checked against Blender's manifest rules (``validate_extension``, what
``blender --command extension validate`` checks for the keys this manifest uses) before the command succeeds;
``--validate ZIP`` checks an existing zip. Needs Python >= 3.11 (tomllib).
"""

import argparse
import os
import re
import sys
import tomllib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ADDON = os.path.join(HERE, "flinch_addon")
EXTENSION_ID = "flinch"
TAGLINE = "Physically simulated hit reactions and retargets for mocap"
# Blender's manifest rules (schema 1.0.0, Blender 4.2): the required keys and their types.
REQUIRED = {
    "schema_version": str,
    "id": str,
    "version": str,
    "name": str,
    "tagline": str,
    "maintainer": str,
    "type": str,
    "blender_version_min": str,
    "license": list,
}
PERMISSIONS = ("files", "network", "clipboard", "camera", "microphone")
PLATFORMS = ("windows-x64", "windows-arm64", "macos-x64", "macos-arm64", "linux-x64")
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


def wheel_version(wheel: str) -> str:
    """The package version in a wheel's file name (``flinch-0.1.0-cp39-abi3-...whl``)."""
    parts = os.path.basename(wheel).split("-")
    if len(parts) < 5 or parts[0] != "flinch" or not wheel.endswith(".whl"):
        raise SystemExit(f"{wheel}: not a flinch wheel file name (flinch-VERSION-TAGS.whl)")
    return parts[1]


def wheel_platform(wheel: str) -> str:
    """The Blender platform of a wheel's platform tag."""
    tag = os.path.basename(wheel)[: -len(".whl")].split("-")[-1]
    if "linux" in tag and "x86_64" in tag:
        return "linux-x64"
    if tag.startswith("win_amd64"):
        return "windows-x64"
    if tag.startswith("win_arm64"):
        return "windows-arm64"
    if tag.startswith("macosx") and "arm64" in tag:
        return "macos-arm64"
    if tag.startswith("macosx"):
        return "macos-x64"
    raise SystemExit(f"{wheel}: platform tag {tag!r} has no Blender platform")


def manifest(version: str, wheel_name: str, platform: str) -> str:
    """The extension's blender_manifest.toml."""
    return f'''schema_version = "1.0.0"

id = "{EXTENSION_ID}"
version = "{version}"
name = "flinch"
tagline = "{TAGLINE}"
maintainer = "flinch developers"
type = "add-on"
tags = ["Animation", "Physics"]

blender_version_min = "4.2.0"

license = ["SPDX:MIT", "SPDX:Apache-2.0"]

# The compiled abi3 wheel: one file for every CPython >= 3.9, built for this platform only.
platforms = ["{platform}"]
wheels = ["./wheels/{wheel_name}"]

[permissions]
files = "Export and import motion files for the simulation"
'''


def addon_files():
    """(path, name in the zip relative to the add-on folder) of the add-on's modules."""
    out = []
    for name in sorted(os.listdir(ADDON)):
        if name.endswith(".py"):
            out.append((os.path.join(ADDON, name), name))
    if "__init__.py" not in [n for _, n in out]:
        raise SystemExit(f"{ADDON} has no __init__.py")
    return out


def _write_zip(path: str, entries):
    """Writes ``entries`` ((name, bytes or source path)) into ``path`` atomically."""
    partial = path + ".partial"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            if isinstance(data, bytes):
                z.writestr(name, data)
            else:
                z.write(data, name)
    os.replace(partial, path)


def build(wheel: str, out: str):
    """Writes both zips into ``out``; returns (extension zip, legacy zip)."""
    if "abi3" not in os.path.basename(wheel):
        raise SystemExit(f"{wheel}: not an abi3 wheel (Blender's Python needs the abi3 one)")
    version = wheel_version(wheel)
    wheel_name = os.path.basename(wheel)
    os.makedirs(out, exist_ok=True)
    files = addon_files()
    extension = os.path.join(out, f"flinch-{version}-extension.zip")
    _write_zip(
        extension,
        [("blender_manifest.toml", manifest(version, wheel_name, wheel_platform(wheel)).encode())]
        + [(name, src) for src, name in files]
        + [(f"wheels/{wheel_name}", wheel)],
    )
    legacy = os.path.join(out, f"flinch_addon-{version}-legacy.zip")
    _write_zip(
        legacy,
        [(f"flinch_addon/{name}", src) for src, name in files] + [(f"flinch_addon/wheels/{wheel_name}", wheel)],
    )
    return extension, legacy


def _no_trailing_punctuation(what, text, problems):
    if text and not text[-1].isalnum() and text[-1] not in ")]}":
        problems.append(f"{what} {text!r} ends with punctuation")


def validate_extension(path: str) -> list:
    """Problems of an extension zip by Blender 4.2's manifest rules (an empty list: valid), for the keys this
    manifest uses: required keys and types, schema version, id, semantic version, tagline (≤ 64 characters, no
    trailing punctuation), type, minimum Blender version ≥ 4.2.0, SPDX licenses, permissions, platforms, each
    wheel present in the zip and abi3 (and matching the platforms), ``__init__.py`` at the root."""
    problems = []
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "blender_manifest.toml" not in names:
            return [f"{path}: no blender_manifest.toml at the zip's root"]
        try:
            m = tomllib.loads(z.read("blender_manifest.toml").decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            return [f"{path}: blender_manifest.toml does not parse: {e}"]
        for key, kind in REQUIRED.items():
            if key not in m:
                problems.append(f"missing required key {key!r}")
            elif not isinstance(m[key], kind):
                problems.append(f"{key} must be a {kind.__name__}, got {type(m[key]).__name__}")
        if problems:
            return problems
        if m["schema_version"] != "1.0.0":
            problems.append(f"schema_version {m['schema_version']!r}: expected '1.0.0'")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", m["id"]):
            problems.append(f"id {m['id']!r} is not an identifier (letters, digits, '_', not a leading digit or '_')")
        if not SEMVER.match(m["version"]):
            problems.append(f"version {m['version']!r} is not a semantic version")
        if len(m["tagline"]) > 64:
            problems.append(f"tagline is {len(m['tagline'])} characters (at most 64)")
        _no_trailing_punctuation("tagline", m["tagline"], problems)
        if m["type"] not in ("add-on", "theme"):
            problems.append(f"type {m['type']!r}: expected 'add-on' or 'theme'")
        if not SEMVER.match(m["blender_version_min"]) or tuple(
            int(x) for x in m["blender_version_min"].split(".")[:3]
        ) < (4, 2, 0):
            problems.append(f"blender_version_min {m['blender_version_min']!r}: must be a version >= 4.2.0")
        if not m["license"] or not all(isinstance(x, str) and x.startswith("SPDX:") for x in m["license"]):
            problems.append(f"license {m['license']!r}: expected a list of 'SPDX:<identifier>'")
        permissions = m.get("permissions", {})
        if not isinstance(permissions, dict):
            problems.append("permissions must be a table")
        else:
            for key, why in permissions.items():
                if key not in PERMISSIONS:
                    problems.append(f"permissions.{key}: unknown (expected one of {', '.join(PERMISSIONS)})")
                elif not isinstance(why, str) or not why or len(why) > 64:
                    problems.append(f"permissions.{key}: a reason of 1 to 64 characters")
                else:
                    _no_trailing_punctuation(f"permissions.{key}", why, problems)
        platforms = m.get("platforms", [])
        for p in platforms:
            if p not in PLATFORMS:
                problems.append(f"platforms: unknown {p!r}")
        wheels = m.get("wheels", [])
        if m["type"] == "add-on" and "__init__.py" not in names:
            problems.append("an add-on extension needs __init__.py at the zip's root")
        for w in wheels:
            if not (isinstance(w, str) and w.startswith("./") and w.endswith(".whl")):
                problems.append(f"wheels: {w!r} must be a relative './...whl' path")
                continue
            inner = w[2:]
            if inner not in names:
                problems.append(f"wheels: {w} is not in the zip")
                continue
            base = os.path.basename(inner)
            if "abi3" not in base:
                problems.append(f"wheels: {base} is not an abi3 wheel")
            if not base.endswith("-none-any.whl") and platforms and wheel_platform(base) not in platforms:
                problems.append(f"wheels: {base} is for {wheel_platform(base)}, not among platforms {platforms}")
            if not base.endswith("-none-any.whl") and not platforms:
                problems.append(f"wheels: {base} is platform-specific but the manifest lists no platforms")
    return problems


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Build the flinch Blender extension and legacy add-on zips.")
    p.add_argument("--wheel", help="the flinch abi3 wheel (maturin build)")
    p.add_argument("--out", default="target/blender-packages", help="output folder")
    p.add_argument("--validate", metavar="ZIP", help="only check an extension zip's manifest")
    args = p.parse_args(argv)
    if args.validate:
        zips = [args.validate]
    else:
        if not args.wheel:
            p.error("--wheel is required to build")
        extension, legacy = build(args.wheel, args.out)
        print(f"extension  {extension}")
        print(f"legacy     {legacy}")
        zips = [extension]
    for z in zips:
        problems = validate_extension(z)
        for problem in problems:
            print(f"{z}: {problem}", file=sys.stderr)
        if problems:
            return 1
        print(f"manifest ok {z}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
