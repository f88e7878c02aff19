"""Publishing an exported dataset to the Hugging Face Hub. The token comes from the
environment (HF_TOKEN) or the local Hub login, and is never written anywhere.

What is sent is decided first, without the network: the Parquet splits, the NesTools file of
the run, and a card that adds the run's provenance to the dataset card (factory version and
commit, the seeds' digests, the generation settings, model usage, what the checks kept and
rejected, the contamination summary, the statistics), with the NesTools file as a config of
its own. `--dry-run` prints that and stops. Then everything that can go wrong before the
upload is found without sending anything: a bad repository id, a folder that is no dataset,
offline mode, no token. The token is checked with the Hub (who it belongs to) before a
repository is created; a `--revision` tag that already exists is refused before any file is
sent, so a fresh split never overwrites an older one. A Hub that cannot be reached or refuses
is one line naming the cause and what to do.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

from factory import __version__
from factory.config import PACKAGE_DIR
from factory.dataset.export import CONVERSATIONS, NESTOOLS, load_instances
from factory.errors import FactoryError

# Libraries the Hub client may raise its network errors from (it moved from requests to httpx
# and on), besides OSError.
NETWORK_MODULES = ("httpx", "httpx2", "requests", "urllib3", "h11", "httpcore")
NO_TOKEN = ("no Hugging Face token: set HF_TOKEN to a token with write access "
            "(https://huggingface.co/settings/tokens) or log in with `hf auth login` (older versions: `huggingface-cli login`), then publish again")


@dataclass
class Upload:
    """What a publish sends: file path in the repository → its bytes, and the card among them."""

    files: dict[str, bytes]
    card: str

    def listing(self) -> list[str]:
        return [f"{path}  {len(data):,} bytes  sha256 {hashlib.sha256(data).hexdigest()[:16]}"
                for path, data in self.files.items()]


def prepare(path: Path) -> Upload:
    """The files of a run directory or dataset folder as they would be published."""
    dataset = path / "dataset" if (path / "dataset").is_dir() else path
    instances = load_instances(dataset)  # refuse to publish something that does not load
    run = dataset.parent if (dataset.parent / "manifest.json").is_file() else None
    files = {p.relative_to(dataset).as_posix(): p.read_bytes()
             for folder in ("data", CONVERSATIONS) for p in sorted((dataset / folder).glob("*.parquet"))}
    nestools = run / NESTOOLS if run is not None and (run / NESTOOLS).is_file() else None
    if nestools is not None:
        files[NESTOOLS] = nestools.read_bytes()
    card = published_card((dataset / "README.md").read_text(encoding="utf-8"), run, instances, nestools is not None)
    return Upload({"README.md": card.encode(), **files}, card)


def published_card(card: str, run: Path | None, instances: list, with_nestools: bool) -> str:
    """The dataset card with the NesTools file as a config and the run's provenance added."""
    _, header, body = card.split("---\n", 2)
    meta = yaml.safe_load(header)
    meta.setdefault("source_datasets", ["original"])
    if with_nestools:
        meta["configs"] = [*meta.get("configs", []),
                           {"config_name": "nestools", "data_files": [{"split": "test", "path": NESTOOLS}]}]
    text = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).strip()
    return f"---\n{text}\n---\n{body.rstrip()}\n\n{provenance(run, instances)}"


def provenance(run: Path | None, instances: list) -> str:
    from factory.config import load_settings
    from factory.dataset.contamination import read_summary, summary_table

    lines = ["## Provenance", "", f"- factory: toolbench-factory {__version__}, commit `{_commit()}`"]
    toolboxes = sorted({t for i in instances if i.world for t in i.world.toolboxes})
    seeds_dir = load_settings().seeds_dir
    digests = ", ".join(f"`{slug}` {_folder_digest(seeds_dir / slug)}" for slug in toolboxes if (seeds_dir / slug).is_dir())
    lines.append(f"- seeds (sha256 of their files): {digests or 'none (imported or model-written tools)'}")
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8")) if run is not None else None
    if manifest is not None:
        lines.append(f"- run `{manifest['run_id']}`: {manifest['accepted']} kept of {manifest['attempts']} candidates; "
                     f"dataset fingerprint `{manifest.get('dataset_fingerprint')}`")
        lines.append(f"- generation settings: `{json.dumps(manifest['config'], sort_keys=True)}`")
        for model, usage in sorted(manifest.get("model_usage", {}).items()):
            lines.append(f"- model `{model}`: {json.dumps(usage, sort_keys=True)}")
        failures = run / "validation-failures.jsonl"
        checked = sum(1 for _ in failures.open(encoding="utf-8")) if failures.is_file() else 0
        lines.append(f"- checks: every kept instance passed every blocking check; rejects by reason "
                     f"`{json.dumps(manifest.get('reject_reasons', {}), sort_keys=True)}`; failures on the last "
                     f"`factory validate`: {checked}")
    report = read_summary(run) if run is not None else None
    lines += ["", "### Contamination", ""]
    if report is None:
        lines.append("No contamination report beside the run (`factory contamination RUN --against nestools` writes one).")
    else:
        lines += [f"{report.crossed} of {report.instances} instances over the thresholds "
                  f"(`{json.dumps(report.thresholds, sort_keys=True)}`).", "", summary_table(report)]
    return "\n".join(lines) + "\n"


def _commit() -> str:
    """The factory's source commit, when it runs from a git checkout."""
    root = PACKAGE_DIR.parent
    if not (root / ".git").exists():
        return "unknown"
    try:
        found = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return found.stdout.strip() or "unknown"


def _folder_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def publish(path: Path, repo_id: str, *, private: bool = False, revision: str | None = None,
            upload: Upload | None = None) -> str:
    """Upload a run's dataset (see `prepare`) as a dataset repository, tagged `revision` when
    given; returns its URL."""
    if "/" not in repo_id or repo_id.count("/") != 1:
        raise FactoryError(f"--repo-id must look like 'owner/name', got {repo_id!r}")
    upload = upload or prepare(path)
    if os.environ.get("HF_HUB_OFFLINE") == "1":
        raise FactoryError("HF_HUB_OFFLINE=1 is set: unset it to publish to the Hub")
    import huggingface_hub

    token = os.environ.get("HF_TOKEN") or huggingface_hub.get_token()
    if not token:
        raise FactoryError(NO_TOKEN)
    api = huggingface_hub.HfApi(token=token)
    try:
        api.whoami()  # the token, checked before anything is created or sent
        url = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        if revision is not None and revision in {t.name for t in api.list_repo_refs(repo_id, repo_type="dataset").tags}:
            raise FactoryError(f"{repo_id} already has a revision {revision!r}: a fresh split is published under a new "
                               "--revision, never over an older one")
        operations = [huggingface_hub.CommitOperationAdd(path_in_repo=name, path_or_fileobj=data)
                      for name, data in upload.files.items()]
        commit = api.create_commit(repo_id, operations, commit_message=f"Upload benchmark{f' {revision}' if revision else ''}",
                                   repo_type="dataset")
        if revision is not None:
            api.create_tag(repo_id, tag=revision, revision=commit.oid, repo_type="dataset",
                           tag_message=f"benchmark split {revision}")
    except FactoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - sorted into the Hub's answers and network failures below
        error = hub_error(exc, repo_id, getattr(api, "endpoint", None))
        if error is exc:
            raise
        raise error from exc
    return str(url)


def hub_error(exc: Exception, repo_id: str, endpoint: str | None) -> Exception:
    """One line for what the Hub answered or why it could not be reached; anything else is a
    bug, returned as it is."""
    from huggingface_hub.errors import HfHubHTTPError

    where = endpoint or "the Hub"
    if isinstance(exc, HfHubHTTPError):
        status = getattr(getattr(exc, "response", None), "status_code", None)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if status == 401:
            return FactoryError(f"{where} did not accept the token ({first}): set HF_TOKEN to a valid token, "
                                "or log in again with `hf auth login`")
        if status == 403:
            return FactoryError(f"{where} refused to let this token write to {repo_id} ({first}): use a token "
                                "with write access to that owner")
        return FactoryError(f"{where} refused the upload to {repo_id} ({first})")
    if isinstance(exc, OSError) or any(c.__module__.split(".")[0] in NETWORK_MODULES for c in type(exc).__mro__):
        return FactoryError(f"cannot reach {where} to publish {repo_id}: {type(exc).__name__}: {exc}. Check the "
                            "network connection (and HF_ENDPOINT, if set), then publish again")
    return exc
