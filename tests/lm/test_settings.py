"""Where a model name is served, the key from the environment, and the one-line errors."""

from __future__ import annotations

import pytest

from factory.errors import ConfigError
from factory.lm.settings import LMSettings, lm_settings, route, served_name


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("FACTORY_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_provider_prefixes_are_dropped_for_openai_compatible_servers():
    assert served_name("openai/gpt-4o-mini") == "gpt-4o-mini"
    assert served_name("hosted_vllm/Qwen/Qwen2.5-7B") == "Qwen/Qwen2.5-7B"
    assert served_name("meta-llama/Llama-3.1-8B") == "meta-llama/Llama-3.1-8B"


def test_api_base_sends_any_name_to_that_server():
    r = route(LMSettings(model="hosted_vllm/Qwen/Qwen2.5-7B", api_base="http://gpu:8000/v1/"))
    assert (r.kind, r.model, r.endpoint, r.key) == ("http", "Qwen/Qwen2.5-7B", "http://gpu:8000/v1", None)


def test_local_servers_have_their_usual_address():
    assert route(LMSettings(model="ollama/llama3.1")).endpoint == "http://localhost:11434/v1"
    with pytest.raises(ConfigError, match="--api-base"):
        route(LMSettings(model="hosted_vllm/Qwen/Qwen2.5-7B"))


def test_openai_needs_a_key_and_says_how_to_pass_one(monkeypatch):
    with pytest.raises(ConfigError) as caught:
        route(LMSettings(model="openai/gpt-4o-mini"))
    message = str(caught.value)
    assert "FACTORY_API_KEY" in message and "OPENAI_API_KEY" in message and "--api-base" in message
    assert "\n" not in message
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-0123456789")
    assert route(LMSettings(model="gpt-4o-mini")).key == "sk-openai-0123456789"
    monkeypatch.setenv("FACTORY_API_KEY", "sk-factory-0123456789")
    assert route(LMSettings(model="gpt-4o-mini")).key == "sk-factory-0123456789"  # FACTORY_API_KEY first
    assert "sk-factory" not in repr(route(LMSettings(model="gpt-4o-mini")))


@pytest.mark.slow
def test_other_providers_go_through_litellm_with_their_own_key_variable(monkeypatch):
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        route(LMSettings(model="anthropic/claude-3-5-haiku-latest"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-0123456789")
    r = route(LMSettings(model="anthropic/claude-3-5-haiku-latest"))
    assert (r.kind, r.model, r.key) == ("litellm", "anthropic/claude-3-5-haiku-latest", "sk-ant-0123456789")


def test_bad_settings_are_one_clear_line():
    with pytest.raises(ConfigError, match="--timeout"):
        lm_settings(model="openai/x", timeout=0)
    with pytest.raises(ConfigError, match="--max-retries"):
        lm_settings(model="openai/x", max_retries=-1)
    assert lm_settings(model="openai/x", timeout=None).timeout == 120.0
