"""One redaction for every artifact: every configured secret, whatever path it takes."""

from __future__ import annotations

from factory.lm.secrets import REDACTED, configured_secrets, redact, register_secret


def test_configured_secrets_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("FACTORY_API_KEY", "sk-factory-0123456789")
    monkeypatch.setenv("HF_TOKEN", "hf_abcdefghijklmnop")
    monkeypatch.setenv("FACTORY_HUB_TOKEN", "tok-0987654321")
    monkeypatch.setenv("GROQ_API_KEY", "gsk_0123456789abc")
    monkeypatch.setenv("FACTORY_OUTPUT_DIR", "/tmp/not-a-secret-at-all")
    monkeypatch.setenv("OPENAI_API_KEY", "EMPTY")  # too short to be a key: left alone
    secrets = configured_secrets()
    assert {"sk-factory-0123456789", "hf_abcdefghijklmnop", "tok-0987654321", "gsk_0123456789abc"} <= set(secrets)
    assert "/tmp/not-a-secret-at-all" not in secrets and "EMPTY" not in secrets


def test_redaction_reaches_nested_values_and_keys(monkeypatch):
    monkeypatch.setenv("FACTORY_API_KEY", "sk-factory-0123456789")
    value = {"text": "key sk-factory-0123456789 echoed", "list": ["sk-factory-0123456789", 3, None],
             "sk-factory-0123456789": True}
    assert redact(value) == {"text": f"key {REDACTED} echoed", "list": [REDACTED, 3, None], REDACTED: True}
    assert redact("nothing to hide") == "nothing to hide"


def test_a_secret_containing_another_is_removed_whole(monkeypatch):
    monkeypatch.setenv("FACTORY_API_KEY", "abcdefgh")
    monkeypatch.setenv("FACTORY_OTHER_KEY", "abcdefgh-longer-key")
    assert redact("abcdefgh-longer-key") == REDACTED


def test_registered_secrets_are_redacted_too():
    register_secret("passed-in-code-0123")
    assert redact("the key is passed-in-code-0123") == f"the key is {REDACTED}"
