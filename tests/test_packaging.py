"""The installed package holds every module of the source tree (a subpackage missing from
pyproject.toml's list installs as an empty namespace: imports fail only on a fresh install)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_in_pyproject():
    text = (ROOT / "pyproject.toml").read_text()    # (tomllib is Python 3.11+)
    block = re.search(r"^packages = \[(.*?)\]", text, re.MULTILINE | re.DOTALL).group(1)
    listed = set(re.findall(r'"([\w.]+)"', block))
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "symgrad").rglob("__init__.py")}
    assert found <= listed, f"add to pyproject.toml's packages: {sorted(found - listed)}"


def test_every_module_is_tracked_by_git():
    """A file the .gitignore hides (a folder named build/, say) would be missing from clones."""
    import subprocess
    tracked = set(subprocess.run(["git", "ls-files", "symgrad", "tests", "templates"],
                                 cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.split())
    if not tracked:
        return   # not a git checkout (an sdist, say)
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *[
        str(p.relative_to(ROOT)) for p in ROOT.glob("*/**/*.py")
        if p.parts[len(ROOT.parts)] in ("symgrad", "tests")]], cwd=ROOT,
        capture_output=True, text=True).stdout.split()
    assert not ignored, f".gitignore hides project files: {ignored}"
