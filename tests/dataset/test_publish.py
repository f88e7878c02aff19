"""Publishing goes through huggingface_hub with the token from the environment: the real client
against a local Hub on 127.0.0.1 (tests/fake_hub.py) that keeps what it receives, two revisions
published, tagged and loaded back with datasets.load_dataset; a dry run without network or
token; a recorder, a closed port or a server that refuses the token for the failures. No
network."""

import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from typer.testing import CliRunner

from factory.cli import app
from factory.dataset.publish import publish
from factory.errors import FactoryError

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out


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


@pytest.fixture
def local_hub(monkeypatch):
    """The real Hub client pointed at a local Hub that answers as the Hub does."""
    import huggingface_hub.constants

    from tests.fake_hub import TOKEN, FakeHub

    hub = FakeHub()
    hub.thread.start()
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", hub.url)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    yield hub
    hub.httpd.shutdown()
    hub.httpd.server_close()


def two_split_run(folder, seed):
    from factory.config import load_settings
    from factory.generation.generate import generate
    from factory.records import GenerateConfig

    config = GenerateConfig(domain="Food and Beverage", n=16, seed=seed, max_depth=3, splits={"train": 12, "test": 4},
                            hold_out="skeletons")
    return generate(config, load_settings(), folder)


def test_two_revisions_are_published_tagged_and_load_back_as_the_runs_own_files(tmp_path, local_hub):
    import datasets
    import pyarrow.parquet as pq

    first, second = two_split_run(tmp_path / "first", 1), two_split_run(tmp_path / "second", 2)
    result = CliRunner().invoke(app, ["publish", str(first.path), "--repo-id", "me/fresh", "--revision", "v1"])
    assert result.exit_code == 0, result.output
    assert "published" in result.output and "revision v1" in result.output
    publish(second.path, "me/fresh", revision="v2")
    with pytest.raises(FactoryError, match="already has a revision 'v1'"):
        publish(second.path, "me/fresh", revision="v1")  # never over an older split
    assert [p for m, p in local_hub.requests if m == "POST" and "/commit/" in p] == ["/api/datasets/me/fresh/commit/main"] * 2

    for tag, run in (("v1", first), ("v2", second)):
        folder = local_hub.save("me/fresh", tag, tmp_path / f"received-{tag}")
        for split in ("train", "test"):
            sent = folder / "data" / f"{split}-00000-of-00001.parquet"
            assert sent.read_bytes() == (run.path / "dataset" / "data" / sent.name).read_bytes()
        loaded = datasets.load_dataset(str(folder))
        assert {name: loaded[name].num_rows for name in loaded} == {"train": 12, "test": 4}
        for split in ("train", "test"):
            own = pq.read_table(run.path / "dataset" / "data" / f"{split}-00000-of-00001.parquet")
            assert loaded[split]["id"] == own.column("id").to_pylist()
            assert loaded[split]["query"] == own.column("query").to_pylist()
        card = (folder / "README.md").read_text()
        assert "## Provenance" in card and "config_name: nestools" in card and "hf_local_test_token" not in card
        assert (folder / "nestools.jsonl").read_bytes() == (run.path / "nestools.jsonl").read_bytes()
    assert local_hub.save("me/fresh", "main", tmp_path / "main").joinpath("README.md").read_text() == \
        (tmp_path / "received-v2" / "README.md").read_text()


def test_a_dry_run_prints_the_card_and_files_without_network_or_token(food_run, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = CliRunner().invoke(app, ["publish", str(food_run.path), "--repo-id", "me/x", "--dry-run", "--revision", "r1"])
    assert result.exit_code == 0, result.output
    assert "## Provenance" in result.output and "data/test-00000-of-00001.parquet" in result.output
    assert "nestools.jsonl" in result.output and "nothing was sent" in result.output


def test_a_published_dataset_is_a_reference_read_offline_from_the_datasets_cache(food_run, tmp_path, local_hub,
                                                                                  monkeypatch):
    """`factory contamination RUN --against owner/name`: a Hub dataset loaded once online (here
    from the local Hub, through the real client libraries) is read again from the `datasets`
    cache with the Hub gone and the libraries offline, and a run is wholly contaminated against
    its own published copy."""
    import json

    import datasets
    import datasets.config
    import huggingface_hub.constants

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "datasets-cache")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub-cache"))
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "0")
    # where files are fetched from, as the libraries work it out from HF_ENDPOINT when imported
    monkeypatch.setattr(huggingface_hub.constants, "HUGGINGFACE_CO_URL_TEMPLATE",
                        local_hub.url + "/{repo_id}/resolve/{revision}/{filename}")
    monkeypatch.setattr(datasets.config, "HF_ENDPOINT", local_hub.url)
    monkeypatch.setattr(datasets.config, "HUB_DATASETS_URL", local_hub.url + "/datasets/{repo_id}/resolve/{revision}/{path}")
    publish(food_run.path, "me/bench")
    assert datasets.load_dataset("me/bench")["test"].num_rows == 16  # once online, as a user would

    local_hub.httpd.shutdown()  # the Hub is gone; the libraries go offline
    local_hub.httpd.server_close()
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    served = len(local_hub.requests)
    result = CliRunner().invoke(app, ["contamination", str(food_run.path), "--against", "me/bench",
                                      "--out", str(tmp_path / "against-hub")])
    assert result.exit_code == 1, result.output  # every instance is over the thresholds
    report = json.loads((tmp_path / "against-hub" / "contamination.json").read_text())
    assert report["crossed"] == 16 and report["references"][0]["reference"] == "me/bench"
    assert report["references"][0]["same_chain"] == 16 and len(local_hub.requests) == served

    missing = CliRunner().invoke(app, ["contamination", str(food_run.path), "--against", "me/never-loaded"])
    assert missing.exit_code == 1 and "local datasets cache" in missing.output
