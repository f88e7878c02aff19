"""Publishing an exported dataset folder to the Hugging Face Hub. The token comes from the
environment (HF_TOKEN) or the local Hub login, and is never written anywhere.

Everything that can go wrong before the upload is found first, without sending anything: a
bad repository id, a folder that is no dataset, offline mode, no token. The token is then
checked with the Hub (who it belongs to) before a repository is created, and a Hub that cannot
be reached or refuses is one line naming the cause and what to do.
"""

from __future__ import annotations

import os
from pathlib import Path

from factory.errors import FactoryError
from factory.export import load_instances

# Libraries the Hub client may raise its network errors from (it moved from requests to httpx
# and on), besides OSError.
NETWORK_MODULES = ("httpx", "httpx2", "requests", "urllib3", "h11", "httpcore")
NO_TOKEN = ("no Hugging Face token: set HF_TOKEN to a token with write access "
            "(https://huggingface.co/settings/tokens) or log in with `hf auth login` (older versions: `huggingface-cli login`), then publish again")


def publish(dataset_dir: Path, repo_id: str, *, private: bool = False) -> str:
    """Upload `dataset_dir` (README.md and data/) as a dataset repository; returns its URL."""
    if "/" not in repo_id or repo_id.count("/") != 1:
        raise FactoryError(f"--repo-id must look like 'owner/name', got {repo_id!r}")
    load_instances(dataset_dir)  # refuse to publish something that does not load
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
        api.upload_folder(repo_id=repo_id, repo_type="dataset", folder_path=str(dataset_dir),
                          allow_patterns=["README.md", "data/*"], commit_message="Upload benchmark split")
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
