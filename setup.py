"""The one build step pyproject.toml cannot state: two files kept outside the packages' folders are
copied into the wheel beside the modules that read them: the top-level openapi.yaml (the contract)
into ``kalooki_referee/rules/`` (rules/wire/contract.py), and docs/conformance.md (the comparison rules),
docs/wire-format.md and docs/shuffle.md (the deal's specification) into ``kalooki_referee/vectors/``
(vectors/export.py puts them in every export)."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        for source, package in (("openapi.yaml", "rules"), ("docs/conformance.md", "vectors"),
                                ("docs/wire-format.md", "vectors"), ("docs/shuffle.md", "vectors")):
            target = Path(self.build_lib, "kalooki_referee", package, Path(source).name)
            target.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(source, str(target))


setup(cmdclass={"build_py": BuildPy})
