"""The toy game is registered for every host test."""

from tests.host.toygame import register

register()
