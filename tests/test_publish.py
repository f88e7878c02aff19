"""Publishing goes through huggingface_hub with the token from the environment, and only
uploads the dataset card and data files. The Hub is replaced by a recorder, a closed port on
127.0.0.1 or a local server that refuses the token: no network."""

import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from typer.testing import CliRunner

from factory.cli import app

from factory.errors import FactoryError
from factory.publish import publish


class RecordingHub:
    calls: list = []

    def __init__(self, token=None):
        RecordingHub.calls.append(("init", token))

    def whoami(self):
        RecordingHub.calls.append(("whoami",))
        return {"name": "me"}

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
    assert hub.calls[1] == ("whoami",)  # the token is checked before anything is created
    assert hub.calls[2][2]["repo_type"] == "dataset"
    upload = hub.calls[3][1]
    assert upload["folder_path"] == str(food_run.path / "dataset") and upload["allow_patterns"] == ["README.md", "data/*"]
    card = (food_run.path / "dataset" / "README.md").read_text()
    assert "hf_secret_token_value" not in card


def test_publish_refuses_bad_repo_ids_and_offline_mode(food_run, hub, monkeypatch):
    with pytest.raises(FactoryError, match="owner/name"):
        publish(food_run.path / "dataset", "no-owner")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(FactoryError, match="HF_HUB_OFFLINE"):
        publish(food_run.path / "dataset", "me/x")


def test_without_a_token_nothing_is_sent_and_the_answer_says_how_to_give_one(food_run, hub, monkeypatch):
    import huggingface_hub

    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setattr(huggingface_hub, "get_token", lambda: None)  # no saved login either
    with pytest.raises(FactoryError, match="no Hugging Face token: set HF_TOKEN"):
        publish(food_run.path / "dataset", "me/x")
    assert hub.calls == []


@pytest.fixture
def hub_at(monkeypatch):
    """Point the real Hub client at an address on this machine."""
    import huggingface_hub.constants

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_TOKEN", "hf_secret_token_value")

    def point(url):
        monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", url)
        monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)  # read when it was imported

    return point


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_hub_is_one_line_naming_the_cause(food_run, hub_at):
    hub_at(f"http://127.0.0.1:{closed_port()}")
    with pytest.raises(FactoryError, match="cannot reach http://127.0.0.1:[0-9]+ to publish me/x: ConnectError.*refused"):
        publish(food_run.path / "dataset", "me/x")


class Refusing(BaseHTTPRequestHandler):
    def do_GET(self):  # whoami: the token is not valid
        body = b'{"error": "Invalid credentials in Authorization header"}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):
        pass


def test_a_refused_token_is_one_line_before_any_repository_is_created(food_run, hub_at):
    server = HTTPServer(("127.0.0.1", 0), Refusing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        hub_at(f"http://127.0.0.1:{server.server_port}")
        with pytest.raises(FactoryError, match="did not accept the token.*HF_TOKEN"):
            publish(food_run.path / "dataset", "me/x")
    finally:
        server.shutdown()
        server.server_close()


def test_publish_on_the_command_line_without_a_token_is_one_line_and_exit_1(food_run, hub, monkeypatch):
    import huggingface_hub

    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setattr(huggingface_hub, "get_token", lambda: None)
    result = CliRunner().invoke(app, ["publish", str(food_run.path), "--repo-id", "me/x"])
    assert result.exit_code == 1
    assert [line for line in result.output.splitlines() if line.strip()] == [
        line for line in result.output.splitlines() if line.startswith("error: no Hugging Face token")]
