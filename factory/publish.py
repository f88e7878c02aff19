"""Publishing an exported dataset folder to the Hugging Face Hub. The token comes from the
environment (HF_TOKEN) or the local Hub login, and is never written anywhere."""

from __future__ import annotations

import os
from pathlib import Path

from factory.errors import FactoryError
from factory.export import load_instances


def publish(dataset_dir: Path, repo_id: str, *, private: bool = False) -> str:
    """Upload `dataset_dir` (README.md and data/) as a dataset repository; returns its URL."""
    if "/" not in repo_id or repo_id.count("/") != 1:
        raise FactoryError(f"--repo-id must look like 'owner/name', got {repo_id!r}")
    load_instances(dataset_dir)  # refuse to publish something that does not load
    if os.environ.get("HF_HUB_OFFLINE") == "1":
        raise FactoryError("HF_HUB_OFFLINE=1 is set: unset it to publish to the Hub")
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    api = HfApi(token=os.environ.get("HF_TOKEN") or None)
    try:
        url = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        api.upload_folder(repo_id=repo_id, repo_type="dataset", folder_path=str(dataset_dir),
                          allow_patterns=["README.md", "data/*"], commit_message="Upload benchmark split")
    except HfHubHTTPError as exc:
        raise FactoryError(f"the Hub refused the upload to {repo_id}: {exc}") from exc
    except OSError as exc:
        raise FactoryError(f"cannot reach the Hub to publish {repo_id}: {exc}") from exc
    return str(url)
