"""The one build step pyproject.toml cannot state: the top-level openapi.yaml (the contract) is copied
into the wheel's ``kalooki_referee/api/`` beside the module that reads it (api/openapi.py)."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib, "kalooki_referee", "api", "openapi.yaml")
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file("openapi.yaml", str(target))


setup(cmdclass={"build_py": BuildPy})
