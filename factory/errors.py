"""Errors a user can act on. The CLI prints them as one red line; anything else is a bug."""


class FactoryError(Exception):
    """Base class for user-facing errors (bad flags, bad seeds, bad paths)."""


class SeedError(FactoryError):
    """A seed scenario or toolbox is malformed; the message names the file and field."""


class ConfigError(FactoryError):
    """A setting, flag or policy file has an invalid value."""


class RunError(FactoryError):
    """A run directory cannot be created, resumed or read."""


class FactoryWarning(UserWarning):
    """Something the user should know that does not stop the command (a seed that failed to
    load and was skipped, a tool that crashed); the CLI prints it as one yellow line."""


class ToolError(Exception):
    """A tool refused its arguments or the world state (bad value, missing row, unmet condition).

    It is an observation for the caller, not a bug: the simulator turns it into an error
    result the agent can recover from.
    """


class EndpointDown(FactoryError):
    """A model endpoint failed too many requests in a row: the run stops with one line
    instead of recording thousands of failures."""
