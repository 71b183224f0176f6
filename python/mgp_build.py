"""The build backend of the mgp Python package (PEP 517, in-tree).

The package is pure Python, so building it is zipping ``mgp/`` into a wheel
with its metadata; doing that here, with the standard library only, lets
``pip install ./python`` work in a fresh virtual environment without
downloading setuptools or wheel (``requires = []``). ``libmgp.so``, when
someone copied it into ``mgp/``, travels inside the wheel.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _project():
    """name, version, description and requires-python from pyproject.toml."""
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]
    fields = dict(re.findall(r'^([\w-]+)\s*=\s*"([^"]*)"', section, re.M))
    return fields


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}",
             f"Version: {p['version']}", f"Summary: {p.get('description', '')}",
             f"Requires-Python: {p.get('requires-python', '>=3.8')}",
             "Provides-Extra: numpy", "Requires-Dist: numpy; extra == \"numpy\"",
             "Provides-Extra: torch", "Requires-Dist: torch; extra == \"torch\"",
             "Description-Content-Type: text/markdown", ""]
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        return "\n".join(lines) + "\n" + f.read()


def _package_files():
    root = os.path.join(HERE, "mgp")
    for name in sorted(os.listdir(root)):
        if name.endswith(".py") or name == "libmgp.so":
            yield f"mgp/{name}", os.path.join(root, name)


def _dist_info():
    p = _project()
    return f"{p['name']}-{p['version']}.dist-info", p


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{path},sha256={digest.decode()},{len(data)}"


def _write_wheel(directory, editable=False):
    info, p = _dist_info()
    name = f"{p['name']}-{p['version']}-py3-none-any.whl"
    files = []
    if editable:  # a .pth file that puts this folder on sys.path
        files.append(("mgp_editable.pth", (HERE + "\n").encode()))
    else:
        for arcname, path in _package_files():
            with open(path, "rb") as f:
                files.append((arcname, f.read()))
    files.append((f"{info}/METADATA", _metadata().encode()))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: mgp_build\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{info}/top_level.txt", b"mgp\n"))
    record = [_record_line(path, data) for path, data in files]
    record.append(f"{info}/RECORD,,")
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    with zipfile.ZipFile(os.path.join(directory, name), "w",
                         zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            wheel.writestr(path, data)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = f"{p['name']}-{p['version']}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as sdist:
        for rel in ["pyproject.toml", "README.md", "mgp_build.py"] + \
                [arcname for arcname, _ in _package_files()]:
            sdist.add(os.path.join(HERE, rel), arcname=f"{base}/{rel}")
        data = _metadata().encode()
        entry = tarfile.TarInfo(f"{base}/PKG-INFO")
        entry.size = len(data)
        sdist.addfile(entry, io.BytesIO(data))
    return name
