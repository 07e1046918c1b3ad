"""Headless check of the Blender 4.2+ extension zip in Debian's Blender 3.4, which has no extension system:

    FLINCH_EXTENSION_ZIP=.../flinch-...-extension.zip blender -b --factory-startup --python-exit-code 1 \
        --python blender/tests/test_extension.py

What can be checked without Blender 4.2: the manifest by Blender's rules (``blender/package.py``'s
``validate_extension``), then the install Blender 4.2 performs, done by hand: the zip unpacked into an extension
repository folder (``extensions/user_default/flinch``), each wheel the manifest lists installed into the
extensions' own site-packages (unpacked: the flinch wheel is a plain zip and needs nothing else), that folder on
sys.path, the add-on imported as the package ``bl_ext.user_default.flinch`` and registered. The add-on must then
find flinch as installed (nothing unpacked from its own ``wheels`` folder, no ``_vendor``) and register its
operators. What it cannot check: Blender 4.2's own ``extension validate`` / ``install-file`` commands.
Prints `figure blender_extension_zip_ok 1`.
"""

import importlib
import importlib.util
import os
import sys
import tempfile
import types
import zipfile

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def fail(message):
    raise AssertionError(message)


def main():
    zip_path = os.environ.get("FLINCH_EXTENSION_ZIP") or fail("FLINCH_EXTENSION_ZIP is not set")
    importlib.util.find_spec("flinch") is None or fail("flinch is importable before the install")
    spec = importlib.util.spec_from_file_location("flinch_package_script", os.path.join(REPO, "blender", "package.py"))
    package = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(package)
    problems = package.validate_extension(zip_path)
    problems == [] or fail(f"{zip_path}: {problems}")

    import tomllib

    root = tempfile.mkdtemp(prefix="flinch_ext_")
    ext_dir = os.path.join(root, "extensions", "user_default", "flinch")
    site = os.path.join(root, "extensions", ".local", "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}",
                        "site-packages")
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(ext_dir)
        manifest = tomllib.loads(z.read("blender_manifest.toml").decode())
    for w in manifest["wheels"]:
        with zipfile.ZipFile(os.path.join(ext_dir, w)) as wz:
            wz.extractall(site)
    sys.path.insert(0, site)
    # Blender 4.2 imports an extension as bl_ext.<repository>.<id>.
    for name, path in (("bl_ext", os.path.join(root, "extensions")),
                       ("bl_ext.user_default", os.path.join(root, "extensions", "user_default"))):
        m = types.ModuleType(name)
        m.__path__ = [path]
        sys.modules[name] = m
    addon = importlib.import_module("bl_ext.user_default.flinch")
    addon.register()
    try:
        addon._flinch_missing is None or fail(addon._flinch_missing)
        import flinch

        os.path.realpath(flinch.__file__).startswith(os.path.realpath(site)) or fail(
            f"flinch came from {flinch.__file__}, not the extension's site-packages {site}"
        )
        not os.path.exists(os.path.join(ext_dir, "_vendor")) or fail("the extension unpacked its wheel itself")
        hasattr(bpy.ops.flinch, "retarget") or fail("no flinch.retarget operator")
        hasattr(bpy.types.Scene, "flinch") or fail("no Scene.flinch settings")
        print(f"extension {manifest['id']} {manifest['version']}: manifest ok, add-on registered, "
              f"flinch {flinch.__version__} from {os.path.dirname(flinch.__file__)}")
    finally:
        addon.unregister()
    print("figure blender_extension_zip_ok 1")


main()
