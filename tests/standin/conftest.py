"""The stand-in's own tests use its fixtures."""

from tests.standin.fixtures import spec_checked, standin, standin_env

__all__ = ["spec_checked", "standin", "standin_env"]
