"""The validation policy as data: validators/default.toml, overridden per domain."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from factory.errors import ConfigError


class CheckPolicy(BaseModel):
    model_config = ConfigDict(extra="allow")  # thresholds are check-specific keys
    blocking: bool = True
    enabled: bool = True

    def get(self, key: str) -> Any:
        return (self.model_extra or {})[key]


class Policy(BaseModel):
    name: str
    checks: dict[str, CheckPolicy]


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def load_policy(validators_dir: Path, domain_slug: str | None = None, name: str = "default") -> Policy:
    base_path = validators_dir / f"{name}.toml"
    if not base_path.is_file():
        raise ConfigError(f"validation policy {base_path} does not exist")
    checks = _read(base_path).get("checks", {})
    override = validators_dir / f"{domain_slug}.toml" if domain_slug else None
    if override and override.is_file():
        for check, values in _read(override).get("checks", {}).items():
            if check not in checks:
                raise ConfigError(f"{override}: unknown check {check!r} (known: {', '.join(sorted(checks))})")
            checks[check] = {**checks[check], **values}
    try:
        return Policy(name=name, checks={k: CheckPolicy(**v) for k, v in checks.items()})
    except Exception as exc:
        raise ConfigError(f"{base_path}: {exc}") from exc
