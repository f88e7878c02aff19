"""The one place that resolves settings: defaults < [tool.factory] in ./pyproject.toml or
./factory.toml < FACTORY_* environment variables < command-line flags."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from factory.errors import ConfigError

PACKAGE_DIR = Path(__file__).resolve().parent


def offline_defaults() -> None:
    """Local-only defaults for the libraries a command imports: no hub look-ups, no model
    cost-map download. Set before those imports; an explicit environment value wins."""
    for key, value in (("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("LITELLM_LOCAL_MODEL_COST_MAP", "True"),
                       ("TOKENIZERS_PARALLELISM", "false")):
        os.environ.setdefault(key, value)


def resource_dir(name: str) -> Path:
    """A shipped folder (seeds, prompts, validators): inside a wheel install, or the source tree."""
    bundled = PACKAGE_DIR / "_data" / name
    return bundled if bundled.is_dir() else PACKAGE_DIR.parent / name


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seeds_dir: Path = resource_dir("seeds")
    prompts_dir: Path = resource_dir("prompts")
    validators_dir: Path = resource_dir("validators")
    output_dir: Path = Path("generated")
    model: str | None = None
    api_base: str | None = None
    # How model endpoints are called (factory/lm); flags of the commands override them.
    concurrency: int = 4
    timeout: float = 120.0  # seconds for a whole request, not per read
    max_retries: int = 4
    max_endpoint_failures: int = 5  # endpoint failures in a row that stop a run
    structured_output: Literal["off", "json_schema", "json_object"] = "off"  # how the endpoint takes a JSON schema
    # (factory.lm.settings.LMSettings)
    stage_models: dict[str, str] = {}  # generation stage → another model than the run's (factory.generation.stages)
    # Model-written seeds (`factory seed new`), run only in the sandbox; default: <output_dir>/seeds.
    generated_seeds_dir: Path | None = None
    # What later runs reuse (toolbox embeddings); default: $XDG_CACHE_HOME/factory or ~/.cache/factory.
    cache_dir: Path | None = None

    @property
    def generated_seeds_path(self) -> Path:
        return self.generated_seeds_dir if self.generated_seeds_dir is not None else self.output_dir / "seeds"

    @property
    def embeddings_store(self) -> Path:
        root = self.cache_dir or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "factory"
        return root / "embeddings"


def _file_settings(cwd: Path) -> dict[str, Any]:
    for path, table in ((cwd / "factory.toml", None), (cwd / "pyproject.toml", ("tool", "factory"))):
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
        for key in table or ():
            data = data.get(key, {})
        if data:
            return {k.replace("-", "_"): v for k, v in data.items()}
    return {}


def load_settings(flags: dict[str, Any] | None = None, cwd: Path | None = None) -> Settings:
    values: dict[str, Any] = _file_settings(cwd or Path.cwd())
    for field in Settings.model_fields:
        env = os.environ.get(f"FACTORY_{field.upper()}")
        if env:
            values[field] = env
    values.update({k: v for k, v in (flags or {}).items() if v is not None})
    try:
        return Settings(**values)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"invalid settings: {problems}") from exc


def read_prompts(prompts_dir: Path, files: dict[str, str]) -> dict[str, str]:
    """The editable prompts of model-facing stages, by stage (`files`: stage → file name)."""
    texts = {}
    for stage, name in files.items():
        path = prompts_dir / name
        if not path.is_file():
            raise ConfigError(f"missing prompt file {path} (the instructions of the {stage} stage)")
        texts[stage] = path.read_text(encoding="utf-8").strip()
    return texts
