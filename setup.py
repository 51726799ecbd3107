"""The one build step pyproject.toml cannot state: files kept in one place in the repository are
copied beside the modules that read them in the wheel, the top-level openapi.yaml (the contract) into
``kalooki_referee/api/`` (api/openapi.py) and docs/conformance.md (the comparison rules an export
carries) into ``kalooki_referee/vectors/`` (vectors/export.py).  No symbolic link is needed."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


COPIES = (("openapi.yaml", "kalooki_referee.api"), ("docs/conformance.md", "kalooki_referee.vectors"))


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        for source, package in COPIES:
            target = Path(self.build_lib, *package.split("."), Path(source).name)
            target.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(source, str(target))


setup(cmdclass={"build_py": BuildPy})
