"""Publishing goes through huggingface_hub with the token from the environment, and only
uploads the dataset card and data files. The Hub is replaced by a recorder: no network."""

import pytest

from factory.errors import FactoryError
from factory.publish import publish


class RecordingHub:
    calls: list = []

    def __init__(self, token=None):
        RecordingHub.calls.append(("init", token))

    def create_repo(self, repo_id, **kwargs):
        RecordingHub.calls.append(("create_repo", repo_id, kwargs))
        return f"https://hub.example/datasets/{repo_id}"

    def upload_folder(self, **kwargs):
        RecordingHub.calls.append(("upload_folder", kwargs))


@pytest.fixture
def hub(monkeypatch):
    import huggingface_hub

    RecordingHub.calls = []
    monkeypatch.setattr(huggingface_hub, "HfApi", RecordingHub)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_TOKEN", "hf_secret_token_value")
    return RecordingHub


def test_publish_uploads_card_and_data_with_the_environment_token(food_run, hub):
    url = publish(food_run.path / "dataset", "me/food-tools")
    assert url == "https://hub.example/datasets/me/food-tools"
    assert hub.calls[0] == ("init", "hf_secret_token_value")
    assert hub.calls[1][2]["repo_type"] == "dataset"
    upload = hub.calls[2][1]
    assert upload["folder_path"] == str(food_run.path / "dataset") and upload["allow_patterns"] == ["README.md", "data/*"]
    card = (food_run.path / "dataset" / "README.md").read_text()
    assert "hf_secret_token_value" not in card


def test_publish_refuses_bad_repo_ids_and_offline_mode(food_run, hub, monkeypatch):
    with pytest.raises(FactoryError, match="owner/name"):
        publish(food_run.path / "dataset", "no-owner")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(FactoryError, match="HF_HUB_OFFLINE"):
        publish(food_run.path / "dataset", "me/x")
