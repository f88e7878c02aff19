"""How to reach a model: LMSettings, and where a model name is served.

A model name is a LiteLLM/DSPy name (`openai/gpt-4o-mini`, `hosted_vllm/Qwen/Qwen2.5-7B`,
`ollama/llama3.1`, `anthropic/claude-3-5-haiku-latest`). With `api_base`, any name is sent to
that OpenAI-compatible server (vLLM, llama.cpp, Ollama, LM Studio, a LiteLLM proxy) with its
provider prefix dropped. Without it, OpenAI and local servers with a well-known address are
reached over HTTP directly; other providers go through LiteLLM. The key comes from
FACTORY_API_KEY, else the provider's usual variable (OPENAI_API_KEY, GROQ_API_KEY, ...); it
lives only in the process and is never recorded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factory.errors import ConfigError

KEY_VARIABLE = "FACTORY_API_KEY"
# Prefixes dropped from the name sent to an OpenAI-compatible server.
OPENAI_COMPATIBLE = ("openai", "hosted_vllm", "vllm", "ollama", "ollama_chat", "lm_studio", "llamafile",
                     "litellm_proxy", "openai_like", "custom_openai")
# Servers with a well-known local address; the rest of OPENAI_COMPATIBLE need --api-base.
LOCAL_BASES = {"ollama": "http://localhost:11434/v1", "ollama_chat": "http://localhost:11434/v1",
               "lm_studio": "http://localhost:1234/v1"}
OPENAI_BASE = "https://api.openai.com/v1"
KEYLESS = ("ollama", "ollama_chat", "lm_studio", "llamafile")


class LMSettings(BaseModel):
    """One model endpoint and how to call it. `timeout` bounds a whole request (connection,
    waiting and reading), not a single read; `max_retries` counts retries after the first
    attempt; `max_endpoint_failures` consecutive requests that fail at the endpoint (after
    their retries) stop the run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field(min_length=1)
    api_base: str | None = None
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(1024, ge=1)
    concurrency: int = Field(4, ge=1, le=512)
    timeout: float = Field(120.0, gt=0)
    max_retries: int = Field(4, ge=0, le=20)
    backoff: float = Field(1.0, ge=0)  # seconds before the first retry; doubles each time, with jitter
    max_backoff: float = Field(30.0, ge=0)  # ceiling of one wait, Retry-After included
    max_endpoint_failures: int = Field(5, ge=1)
    # How the endpoint takes a JSON schema an answer must follow: "json_schema" (OpenAI, vLLM,
    # llama.cpp's llama-server, LM Studio, Ollama), "json_object" (llama-cpp-python's server:
    # {"type": "json_object", "schema": ...}), or "off": no constraint, the stages ask for code
    # and fenced JSON and read them leniently.
    structured_output: Literal["off", "json_schema", "json_object"] = "off"


CONFIGURED = ("api_base", "concurrency", "timeout", "max_retries", "max_endpoint_failures", "structured_output")


def lm_settings(config: object | None = None, **values: object) -> LMSettings:
    """LMSettings from the resolved configuration (factory.config.Settings: file, FACTORY_*
    variables) overridden by flags (None values are left alone); a bad value is one clear
    ConfigError."""
    merged = {name: getattr(config, name) for name in CONFIGURED if getattr(config, name, None) is not None}
    merged.update({k: v for k, v in values.items() if v is not None})
    try:
        return LMSettings(**merged)
    except ValidationError as exc:
        problems = "; ".join(f"--{'-'.join(map(str, e['loc'])).replace('_', '-')}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"model settings: {problems}") from exc


def provider_of(model: str) -> str:
    prefix, sep, rest = model.partition("/")
    return prefix if sep and rest else "openai"


def served_name(model: str) -> str:
    """The name an OpenAI-compatible server knows the model by: the provider prefix dropped."""
    prefix, _, rest = model.partition("/")
    return rest if rest and prefix in OPENAI_COMPATIBLE else model


def provider_key_variables(provider: str) -> tuple[str, ...]:
    return (KEY_VARIABLE, f"{provider.upper()}_API_KEY")


def api_key(provider: str) -> str | None:
    """The key from the environment, read at call time (never at import, never stored)."""
    return next((os.environ[v] for v in provider_key_variables(provider) if os.environ.get(v)), None)


@dataclass(frozen=True)
class Route:
    """Where requests go: `http` (an OpenAI-compatible URL) or `litellm` (LiteLLM's provider
    code). `endpoint` names the place in messages and cache keys, never with the key."""

    kind: str
    model: str  # the name sent
    endpoint: str
    key: str | None = None

    def __repr__(self) -> str:  # the key never reaches a log or a traceback through repr
        return f"Route(kind={self.kind!r}, model={self.model!r}, endpoint={self.endpoint!r})"


def route(settings: LMSettings) -> Route:
    """The route for a model, or one clear ConfigError saying how to configure it."""
    provider = provider_of(settings.model)
    key = api_key(provider)
    if settings.api_base:
        return Route("http", served_name(settings.model), settings.api_base.rstrip("/"), key)
    if provider in LOCAL_BASES:
        return Route("http", served_name(settings.model), LOCAL_BASES[provider], key)
    if provider in OPENAI_COMPATIBLE and provider != "openai":
        raise ConfigError(f"--model {settings.model}: a {provider} model is served by your own server; pass its "
                          "OpenAI-compatible address with --api-base (e.g. http://localhost:8000/v1)")
    if provider == "openai":
        if not key:
            raise ConfigError(_no_key(settings.model, provider))
        base = os.environ.get("OPENAI_BASE_URL") or OPENAI_BASE
        return Route("http", served_name(settings.model), base.rstrip("/"), key)
    return _litellm_route(settings, provider, key)


def _litellm_route(settings: LMSettings, provider: str, key: str | None) -> Route:
    if not key:
        import litellm

        missing = litellm.validate_environment(settings.model).get("missing_keys") or []
        if missing:
            raise ConfigError(_no_key(settings.model, provider, missing))
    return Route("litellm", settings.model, provider, key)


def _no_key(model: str, provider: str, missing: list[str] | None = None) -> str:
    names = " or ".join(dict.fromkeys([KEY_VARIABLE, *(missing or provider_key_variables(provider)[1:])]))
    return (f"--model {model}: no API key; set {names}, or serve a model yourself and pass --model openai/NAME "
            "--api-base http://HOST:PORT/v1 (vLLM, Ollama, llama.cpp)")
